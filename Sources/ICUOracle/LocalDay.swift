#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A local date, numbered as ICU's `UCAL_JULIAN_DAY` numbers it.
///
/// The number names the same date in every calendar system and every zone, which is what
/// lets the oracle compute calendar structure once per calendar and zone structure once per
/// zone. The ISO text is a label for ids and reports, not an expectation.
public struct LocalDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// ICU's Julian day number of the date (1970-01-01 is 2 440 588).
  public var julianDay: Int32

  public init(julianDay: Int32) { self.julianDay = julianDay }

  /// The Julian day of 1970-01-01, the day UDate 0 falls on in UTC.
  public static let unixEpochJulianDay: Int32 = 2_440_588

  /// The proleptic Gregorian date (Fliegel and Van Flandern, CACM 11(10), 1968).
  public init(year: Int, month: Int, day: Int) {
    let a = (14 - month) / 12
    let y = year + 4800 - a
    let m = month + 12 * a - 3
    let jdn = day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    self.julianDay = Int32(jdn)
  }

  /// Parses `yyyy-MM-dd` (as printed by `description`), or returns `nil`.
  public init?(isoText: String) {
    let parts = isoText.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(validating: year, month, day)
  }

  /// Parses `yyyy-MM-dd` from UTF-8 bytes of exactly that shape, or returns `nil` (a merge
  /// reads a month from every failing case's id).
  public init?(isoBytes bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
    self.init(validating: year, month, day)
  }

  /// The date, when `year`, `month` and `day` name one (not 2011-02-29).
  private init?(validating year: Int, _ month: Int, _ day: Int) {
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    self.init(year: year, month: month, day: day)
    guard gregorian == (year, month, day) else { return nil }
  }

  /// The proleptic Gregorian (year, month, day) of this date.
  public var gregorian: (year: Int, month: Int, day: Int) {
    let l0 = Int(julianDay) + 68569
    let n = 4 * l0 / 146097
    let l1 = l0 - (146097 * n + 3) / 4
    let i = 4000 * (l1 + 1) / 1_461_001
    let l2 = l1 - 1461 * i / 4 + 31
    let j = 80 * l2 / 2447
    let day = l2 - 2447 * j / 80
    let l3 = j / 11
    let month = j + 2 - 12 * l3
    let year = 100 * (n - 49) + i + l3
    return (year, month, day)
  }

  /// `yyyy-MM-dd` in the proleptic Gregorian calendar.
  public var description: String {
    let (y, m, d) = gregorian
    return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
  }

  /// The UDate of this date's midnight in UTC (not in any other zone).
  public var utcMidnightMillis: Double {
    Double(julianDay - Self.unixEpochJulianDay) * 86_400_000
  }

  public func adding(days: Int32) -> LocalDay { LocalDay(julianDay: julianDay + days) }

  /// Today in UTC, from the system clock (UDate 0 is 1970-01-01).
  public static var today: LocalDay {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return LocalDay(julianDay: unixEpochJulianDay + Int32(now.tv_sec / 86_400))
  }

  public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.julianDay < rhs.julianDay }
}
