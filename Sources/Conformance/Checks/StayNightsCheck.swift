import Foundation
import ICUOracle

/// `stay-nights` (seed 001's demo): the "N nights" summary between two picked days,
/// `dateComponents([.day], from: start, to: end).day`.
///
/// Pairs of day starts: the month's first and last day, its first two days, and the days
/// either side of every transition. Expected: libicu's field difference in days
/// (`ucal_getFieldDifference(DATE)`) between the same instants, in the same zone, with ICU's
/// default wall-time policies (those of Foundation's own day arithmetic). ICU counts days alike
/// in every calendar system, so tables mode counts them in a Gregorian calendar
/// (`OracleSession.dayArithmetic`). Where a date is skipped (Pacific/Apia 2011-12-30), one
/// night passes between the 29th and the 31st.
public struct StayNightsCheck: Check {
  public let id = "stay-nights"
  public let summary =
    "the \"N nights\" summary (seed 001 demo) vs libicu's day difference between the picked days"
  public let seeds = ["001"]
  public let subjectFunctions: [Subject.Function] = [.nights]
  public let dimensions: [Dimension] = [.calendar, .zone, .month]
  public let groupDimensions: [Dimension] = [.calendar, .zone]
  public let monthCoverage = MonthCoverage.transitionMonths

  public init() {}

  public func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): stay-nights needs calendar and zone")
    }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let icu = try context.oracle.dayArithmetic(calendar: calendarID, zone: zone)
    let timeline = try context.oracle.timeline(zone)
    let transitions = try timeline.transitions(from: geometry.firstInstant,
                                               to: geometry.endInstant)
    let days = geometry.days
    var pairs: Set<[Int]> = [[0, days.count - 1], [0, 1]]
    for day in Set(transitions.flatMap(\.localDays)) {
      guard let index = days.firstIndex(where: { $0.day >= day }) else { continue }
      for (a, b) in [(index - 1, index + 1), (index - 1, index), (index, index + 1)]
      where a >= 0 && b < days.count && a < b {
        pairs.insert([a, b])
      }
    }
    var counts: [(label: () -> String, expected: Int, actual: Int)] = []
    for pair in pairs.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      let (from, to) = (days[pair[0]], days[pair[1]])
      try icu.setMillis(from.start)
      let nights = Int(try icu.difference(to: to.start, in: .date))
      let subject = context.subject.nights(
        EvaluationContext.date(from.start), EvaluationContext.date(to.start), calendar)
      counts.append(({ "\(from.day) → \(to.day)" }, nights, subject))
    }
    // Each pair's night count on each side, with --record all.
    let values = { () -> (oracle: Value, subject: Value) in
      (.list(counts.map { .string("\($0.label()): \($0.expected)") }),
       .list(counts.map { .string("\($0.label()): \($0.actual)") }))
    }
    guard counts.contains(where: { $0.expected != $0.actual }) else {
      return context.recorded(.agreed(counts.count), values)
    }
    let (expected, actual) = values()
    let kinds = Set(transitions.flatMap(\.kinds)).sorted().map(\.rawValue)
    return context.recorded(.comparing(
      expected: expected, actual: actual,
      pattern: "night count differs" + (kinds.isEmpty ? "" : " across " + kinds.joined(separator: "+")),
      detail: ["pairs of day starts; transitions in the month: "
        + (kinds.isEmpty ? "none" : kinds.joined(separator: ", "))],
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar))),
      { (expected, actual) })
  }
}
