import Foundation

/// Reading any JSON value: the one type for JSON whose shape is not a record's (an
/// executor's answers, the waiver file, whose errors name the entry and key at fault in a
/// person's words rather than a coding path).
extension JSONValue: Decodable {
  /// Any JSON value; an object keeps the order the decoder gives its keys.
  package init(from decoder: any Decoder) throws {
    if let text = (decoder as? MemberDecoder)?.text, let value = JSONValue(plainJSON: text) {
      self = value
      return
    }
    if let container = try? decoder.container(keyedBy: AnyKey.self) {
      self = .object(try container.allKeys.map { ($0.stringValue, try container.decode(JSONValue.self, forKey: $0)) })
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var values: [JSONValue] = []
      while !container.isAtEnd { values.append(try container.decode(JSONValue.self)) }
      self = .array(values)
      return
    }
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      self = .null
    } else if let bool = try? value.decode(Bool.self) {
      self = .bool(bool)
    } else if let int = try? value.decode(Int.self) {
      self = .int(int)
    } else if let double = try? value.decode(Double.self) {
      self = .double(double)
    } else {
      self = .string(try value.decode(String.self))
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// A number as seconds since 1970 (an integer or not).
  var instant: Date? {
    switch self {
    case .int(let value): Date(timeIntervalSince1970: Double(value))
    case .double(let value) where value.isFinite: Date(timeIntervalSince1970: value)
    default: nil
    }
  }

  /// A whole number (written with or without a fraction of zero).
  var integer: Int? {
    switch self {
    case .int(let value): value
    case .double(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
    default: nil
    }
  }

  /// The members of an object, by key.
  var members: [String: JSONValue]? {
    guard case .object(let members) = self else { return nil }
    return Dictionary(members, uniquingKeysWith: { first, _ in first })
  }
}

extension JSONValue {
  /// The text of a string.
  var text: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value as an error message shows it: a string as it is, a list item by item, an
  /// object elided.
  var shown: String {
    switch self {
    case .string(let text): text
    case .int(let value): String(value)
    case .double(let value): integer.map(String.init) ?? String(value)
    case .bool(let value): String(value)
    case .null: "null"
    case .array(let items): "[" + items.map(\.shown).joined(separator: ", ") + "]"
    case .object: "{…}"
    }
  }
}

extension JSONValue {
  /// Null, a boolean, an integer without fraction or exponent, a string, or an array of
  /// these, as `init(from:)` reads them (most of an executor's answers), read from their
  /// text; `nil` for anything else (already checked to be JSON by the decoder's walk).
  init?(plainJSON bytes: UnsafeBufferPointer<UInt8>) {
    let value: JSONValue?
    switch bytes.first {
    case UInt8(ascii: "n"): value = bytes.elementsEqual("null".utf8) ? .null : nil
    case UInt8(ascii: "t"): value = bytes.elementsEqual("true".utf8) ? .bool(true) : nil
    case UInt8(ascii: "f"): value = bytes.elementsEqual("false".utf8) ? .bool(false) : nil
    case UInt8(ascii: "\""): value = JSONText.string(bytes).map(JSONValue.string)
    case UInt8(ascii: "["): value = JSONText.array(bytes, JSONValue.init(plainJSON:)).map(JSONValue.array)
    default: value = JSONText.int(bytes).map(JSONValue.int)
    }
    guard let value else { return nil }
    self = value
  }
}
