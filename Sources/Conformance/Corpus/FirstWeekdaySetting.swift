/// The first-weekday dimension: the locale's own, or an explicit `Calendar.firstWeekday`.
public enum FirstWeekdaySetting: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Whatever the locale asks for (region data, or its `fw` keyword).
  case own
  /// An explicit first weekday, 1 = Sunday … 7 = Saturday.
  case fixed(Int)

  /// Every setting: the locale's own, then 1…7.
  public static let all: [FirstWeekdaySetting] = [.own] + (1...7).map { .fixed($0) }

  /// `own` or the weekday number, as in case ids and on the command line.
  public var description: String {
    switch self {
    case .own: "own"
    case .fixed(let weekday): String(weekday)
    }
  }

  /// Parses `own` or `1`…`7`.
  public init?(_ text: String) {
    if text == "own" {
      self = .own
    } else if let weekday = Int(text), (1...7).contains(weekday) {
      self = .fixed(weekday)
    } else {
      return nil
    }
  }
}

/// As on the command line: `"own"` or `"1"`…`"7"`.
extension FirstWeekdaySetting: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let setting = FirstWeekdaySetting(text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a first weekday: \(text)")
    }
    self = setting
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
