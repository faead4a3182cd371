import Foundation
import PickerLogic

/// An argument of a subject function as an executor's question carries it
/// (ExecutorProtocol.md): each function's question is derived from its argument types
/// (`Subject.functions`).
protocol WireArgument: Equatable, Sendable {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient)
}

/// An answer as an executor's reply carries it: `nil` when the value does not read as one
/// (a malformed answer).
protocol WireAnswer: Sendable {
  static func read(_ value: JSONValue) -> Self?
  /// The type, for a malformed answer's message ("an integer").
  static var described: String { get }
  /// Its values in an array ("integers").
  static var describedEach: String { get }
}

extension WireAnswer {
  static var describedEach: String { described }
}

extension Date: WireArgument, WireAnswer {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.instant(key, self)
  }
  static func read(_ value: JSONValue) -> Date? { value.instant }
  static var described: String { "an instant" }
  static var describedEach: String { "instants" }
}

extension Calendar: WireArgument {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.raw(key, client.wire(self))
  }
}

extension Int: WireArgument, WireAnswer {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.int(key, self)
  }
  static func read(_ value: JSONValue) -> Int? { value.integer }
  static var described: String { "an integer" }
  static var describedEach: String { "integers" }
}

extension String: WireArgument, WireAnswer {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.string(key, self)
  }
  static func read(_ value: JSONValue) -> String? {
    if case .string(let text) = value { text } else { nil }
  }
  static var described: String { "a string" }
  static var describedEach: String { "strings" }
}

extension Bool: WireAnswer {
  static func read(_ value: JSONValue) -> Bool? {
    if case .bool(let bool) = value { bool } else { nil }
  }
  static var described: String { "a boolean" }
}

extension Locale: WireArgument {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.string(key, identifier)
  }
}

extension DateText: WireArgument {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    // Both field variants show the same text; only what it is compared with differs.
    question.string(key, self == .fieldISO ? DateText.field.rawValue : rawValue)
  }
}

extension DisclosureRow.Kind: WireArgument {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.string(key, rawValue)
  }
}

extension Subject.Selection: WireArgument, WireAnswer {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.raw(key, ExecutorWire.selection(self))
  }
  /// An object of `start` and `end`, each an instant, null or absent.
  static func read(_ value: JSONValue) -> Subject.Selection? {
    guard let members = value.members else { return nil }
    var selection = Subject.Selection()
    for (key, value) in members {
      if case .null = value { continue }
      guard let date = value.instant else { return nil }
      switch key {
      case "start": selection.start = date
      case "end": selection.end = date
      default: return nil
      }
    }
    return selection
  }
  static var described: String { "a selection ({\"start\": …, \"end\": …})" }
}

extension Subject.Role: WireAnswer {
  static func read(_ value: JSONValue) -> Subject.Role? {
    if case .string(let name) = value { Subject.Role(rawValue: name) } else { nil }
  }
  static var described: String { "one of " + Subject.Role.allCases.map(\.rawValue).joined(separator: ", ") }
}

extension DisclosureSnapshot: WireAnswer {
  static func read(_ value: JSONValue) -> DisclosureSnapshot? {
    guard let members = value.members, case .bool(let expanded)? = members["expanded"],
      case .string(let label)? = members["label"]
    else { return nil }
    return DisclosureSnapshot(isExpanded: expanded, label: label)
  }
  static var described: String { "{\"expanded\": …, \"label\": …}" }
}

extension Array: WireArgument where Element == DisclosureAction {
  func write(_ key: String, into question: inout ExecutorWire.Writer, client: ExecutorClient) {
    question.raw(key, ExecutorWire.actions(self))
  }
}

extension Array: WireAnswer where Element: WireAnswer {
  /// An array of which every element reads.
  static func read(_ value: JSONValue) -> [Element]? {
    guard case .array(let items) = value else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(items.count)
    for item in items {
      guard let element = Element.read(item) else { return nil }
      elements.append(element)
    }
    return elements
  }
  static var described: String { "an array of " + Element.describedEach }
}

extension Optional: WireAnswer where Wrapped: WireAnswer {
  /// `null` is an answer (no date), not a malformed one.
  static func read(_ value: JSONValue) -> Wrapped?? {
    if case .null = value { return .some(nil) }
    return Wrapped.read(value).map { .some($0) }
  }
  static var described: String { Wrapped.described + " or null" }
}
