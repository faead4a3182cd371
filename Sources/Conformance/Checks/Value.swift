/// An expected or actual value of a case, kept structured so reports can show it exactly.
public indirect enum Value: Sendable, Equatable, CustomStringConvertible {
  case int(Int)
  case bool(Bool)
  case string(String)
  case list([Value])
  case null

  /// Compact text for consoles and reports: lists in brackets, strings quoted.
  public var description: String {
    switch self {
    case .int(let value): String(value)
    case .bool(let value): String(value)
    case .string(let value): "\"\(value)\""
    case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .null: "null"
    }
  }

  public static func strings(_ values: [String]) -> Value { .list(values.map(Value.string)) }
}
