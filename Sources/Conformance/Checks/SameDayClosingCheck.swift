import Foundation
import ICUOracle

/// `same-day-closing` (seed 000): the inline picker closes only when a *different day* is
/// picked (`closes(from:to:in:)`, which asks Foundation's `isDate(_:inSameDayAs:)`).
///
/// Instants: one second before, at and after local midnights, and the same around each
/// transition and at the end of the wall-clock hours it repeats. In a month without
/// transitions (a control month) every midnight is used; in a month with transitions, the
/// midnights of the days next to them (the other midnights are the control months' again).
/// Pairs: every two instants at most three hours apart. Expected: "closes" exactly when
/// libicu puts the two instants on different local dates.
package struct SameDayClosingCheck: Check {
  package let id = "same-day-closing"
  package let summary =
    "closes(from:to:in:) (seed 000) for instant pairs around midnights and transitions vs libicu's local dates"
  package let seeds = ["000"]
  package let subjectFunctions: [Subject.Function] = [.closes]
  package let dimensions: [Dimension] = [.calendar, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]
  package let monthCoverage = MonthCoverage.transitionMonths

  /// Pairs further apart than this are on different days in every zone we know of, and
  /// add cost without adding information.
  static let pairWindow: Double = 3 * 3_600_000

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): same-day-closing needs calendar and zone")
    }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let timeline = try context.oracle.timeline(zone)
    let transitions = try timeline.transitions(from: geometry.firstInstant - Self.pairWindow,
                                               to: geometry.endInstant + Self.pairWindow)
    let instants = Self.instants(geometry: geometry, transitions: transitions)
    let days = try instants.map { (instant) throws(ICUError) in try timeline.localDay(at: instant) }

    var pairCount = 0
    var expectedMismatches: [Value] = []
    var actualMismatches: [Value] = []
    var splits = 0
    var merges = 0
    // Every pair with both instants and each side's verdict, with --record all.
    let iso = context.recordsValues ? try instants.map(timeline.isoText) : []
    var oraclePairs: [Value] = []
    var subjectPairs: [Value] = []
    for i in instants.indices {
      for j in (i + 1)..<instants.count where instants[j] - instants[i] <= Self.pairWindow {
        pairCount += 1
        let expected = days[i] != days[j]
        let actual = context.subject.closes(
          EvaluationContext.date(instants[i]), EvaluationContext.date(instants[j]), calendar)
        if context.recordsValues {
          oraclePairs.append(.strings([iso[i], iso[j], Self.verdict(expected)]))
          subjectPairs.append(.strings([iso[i], iso[j], Self.verdict(actual)]))
        }
        guard expected != actual else { continue }
        if expected { merges += 1 } else { splits += 1 }
        let pair = "\(try timeline.wallText(at: instants[i])) → "
          + "\(try timeline.wallText(at: instants[j]))"
        expectedMismatches.append(.string("\(pair): \(Self.verdict(expected))"))
        actualMismatches.append(.string("\(pair): \(Self.verdict(actual))"))
      }
    }
    let agree = Value.string("\(pairCount) pairs agree")
    let kinds = Set(transitions.flatMap(\.kinds)).sorted().map(\.rawValue)
    return context.recorded(.comparing(
      expected: expectedMismatches.isEmpty ? agree : .list(expectedMismatches),
      actual: actualMismatches.isEmpty ? agree : .list(actualMismatches),
      pattern: Self.pattern(splits: splits, merges: merges, kinds: kinds),
      detail: [
        "\(pairCount) instant pairs, \(expectedMismatches.count) disagree "
          + "(\(splits) split one local date, \(merges) merge two)",
        "transitions near the month: "
          + (transitions.isEmpty ? "none" : transitions.map { transition in
            "\((try? timeline.wallText(at: transition.instant)) ?? "?") "
              + transition.kinds.sorted().map(\.rawValue).joined(separator: "+")
          }.joined(separator: "; ")),
      ],
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar))),
      { (.list(oraclePairs), .list(subjectPairs)) })
  }

  static func verdict(_ closes: Bool) -> String { closes ? "closes" : "stays open" }

  static func pattern(splits: Int, merges: Int, kinds: [String]) -> String {
    let shape = switch (splits > 0, merges > 0) {
    case (true, false): "says another day within one local date"
    case (false, true): "says the same day across two local dates"
    default: "disagrees both ways"
    }
    return kinds.isEmpty ? shape + " (no transition nearby)" : shape + " near "
      + kinds.joined(separator: "+")
  }

  /// The instants whose pairs the check compares, sorted and distinct.
  static func instants(geometry: MonthGeometry, transitions: [ZoneTransition]) -> [Double] {
    var instants: Set<Double> = []
    let near = Set(transitions.flatMap(\.localDays).flatMap { [$0.adding(days: -1), $0, $0.adding(days: 1)] })
    for day in geometry.days where transitions.isEmpty || near.contains(day.day) {
      instants.formUnion([day.start - 1000, day.start, day.start + 1000])
    }
    if transitions.isEmpty {
      instants.formUnion([geometry.endInstant - 1000, geometry.endInstant])
    }
    for transition in transitions {
      let t = transition.instant
      let length = Double(abs(transition.offsetAfter - transition.offsetBefore))
      instants.formUnion([t - 1000, t, t + 1000, t + length - 1000, t + length])
    }
    return instants.sorted()
  }
}
