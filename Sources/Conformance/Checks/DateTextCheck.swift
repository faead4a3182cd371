import Foundation
import ICUOracle

/// `date-text` (seeds 000, 001, 003, 004): every text the seeds show for a date, against
/// `udat_format` with the equivalent skeleton or style in the same locale, calendar and zone.
///
/// The equivalences are swift-foundation's own (measured: through Foundation's ICU they
/// reproduce its output byte for byte): `.abbreviated` is skeleton `yMMMd`, `.long` is
/// `yMMMMd`, `month(.wide).year()` is `yMMMM`, `weekday(.wide).day().month(.wide).year()` is
/// `yMMMMdEEEE`, a medium `DateFormatter` is ICU's medium date style; always with the
/// calendar keyword set. The day cell's number is expected in the locale's digits (pattern
/// `d`), as every other text on the screen writes it. Seed 004's `yyyy-MM-dd` field is
/// expected to be the ISO 8601 date a form field means (`field-iso8601`: Gregorian, ASCII
/// digits; Apple's QA1480 for fixed-format dates), not the seed's pattern in the user's
/// calendar: that is where `yyyy` in a Buddhist or Arabic locale goes wrong.
///
/// The month title and the header also have a `-cycle` variant
/// (`month-title-cycle`, `DateText.cycled`): the same text on the first day of every month of
/// a whole cycle of the calendar and on its years' last days (`cycleDays`): Hebrew Adar in a common year and Adar I and II in a leap
/// one, Chinese and Dangi leap months, the thirteenth months of Coptic and Ethiopic, the
/// last day of a long Islamic or Persian year, the last days of Shōwa and Heisei. The five
/// days of the plain variants stay as they were, so their case ids and values do too.
package struct DateTextCheck: Check {
  package let id = "date-text"
  package let summary =
    "texts of seeds 000/001/003/004 (row, titles, labels, header) vs udat_format in the same locale and calendar; the yyyy-MM-dd field vs the ISO 8601 date"
  package let seeds = ["000", "001", "003", "004"]
  package let subjectFunctions: [Subject.Function] = [.text]
  package let dimensions: [Dimension] = [.locale, .calendar, .variant]
  package let groupDimensions: [Dimension] = [.locale, .calendar]
  package let variants = DateText.checked.map(\.rawValue) + DateText.cycled.map { $0.rawValue + Self.cycleSuffix }

  /// The suffix of the variants over a whole cycle of months.
  static let cycleSuffix = "-cycle"

  /// A variant without its `-cycle` suffix, and whether it had one (`date-text`, `disclosure`).
  static func cycled(_ variant: String) -> (base: String, cycled: Bool) {
    variant.hasSuffix(cycleSuffix) ? (String(variant.dropLast(cycleSuffix.count)), true) : (variant, false)
  }

  /// A calendar's cycle: its days (noon UTC is what is formatted) and its years, for the detail.
  typealias Cycle = (days: [LocalDay], years: String)

  /// The zone texts are formatted in; the days are chosen so that zone plays no part.
  static let zone = "UTC"

  package init() {}

  /// The oracle's format for a text in an ICU locale id that carries the calendar keyword.
  static func spec(_ text: DateText) -> FormatSpec {
    switch text {
    case .row: .skeleton("yMMMd")
    case .accessibilityValue: .skeleton("yMMMMd")
    case .monthTitle: .skeleton("yMMMM")
    case .dayLabel: .pattern("d")
    case .dayAccessibilityLabel: .skeleton("yMMMMdEEEE")
    case .header: .style(.medium)
    case .field, .fieldISO: .pattern("yyyy-MM-dd")
    }
  }

  /// The days each calendar's texts are checked on: era starts (1989-01-08 Heisei, 2019-05-01
  /// Reiwa), a leap month (1995-09-25, Chinese), a day whose week belongs to the next year
  /// (2024-12-30: `YYYY` and `yyyy` differ), Nowruz 2026, and the first day of the first leap
  /// month of the calendar in the window, if it has one. Noon UTC of each.
  static func days(_ calendar: String, _ corpus: Corpus) -> [LocalDay] {
    var days = [LocalDay(year: 1989, month: 1, day: 8), LocalDay(year: 1995, month: 9, day: 25),
                LocalDay(year: 2019, month: 5, day: 1), LocalDay(year: 2024, month: 12, day: 30),
                LocalDay(year: 2026, month: 3, day: 21)]
    if let leap = corpus.monthTables[calendar]?.months.first(where: {
      $0.isLeapMonth && corpus.window.contains($0.firstDay)
    }), !days.contains(leap.firstDay) {
      days.append(leap.firstDay)
    }
    return days
  }

  /// The cycle of a calendar whose months a `-cycle` variant names: the first year from
  /// mid-2016 (or the window's first whole year) that is longer than the year before it (a
  /// leap month, a thirteenth month, a leap day), with that year before it when the two have
  /// different months (Hebrew Adar against Adar I and II; Chinese leap months). The first day
  /// of each of their months and each year's last day, noon UTC; in Japanese also the last
  /// days of Shōwa and Heisei (the plain variants have the first days of Heisei and Reiwa).
  static func cycleDays(_ calendar: String, _ corpus: Corpus) -> Cycle {
    guard let table = corpus.monthTables[calendar] else { return ([], "none") }
    let byYear = Dictionary(grouping: table.months, by: \.extendedYear)
    // The table's first and last years may be cut by the window.
    let whole = byYear.keys.sorted().dropFirst().dropLast()
    let start = LocalDay(year: 2016, month: 6, day: 1)
    func length(_ year: Int32) -> Int32 { byYear[year, default: []].reduce(0) { $0 + $1.length } }
    // More months (a leap month, Adar I) first; a leap day only where months never vary.
    func moreMonths(_ year: Int32) -> Bool {
      guard whole.contains(year - 1) else { return false }
      let (this, before) = (byYear[year] ?? [], byYear[year - 1] ?? [])
      return this.count > before.count || this.contains(where: \.isLeapMonth)
    }
    func moreDays(_ year: Int32) -> Bool { whole.contains(year - 1) && length(year) > length(year - 1) }
    let candidates = whole.filter { (byYear[$0]?.last?.endDay ?? start) > start }
    guard let year = candidates.first(where: moreMonths) ?? whole.last(where: moreMonths)
      ?? candidates.first(where: moreDays) ?? whole.last(where: moreDays) ?? whole.last
    else { return ([], "none") }
    let this = byYear[year] ?? []
    let before = byYear[year - 1] ?? []
    let both = before.count != this.count || this.contains(where: \.isLeapMonth)
    var days = (both ? before + this : this).map(\.firstDay)
    // Each year's last day: the day before it ends, and the day before it starts.
    if let first = this.first, let last = this.last {
      days += [first.firstDay.adding(days: -1), last.endDay.adding(days: -1)]
    }
    if calendar == "japanese" {
      days += [LocalDay(year: 1989, month: 1, day: 7), LocalDay(year: 2019, month: 4, day: 30)]
        .filter(corpus.window.contains)
    }
    let years = (both ? [before.first, this.first] : [this.first]).compactMap { $0 }
      .map { String($0.year) }.joined(separator: " and ")
    return (Array(Set(days)).sorted(), "every month of year \(years) (era \(this.first?.era ?? 0))")
  }

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let spelling = id.locale, let calendarID = id.calendar, let variant = id.variant.map(Self.cycled),
      let text = DateText(rawValue: variant.base)
    else { throw InputError("\(id): date-text needs locale, calendar and a known variant") }
    try context.subject.requireText(text)
    let locale = try context.locale(spelling)
    let calendar = try context.calendars.calendar(calendarID, zone: Self.zone, locale: spelling)
    let cycled = variant.cycled
    let cycle = cycled ? context.cycle(of: calendarID) : (days: [], years: "")
    let days = cycled ? cycle.days : Self.days(calendarID, context.corpus)
    let instants = days.map { $0.utcMidnightMillis + 43_200_000 }
    let actual = instants.map {
      context.subject.text(text, EvaluationContext.date($0), calendar, calendar.locale ?? .current)
    }
    let expected: [String]
    let oracleLocale: String
    if text == .fieldISO {
      oracleLocale = "en_US_POSIX@calendar=gregorian"
      expected = days.map(\.description)
    } else {
      oracleLocale = try context.corpus.localeCatalog.id(locale.icuID, settingKeyword: "calendar",
                                                         to: calendarID)
      let format = try context.oracle.format(locale: oracleLocale, zone: Self.zone, Self.spec(text))
      expected = try instants.map { (millis) throws(ICUError) in try format.format(millis) }
    }
    return .comparing(
      expected: .strings(expected), actual: .strings(actual),
      pattern: Self.pattern(text, expected: expected, actual: actual),
      detail: [(cycled ? "days: \(cycle.years), the first of each month and each year's last: " : "days: ")
                 + days.map(\.description).joined(separator: ", ") + " (noon UTC)",
               "oracle: \(text == .fieldISO ? "ISO 8601 date" : Self.spec(text).description) in \(oracleLocale)"])
  }

  /// Tells digits, spacing and punctuation apart from different words.
  static func pattern(_ text: DateText, expected: [String], actual: [String]) -> String {
    let pairs = zip(expected, actual).filter { $0 != $1 }
    guard let (wanted, got) = pairs.first else { return "" }
    let prefix = "\(text.rawValue): "
    if text == .fieldISO {
      return prefix + (got.unicodeScalars.contains { $0.value > 0x7F }
        ? "field text has non-ASCII digits" : "field text is not the ISO 8601 date")
    }
    func digits(_ s: String) -> [UInt32] {
      s.unicodeScalars.compactMap { $0.properties.numericType == .decimal ? UInt32($0.properties.numericValue ?? -1) : nil }
    }
    func skeleton(_ s: String) -> String {
      String(s.unicodeScalars.filter {
        $0.properties.numericType != .decimal && !$0.properties.isWhitespace
          && $0.properties.generalCategory != .format && !$0.properties.isDash
          && !",.،".unicodeScalars.contains($0)
      }.map(Character.init))
    }
    if digits(wanted) == digits(got) && skeleton(wanted) == skeleton(got) {
      let scripts = Set(got.unicodeScalars.filter { $0.properties.numericType == .decimal }.map { $0.value >> 4 })
        != Set(wanted.unicodeScalars.filter { $0.properties.numericType == .decimal }.map { $0.value >> 4 })
      return prefix + (scripts ? "digits in another script" : "spacing or punctuation differs")
    }
    return prefix + "text differs"
  }
}
