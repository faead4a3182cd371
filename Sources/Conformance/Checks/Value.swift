/// An expected or actual value of a case, kept structured so reports can show it exactly.
package indirect enum Value: Sendable, Equatable, CustomStringConvertible {
  case int(Int)
  case bool(Bool)
  case string(String)
  case list([Value])
  case null

  /// Compact text for consoles and reports: lists in brackets, strings quoted.
  package var description: String {
    switch self {
    case .int(let value): String(value)
    case .bool(let value): String(value)
    case .string(let value): "\"\(value)\""
    case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .null: "null"
    }
  }

  package static func strings(_ values: [String]) -> Value { .list(values.map(Value.string)) }

  /// A digest of `description` (64-bit FNV-1a), the same in every process and on every
  /// machine: what `results.json` keeps of an abridged case's actual value, so a later run can
  /// still tell `still-failing` from `changed` without the value itself.
  package var digest: UInt64 { Self.digest(of: description) }

  /// The digest as results files write it: sixteen lowercase hex digits.
  package var digestText: String { digest.digestText }

  /// 64-bit FNV-1a of the text's UTF-8 bytes.
  package static func digest(of text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return hash
  }
}

extension UInt64 {
  /// Sixteen lowercase hex digits, as `results.json` writes a value's digest.
  var digestText: String { String(self, radix: 16).leftPadded(to: 16) }
}

extension Value: Codable {
  /// A value as JSON has it: a number is an integer (no value of ours holds a fraction), a
  /// boolean stays a boolean, a list keeps its order.
  package init(from decoder: any Decoder) throws {
    // Read from its text where the decoder has it: trying each kind in turn costs an error
    // for each miss, most of what reading a month of cells cost.
    if let text = (decoder as? MemberDecoder)?.text, let value = Value(jsonText: text) {
      self = value
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else {
      self = .list(try container.decode([Value].self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .int(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .list(let values): try container.encode(values)
    case .null: try container.encodeNil()
    }
  }
}

extension Value {
  /// The value JSON text holds, when it holds one as `init(from:)` reads it: null, a
  /// boolean, an integer without fraction or exponent, a string, or an array of these.
  /// `nil` otherwise, and `JSONDecoder` reads it the same way or names the fault.
  init?(jsonText bytes: UnsafeBufferPointer<UInt8>) {
    let value: Value?
    switch bytes.first {
    case UInt8(ascii: "\""): value = JSONText.isValue(bytes) ? JSONText.string(bytes).map(Value.string) : nil
    case UInt8(ascii: "["): value = JSONText.array(bytes, Value.init(jsonText:)).map(Value.list)
    case UInt8(ascii: "n"): value = bytes.elementsEqual("null".utf8) ? .null : nil
    case UInt8(ascii: "t"): value = bytes.elementsEqual("true".utf8) ? .bool(true) : nil
    case UInt8(ascii: "f"): value = bytes.elementsEqual("false".utf8) ? .bool(false) : nil
    default: value = JSONText.isValue(bytes) ? JSONText.int(bytes).map(Value.int) : nil
    }
    guard let value else { return nil }
    self = value
  }
}

/// A case value as the reports write it.
extension Value {
  var json: JSONValue {
    switch self {
    case .int(let value): .int(value)
    case .bool(let value): .bool(value)
    case .string(let value): .string(value)
    case .list(let values): .array(values.map(\.json))
    case .null: .null
    }
  }
}
