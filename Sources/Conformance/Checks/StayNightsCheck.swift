import Foundation
import ICUOracle

/// `stay-nights` (seed 001's demo): the "N nights" summary between two picked days.
///
/// A guest counts nights by dates: a stay from the 4th to the 5th is one night, however long
/// the 4th is (23 hours in America/Sao_Paulo on 2018-11-04, which starts at 01:00). Expected:
/// the number of local dates that exist from the first picked date up to the last, the last
/// excluded, from libicu's days of the month in the zone (`UCAL_JULIAN_DAY` numbers, less the
/// dates the zone skipped: Pacific/Apia's 29 to 31 December 2011 is one night). Never a
/// difference of instants: the seed's `dateComponents([.day])` counts 24-hour steps, and
/// says 0 for Sao Paulo's night and 29 for the 30 dates of Asia/Kathmandu's January 1986.
///
/// Pairs of day starts: the month's first and last day, its first two days, and the days
/// either side of every transition.
package struct StayNightsCheck: Check {
  package let id = "stay-nights"
  package let summary =
    "the \"N nights\" summary (seed 001 demo) vs the local dates from the first picked day to the last (libicu)"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.nights]
  package let dimensions: [Dimension] = [.calendar, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]
  package let monthCoverage = MonthCoverage.transitionMonths

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): stay-nights needs calendar and zone")
    }
    let (geometry, transitions, picked) = try Self.pairs(of: id, zone: zone, calendar: calendarID, in: context)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let month = geometry.month
    let days = geometry.days
    // Each pair of dates asked: its day starts and the existing dates from the first up to
    // the last. A voice that evaluates the case again asks libicu's pairs of dates (a release
    // whose transition falls on another day, or whose month starts on another day, would
    // otherwise compare answers to other questions), counted in its own zone data.
    var asked: [(from: LocalDay, fromStart: Double, to: LocalDay, toStart: Double, nights: Int)] = []
    if let primary = context.primary {
      let primaryDays = try Self.pairs(of: id, zone: zone, calendar: calendarID, in: primary)
      let timeline = try context.oracle.timeline(zone)
      for pair in primaryDays.picked {
        let (from, to) = (primaryDays.geometry.days[pair[0]].day, primaryDays.geometry.days[pair[1]].day)
        guard let fromStart = try timeline.start(of: from), let toStart = try timeline.start(of: to) else { continue }
        var nights = 0
        var day = from
        while day < to {
          if try timeline.start(of: day) != nil { nights += 1 }
          day = day.adding(days: 1)
        }
        asked.append((from, fromStart, to, toStart, nights))
      }
    } else {
      // The existing dates from one day up to another: the days between them in the list.
      asked = picked.map { (days[$0[0]].day, days[$0[0]].start, days[$0[1]].day, days[$0[1]].start, $0[1] - $0[0]) }
    }
    var counts: [(label: () -> String, expected: Int, actual: Int)] = []
    for (from, fromStart, to, toStart, nights) in asked {
      let subject = context.subject.nights(EvaluationContext.date(fromStart), EvaluationContext.date(toStart), calendar)
      counts.append(({ "\(from) → \(to)" }, nights, subject))
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
      pattern: Self.pattern(counts.map { ($0.expected, $0.actual) }, kinds: kinds),
      detail: ["pairs of day starts; a night for each existing date from the first to the last, "
        + "the last excluded; transitions in the month: "
        + (kinds.isEmpty ? "none" : kinds.joined(separator: ", "))],
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar))),
      { (expected, actual) })
  }

  /// The first differing pair's direction: fewer nights than dates is a count of 24-hour
  /// steps across a short day.
  static func pattern(_ counts: [(expected: Int, actual: Int)], kinds: [String]) -> String {
    let first = counts.first { $0.expected != $0.actual }
    let shape = first.map { $0.actual < $0.expected ? "fewer nights than dates" : "more nights than dates" }
      ?? "night count differs"
    return shape + (kinds.isEmpty ? "" : " across " + kinds.joined(separator: "+"))
  }

  /// The case's month in `context`'s view, its transitions there, and the pairs of its days
  /// asked (indices into the month's existing days, sorted): the month's first and last day,
  /// its first two, and the days either side of every transition.
  static func pairs(of id: CaseID, zone: String, calendar: String, in context: EvaluationContext)
    throws -> (geometry: MonthGeometry, transitions: [ZoneTransition], picked: [[Int]])
  {
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendar, zone: zone, days: true)
    let transitions = try context.oracle.timeline(zone).transitions(from: geometry.firstInstant,
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
    return (geometry, transitions, pairs.sorted { $0.lexicographicallyPrecedes($1) })
  }
}
