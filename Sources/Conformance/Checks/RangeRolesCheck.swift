import Foundation
import ICUOracle

/// `range-roles` (seed 001): taps build a selection (`selecting`), then the cells of the
/// month get a role (`role`: outside, start, middle, end, single).
///
/// Taps land on a day's last second and roles are asked at the middle of each day, so both
/// `role` and `selecting` must find the start of the day themselves. Expected: the seed's rules
/// applied to libicu's local day numbers (`RangeModel`).
///
/// In a control month (no transition) the taps are on the 2nd, the middle and the
/// second-to-last day and every cell is compared. In a month with a transition on day T the
/// taps are on T−1, T and T+1 and the cells within two days of them are compared: a cell's
/// role depends on its own start of day and those of the selection's ends, and a day far from
/// a transition starts as in the control months. There, only the scenarios whose outcome a
/// transition can change run (`range` across T, `same-day` on T); `start`, `backward` and
/// `restart` test the selection rules, which do not depend on the zone, in the month-sweep
/// zones.
package struct RangeRolesCheck: Check {
  package let id = "range-roles"
  package let summary =
    "selecting + role of the month's cells (seed 001) vs the seed's rules over libicu's local days"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.selecting, .role]
  package let dimensions: [Dimension] = [.calendar, .zone, .month, .variant]
  package let groupDimensions: [Dimension] = [.calendar, .zone]
  package let monthCoverage = MonthCoverage.transitionMonths
  package let variants = RangeModel.Scenario.allCases.map(\.rawValue)

  /// Scenarios a transition can change the outcome of.
  static let transitionScenarios: [RangeModel.Scenario] = [.range, .sameDay]

  package init() {}

  package func variants(for group: CaseID, in corpus: Corpus) -> [String] {
    let sweepsEveryMonth = corpus.zones.first { $0.id == group.zone }?.sweepsEveryMonth ?? true
    return sweepsEveryMonth || corpus.exhaustive
      ? variants : Self.transitionScenarios.map(\.rawValue)
  }

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
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
    let timeline = try context.oracle.timeline(zone)
    let transitions = try timeline.transitions(from: geometry.firstInstant,
                                               to: geometry.endInstant)
    let transitionDays = Set(transitions.flatMap(\.localDays))
    let (taps, compared) = Self.layout(cells: cells, transitionDays: transitionDays,
                                       scenario: scenario)

    let expectedSelection = taps.reduce(RangeModel.Selection()) {
      RangeModel.selecting(cells[$1].day, in: $0)
    }
    let subject = context.subject
    let actualSelection = taps.reduce(Subject.Selection()) {
      subject.selecting(EvaluationContext.date(cells[$1].end - 1000), $0, calendar)
    }
    let expected = compared.map { RangeModel.role(of: cells[$0].day, in: expectedSelection) }
    let actual = compared.map {
      subject.role(EvaluationContext.date((cells[$0].start + cells[$0].end) / 2), actualSelection,
                   calendar).rawValue
    }
    let differences = compared.indices.filter { expected[$0] != actual[$0] }
    let label = { (index: Int) in "\(cells[compared[index]].day)" }
    // Each compared day's role on each side, with --record all.
    let values = { () -> (oracle: Value, subject: Value) in
      (.strings(compared.indices.map { "\(label($0)): \(expected[$0])" }),
       .strings(compared.indices.map { "\(label($0)): \(actual[$0])" }))
    }
    guard !differences.isEmpty else { return context.recorded(.agreed(compared.count), values) }
    let roles = values()
    return context.recorded(.comparing(
      expected: roles.oracle, actual: roles.subject,
      pattern: Self.pattern(differences.first.map { (expected[$0], actual[$0]) },
                            onTransitionDay: differences.contains {
                              transitionDays.contains(cells[compared[$0]].day)
                            }, kinds: Set(transitions.flatMap(\.kinds))),
      detail: [
        "taps on \(taps.map { cells[$0].day.description }.joined(separator: ", ")) "
          + "(each at the day's last second); roles asked at each day's middle; "
          + "\(compared.count) of \(cells.count) cells compared",
        "oracle selection: \(expectedSelection); subject selection: "
          + Self.describe(actualSelection, timeline),
      ] + differences.prefix(6).map {
        let cell = cells[compared[$0]]
        return "cell \(cell.day) (starts \((try? timeline.wallText(at: cell.start)) ?? "?")): "
          + "expected \(expected[$0]), got \(actual[$0])"
      },
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar))),
      { roles })
  }

  /// The tapped cells and the cells compared, as indices into the month's existing days.
  static func layout(cells: [MonthGeometry.Day], transitionDays: Set<LocalDay>,
                     scenario: RangeModel.Scenario) -> (taps: [Int], compared: [Int]) {
    guard let transition = cells.firstIndex(where: { transitionDays.contains($0.day) })
      ?? transitionDays.min().flatMap({ day in cells.firstIndex { $0.day > day } })
    else {
      let taps = scenario.taps(first: 1, last: cells.count - 2, middle: cells.count / 2)
      return (taps, Array(cells.indices))
    }
    let before = max(transition - 1, 0)
    let after = min(transition + 1, cells.count - 1)
    let taps = scenario.taps(first: before, last: max(after, before + 1), middle: transition)
    let compared = Set(taps.flatMap { ($0 - 2)...($0 + 2) }).filter(cells.indices.contains)
    return (taps, compared.sorted())
  }

  static func pattern(_ first: (String, String)?, onTransitionDay: Bool,
                      kinds: Set<ZoneTransition.Kind>) -> String {
    guard let (expected, actual) = first else { return "" }
    let place = onTransitionDay
      ? " on a transition day (" + kinds.sorted().map(\.rawValue).joined(separator: "+") + ")"
      : ""
    return "cell \(expected) became \(actual)\(place)"
  }

  static func describe(_ selection: Subject.Selection, _ timeline: any ZoneClock) -> String {
    func text(_ date: Date?) -> String {
      guard let date else { return "nil" }
      return (try? timeline.wallText(at: EvaluationContext.millis(date))) ?? "?"
    }
    return "start \(text(selection.start)), end \(text(selection.end))"
  }
}
