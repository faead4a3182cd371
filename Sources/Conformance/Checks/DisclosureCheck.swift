import Foundation
import ICUOracle
import PickerLogic

/// `disclosure` (seeds 000, 002, 003): the row that discloses a picker shows the current
/// selection and expands or collapses as the seed says.
///
/// One script per calendar and row kind, in UTC with `en_US`: tap, pick a later time the
/// same day, pick the next day, tap. Expected states follow each seed's stated rules (000
/// closes only on a different day; 002 never closes on a pick; 003 starts expanded and
/// re-expands on every change); expected labels are libicu's text for the selection. The
/// `-cycle` variants tap, then pick noon of each of `date-text`'s cycle days in turn (every
/// month of a whole cycle of the calendar, and its years' last days), then tap: each label
/// names another month.
package struct DisclosureCheck: Check {
  package let id = "disclosure"
  package let summary =
    "disclosure rows of seeds 000/002/003: expanded state and label after taps and picks"
  package let seeds = ["000", "002", "003"]
  package let subjectFunctions: [Subject.Function] = [.disclosure]
  package let dimensions: [Dimension] = [.calendar, .variant]
  package let groupDimensions: [Dimension] = [.calendar]
  package let variants = DisclosureRow.Kind.allCases.map(\.rawValue)
    + DisclosureRow.Kind.allCases.map { $0.rawValue + DateTextCheck.cycleSuffix }

  static let locale = "en_US"
  /// 2026-03-21 10:00 UTC, then 13:00 the same day, then 10:00 the next day.
  static let start = 1_774_087_200_000.0

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let variant = id.variant.map(DateTextCheck.cycled),
      let kind = DisclosureRow.Kind(rawValue: variant.base)
    else { throw InputError("\(id): disclosure needs a calendar and a known variant") }
    let cycled = variant.cycled
    let calendar = try context.calendars.calendar(calendarID, zone: "UTC", locale: Self.locale)
    // Each step: a tap (nil) or a pick.
    let cycle = cycled ? context.cycle(of: calendarID) : (days: [], years: "")
    let script: [Double?] = cycled
      ? [nil] + cycle.days.map { $0.utcMidnightMillis + 43_200_000 } + [nil]
      : [nil, Self.start + 3 * 3_600_000, Self.start + 24 * 3_600_000, nil]
    let actions = script.map { $0.map { DisclosureAction.select(EvaluationContext.date($0)) } ?? .tap }
    let actual = context.subject.disclosure(kind, EvaluationContext.date(Self.start), actions,
                                            calendar, calendar.locale ?? .current)

    // The seeds' stated rules, step by step, with libicu's labels.
    let icuLocale = "\(Self.locale)@calendar=\(calendarID)"
    let format = try context.oracle.format(
      locale: icuLocale, zone: "UTC",
      kind == .inlineCalendar ? .skeleton("yMMMd") : .style(.medium))
    var expanded = kind == .listHeader
    var selection = Self.start
    var expected = [DisclosureSnapshot(isExpanded: expanded, label: try format.format(selection))]
    let timeline = try context.oracle.timeline("UTC")
    for action in script {
      if let picked = action {
        let differentDay = try timeline.localDay(at: picked) != timeline.localDay(at: selection)
        selection = picked
        switch kind {
        case .inlineCalendar: if expanded && differentDay { expanded = false }
        case .wheel: break
        case .listHeader: expanded = true
        }
      } else {
        expanded.toggle()
      }
      expected.append(DisclosureSnapshot(isExpanded: expanded, label: try format.format(selection)))
    }
    let states = zip(expected, actual).contains { $0.isExpanded != $1.isExpanded }
    return .comparing(
      expected: .strings(expected.map(\.description)), actual: .strings(actual.map(\.description)),
      pattern: states ? "expanded state differs" : "label differs",
      detail: [cycled
        ? "script: start, tap, pick noon of each day of \(cycle.years): \(cycle.days.map(\.description).joined(separator: ", ")), tap; en_US in UTC"
        : "script: start, tap, pick +3 h, pick +1 day, tap; en_US in UTC"])
  }
}
