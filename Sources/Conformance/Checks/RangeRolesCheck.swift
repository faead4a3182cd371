import Foundation
import ICUOracle

/// `range-roles` (seed 001): taps build a selection (`selecting`), then every cell of the
/// month gets a role (`role`: outside, start, middle, end, single).
///
/// The cells are the month's existing local days, each asked about at the middle of the day
/// and tapped on its last second, so both `role` and `selecting` must find the start of the
/// day themselves. Expected: the seed's rules applied to libicu's local day numbers
/// (`RangeModel`).
public struct RangeRolesCheck: Check {
  public let id = "range-roles"
  public let summary =
    "selecting + role of every cell (seed 001) vs the seed's rules over libicu's local days"
  public let seeds = ["001"]
  public let dimensions: [Dimension] = [.calendar, .zone, .month, .variant]
  public let groupDimensions: [Dimension] = [.calendar, .zone]
  public let monthCoverage = MonthCoverage.boundaries
  public let variants = RangeModel.Scenario.allCases.map(\.rawValue)

  public init() {}

  public func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone, let variant = id.variant,
      let scenario = RangeModel.Scenario(rawValue: variant)
    else { throw InputError("\(id): range-roles needs calendar, zone and a known variant") }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let cells = geometry.days
    guard cells.count >= 3 else {
      throw HarnessError("\(id): the month has \(cells.count) days in \(zone)")
    }
    let taps = scenario.taps(first: 1, last: cells.count - 2, middle: cells.count / 2)

    let expectedSelection = taps.reduce(RangeModel.Selection()) {
      RangeModel.selecting(cells[$1].day, in: $0)
    }
    let expected = cells.map { RangeModel.role(of: $0.day, in: expectedSelection) }

    let subject = context.subject
    let actualSelection = taps.reduce(Subject.Selection()) {
      subject.selecting(EvaluationContext.date(cells[$1].end - 1000), $0, calendar)
    }
    let actual = cells.map {
      subject.role(EvaluationContext.date(($0.start + $0.end) / 2), actualSelection, calendar)
    }

    let timeline = try context.oracle.timeline(zone)
    let differences = cells.indices.filter { expected[$0] != actual[$0].rawValue }
    let transitions = try timeline.transitions(from: geometry.firstInstant,
                                               to: geometry.endInstant)
    let transitionDays = Set(transitions.flatMap(\.localDays))
    return .comparing(
      expected: .strings(expected), actual: .strings(actual.map(\.rawValue)),
      pattern: Self.pattern(differences.first.map { (expected[$0], actual[$0].rawValue) },
                            onTransitionDay: differences.contains {
                              transitionDays.contains(cells[$0].day)
                            }, kinds: Set(transitions.flatMap(\.kinds))),
      detail: [
        "taps on \(taps.map { cells[$0].day.description }.joined(separator: ", ")) "
          + "(each at the day's last second); roles asked at each day's middle",
        "oracle selection: \(expectedSelection); subject selection: "
          + Self.describe(actualSelection, timeline),
      ] + differences.prefix(6).map {
        "cell \(cells[$0].day) (starts \((try? timeline.wallText(at: cells[$0].start)) ?? "?")): "
          + "expected \(expected[$0]), got \(actual[$0].rawValue)"
      },
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar)))
  }

  static func pattern(_ first: (String, String)?, onTransitionDay: Bool,
                      kinds: Set<ZoneTransition.Kind>) -> String {
    guard let (expected, actual) = first else { return "" }
    let place = onTransitionDay
      ? " on a transition day (" + kinds.sorted().map(\.rawValue).joined(separator: "+") + ")"
      : ""
    return "cell \(expected) became \(actual)\(place)"
  }

  static func describe(_ selection: Subject.Selection, _ timeline: ZoneTimeline) -> String {
    func text(_ date: Date?) -> String {
      guard let date else { return "nil" }
      return (try? timeline.wallText(at: EvaluationContext.millis(date))) ?? "?"
    }
    return "start \(text(selection.start)), end \(text(selection.end))"
  }
}
