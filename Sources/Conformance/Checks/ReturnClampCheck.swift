import Foundation
import ICUOracle

/// `return-clamp` (seed 000's demo): when the departure changes, the return date is moved to
/// it if the departure passes it (`comeback < newValue`).
///
/// The seed compares instants; a picker means days. Pairs of (departure, return) instants
/// around every midnight and transition of a month, in both orders: the return must end on
/// the departure's local day when that day is later than its own, and keep its own day
/// otherwise. Local days are libicu's. The subject uses no calendar, so the check is swept
/// over zone × month (Gregorian months).
package struct ReturnClampCheck: Check {
  package let id = "return-clamp"
  package let summary =
    "the return date follows the departure only when the departure's day passes it (seed 000 demo), by libicu's local days"
  package let seeds = ["000"]
  package let subjectFunctions: [Subject.Function] = [.clampedReturn]
  package let dimensions: [Dimension] = [.zone, .month]
  package let groupDimensions: [Dimension] = [.zone]
  package let monthCoverage = MonthCoverage.transitionMonths

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let zone = id.zone else { throw HarnessError("\(id): return-clamp needs a zone") }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: "gregorian", zone: zone,
                                               days: true)
    let timeline = try context.oracle.timeline(zone)
    let transitions = try timeline.transitions(
      from: geometry.firstInstant - SameDayClosingCheck.pairWindow,
      to: geometry.endInstant + SameDayClosingCheck.pairWindow)
    let instants = SameDayClosingCheck.instants(geometry: geometry, transitions: transitions)
    let days = try instants.map { (instant) throws(ICUError) in try timeline.localDay(at: instant) }
    var expected: [Value] = []
    var actual: [Value] = []
    var pairs = 0
    var shapes: Set<String> = []
    // Every (departure, return) pair and the day each side returns on, with --record all.
    let iso = context.recordsValues ? try instants.map(timeline.isoText) : []
    var oraclePairs: [Value] = []
    var subjectPairs: [Value] = []
    for i in instants.indices {
      for j in instants.indices where i != j
        && abs(instants[j] - instants[i]) <= SameDayClosingCheck.pairWindow
      {
        pairs += 1
        let (departure, comeback) = (i, j)
        let wanted = max(days[departure], days[comeback])
        let result = context.subject.clampedReturn(
          EvaluationContext.date(instants[comeback]), EvaluationContext.date(instants[departure]))
        let got = try timeline.localDay(at: EvaluationContext.millis(result))
        if context.recordsValues {
          oraclePairs.append(.strings([iso[departure], iso[comeback], "return on \(wanted)"]))
          subjectPairs.append(.strings([iso[departure], iso[comeback], "return on \(got)"]))
        }
        guard got != wanted else { continue }
        let pair = "departure \(try timeline.wallText(at: instants[departure])), "
          + "return \(try timeline.wallText(at: instants[comeback]))"
        shapes.insert(got < wanted ? "return left before the departure's day"
          : "return moved off its own later day")
        expected.append(.string("\(pair): return on \(wanted)"))
        actual.append(.string("\(pair): return on \(got)"))
      }
    }
    let agree = Value.string("\(pairs) pairs agree")
    let kinds = Set(transitions.flatMap(\.kinds)).sorted().map(\.rawValue)
    return context.recorded(.comparing(
      expected: expected.isEmpty ? agree : .list(expected),
      actual: actual.isEmpty ? agree : .list(actual),
      pattern: shapes.sorted().joined(separator: "; ")
        + (kinds.isEmpty ? "" : " near " + kinds.joined(separator: "+")),
      detail: ["\(pairs) (departure, return) pairs, \(expected.count) disagree"]),
      { (.list(oraclePairs), .list(subjectPairs)) })
  }
}
