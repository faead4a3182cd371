import Foundation
import ICUOracle

/// `weekday-symbols` (seed 001): the grid's column headers.
///
/// Expected: libicu's standalone narrow weekday symbols for the locale and calendar, rotated
/// to the first weekday: the explicit setting, or the locale's own by UTS #35 (its `fw`
/// keyword, else CLDR week data).
package struct WeekdaySymbolsCheck: Check, ReferenceChecked {
  package let id = "weekday-symbols"
  package let summary =
    "column headers (seed 001 weekdaySymbols) vs libicu's standalone narrow symbols rotated to the first weekday"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.weekdaySymbols]
  package let dimensions: [Dimension] = [.locale, .calendar, .firstWeekday]
  package let groupDimensions: [Dimension] = [.locale, .calendar]

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let spelling = id.locale, let calendarID = id.calendar, let setting = id.firstWeekday
    else { throw HarnessError("\(id): weekday-symbols needs locale, calendar and fw") }
    let icuID = try context.locale(spelling).icuID
    let sundayFirst = try context.oracle.weekdaySymbols(locale: icuID, calendar: calendarID)
    let expectedFirst: Int
    let explicit: Int?
    switch setting {
    case .own:
      expectedFirst = try context.oracle.firstDay(locale: icuID, calendar: calendarID)
      explicit = nil
    case .fixed(let weekday):
      expectedFirst = weekday
      explicit = weekday
    }
    let calendar = try context.calendars.calendar(calendarID, zone: "UTC", locale: spelling,
                                      firstWeekday: explicit)
    let expected = ICU.rotated(sundayFirst, toStartAt: expectedFirst)
    let actual = context.subject.weekdaySymbols(calendar)
    // The first weekday each side used, then its symbols, with --record all.
    return context.recorded(.comparing(
      expected: .strings(expected), actual: .strings(actual),
      pattern: Self.pattern(sundayFirst: sundayFirst, expectedFirst: expectedFirst,
                            actual: actual, given: calendar.firstWeekday),
      detail: [
        "oracle: symbols \(sundayFirst) (Sunday first), first weekday \(expectedFirst)"
          + (explicit == nil ? " (locale's own)" : " (set)"),
        "subject: headers \(actual), given firstWeekday \(calendar.firstWeekday)"
          + (explicit == nil ? " (the harness's reading of the locale, through Foundation)" : "")
          + (Self.rotation(of: actual, from: sundayFirst, preferring: expectedFirst)
            .map { ": libicu's symbols from weekday \($0)" } ?? ": not a rotation of libicu's symbols"),
        "Foundation (the harness's reading): symbols \(calendar.veryShortStandaloneWeekdaySymbols) (Sunday first)",
      ]),
      { (.list([.int(expectedFirst), .strings(expected)]),
         .list([.int(calendar.firstWeekday), .strings(actual)])) })
  }

  /// Never: babel keeps a locale's unconfirmed draft names where it has no other (CLDR 42's
  /// `eo` "D L M M Ĵ V S", draft="unconfirmed"), which ICU's data build drops, so a pass is
  /// not overturned on babel's word. Failures still read the three voices.
  func referenceJudgesPasses(_ id: CaseID, in data: ReferenceData) -> Bool { false }

  func declares(_ releases: DataReleases) -> Bool { releases.cldr != nil }

  /// The release's narrow names for the locale, rotated to the first weekday: the explicit
  /// setting, or the release's first day for the locale (UTS #35, as the generator applies it).
  func reference(_ id: CaseID, in data: ReferenceData, side: ReferenceSide,
                 context: EvaluationContext) -> (name: String, answer: ReferenceAnswer) {
    let (name, found) = data.cldr(for: side, subject: context.subject.releases)
    guard let cldr = found else { return (name, .missing("Corpora/reference has no \(name)")) }
    guard let spelling = id.locale, let setting = id.firstWeekday else {
      return (name, .missing("\(id) names no locale or first weekday"))
    }
    guard let names = cldr.narrowWeekdays[spelling] else {
      return (name, .missing("babel cannot resolve locale '\(spelling)'"))
    }
    switch setting {
    case .fixed(let weekday):
      return (name, .value(.strings(ICU.rotated(names, toStartAt: weekday))))
    case .own where id.calendar == "iso8601" && !cldr.firstDayByKeyword.contains(spelling):
      // ISO 8601 weeks start on Monday (ISO 8601-1:2019, 3.1.1.6), whatever the region.
      return (name, .value(.strings(ICU.rotated(names, toStartAt: 2))))
    case .own:
      guard let first = cldr.firstDay[spelling] else {
        return (name, .missing("no babel locale of the region of '\(spelling)' states its week data"))
      }
      return (name, .value(.strings(ICU.rotated(names, toStartAt: first))))
    }
  }

  /// The weekday (Sunday 1) from which `sundayFirst` rotated reads `headers`, `preferred`
  /// when it does, or `nil` when no rotation does.
  static func rotation(of headers: [String], from sundayFirst: [String], preferring preferred: Int) -> Int? {
    guard headers.count == sundayFirst.count, !headers.isEmpty else { return nil }
    let candidates = [preferred] + Array(1...sundayFirst.count).filter { $0 != preferred }
    return candidates.first { ICU.rotated(sundayFirst, toStartAt: $0) == headers }
  }

  /// Tells a different first weekday from changed symbols, from the subject's headers and the
  /// first weekday it was given (set, or Foundation's for the locale): whether the headers are
  /// libicu's symbols rotated, and whether it was given libicu's first weekday.
  static func pattern(sundayFirst: [String], expectedFirst: Int, actual: [String], given: Int) -> String {
    let rotated = rotation(of: actual, from: sundayFirst, preferring: given)
    switch (given == expectedFirst, rotated) {
    case (false, given?):
      return "different first weekday (libicu \(expectedFirst), given \(given))"
    case (true, nil):
      return "narrow symbols changed"
    case (false, nil):
      return "different first weekday and narrow symbols"
    case (_, _?):
      return "rotation differs from the first weekday"
    }
  }
}
