import Foundation

/// A JSON document with ordered keys, written by hand so reports are stable byte for byte.
package indirect enum JSONValue: Sendable, Equatable {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case int(Int)
  case double(Double)
  case bool(Bool)
  case null

  /// A measured figure (seconds, a rate, megabytes) to three places: the bench's reports are
  /// read by people and diffed.
  package static func measured(_ value: Double) -> JSONValue {
    .double(value.isFinite ? (value * 1000).rounded() / 1000 : value)
  }

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    lhs.rendered(indent: nil) == rhs.rendered(indent: nil)
  }

  /// The JSON text; with `indent`, objects and arrays nest one per line down to `depth`.
  package func rendered(indent: Int? = 2, depth: Int = 3) -> String {
    var output = ""
    write(into: &output, indent: indent, level: 0, depth: depth)
    return output
  }

  private func write(into output: inout String, indent: Int?, level: Int, depth: Int) {
    let pretty = indent != nil && level < depth
    let pad = pretty ? "\n" + String(repeating: " ", count: (indent ?? 0) * (level + 1)) : ""
    let close = pretty ? "\n" + String(repeating: " ", count: (indent ?? 0) * level) : ""
    switch self {
    case .object(let members):
      if members.isEmpty { output += "{}"; return }
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        output += pad
        Self.writeString(key, into: &output)
        output += pretty ? ": " : ":"
        value.write(into: &output, indent: indent, level: level + 1, depth: depth)
      }
      output += close + "}"
    case .array(let values):
      if values.isEmpty { output += "[]"; return }
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        output += pad
        value.write(into: &output, indent: indent, level: level + 1, depth: depth)
      }
      output += close + "]"
    case .string(let text): Self.writeString(text, into: &output)
    case .int(let value): output += String(value)
    case .double(let value):
      // The shortest text that reads back as the same value, as `JSONEncoder` writes it: a
      // reader of the page and of results.json sees one number, not one rounded twice.
      guard value.isFinite else { output += "null"; return }
      let text = String(describing: value)
      output += text.hasSuffix(".0") ? text.dropLast(2) : Substring(text)
    case .bool(let value): output += value ? "true" : "false"
    case .null: output += "null"
    }
  }

  /// A JSON string as every JSON text of ours writes it (`JSONString`), U+2028 and U+2029
  /// escaped: this text may be embedded in the page's script.
  static func writeString(_ text: String, into output: inout String) {
    JSONString.append(text, to: &output, lineSeparators: true)
  }
}

extension JSONValue: Encodable {
  /// The value through an `Encoder` (a case record inside another record); members in order.
  package func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: AnyKey.self)
      for (key, value) in members { try container.encode(value, forKey: AnyKey(stringValue: key)) }
    case .array(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .string(let text): try Self.encode(text, to: encoder)
    case .int(let value): try Self.encode(value, to: encoder)
    case .double(let value): try Self.encode(value, to: encoder)
    case .bool(let value): try Self.encode(value, to: encoder)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }

  private static func encode(_ value: some Encodable, to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}
