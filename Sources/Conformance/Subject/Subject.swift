import Foundation
import PickerLogic

/// The logic under test, as a set of functions the checks call.
///
/// `pickerLogic` forwards to the `PickerLogic` module. Tests and `self-test` swap single
/// functions for deliberately wrong ones (mutants) to prove that a check catches them.
public struct Subject: Sendable {
  public typealias Selection = CalendarRangeSelectorLogic.Selection
  public typealias Role = CalendarRangeSelectorLogic.Role

  /// A short name for reports (`PickerLogic`, or the mutant's name).
  public var name: String
  public var leadingBlanks: @Sendable (_ month: Date, _ calendar: Calendar) -> Int
  public var weekdaySymbols: @Sendable (_ calendar: Calendar) -> [String]
  public var closes: @Sendable (_ old: Date, _ new: Date, _ calendar: Calendar) -> Bool
  public var selecting: @Sendable (_ day: Date, _ selection: Selection, _ calendar: Calendar)
    -> Selection
  public var role: @Sendable (_ day: Date, _ selection: Selection, _ calendar: Calendar) -> Role
  public var days: @Sendable (_ month: Date, _ calendar: Calendar) -> [Date]
  public var paging: @Sendable (_ month: Date, _ offset: Int, _ calendar: Calendar) -> Date?
  public var nights: @Sendable (_ start: Date, _ end: Date, _ calendar: Calendar) -> Int
  public var clampedReturn: @Sendable (_ comeback: Date, _ departure: Date) -> Date
  public var text: @Sendable (_ kind: DateText, _ date: Date, _ calendar: Calendar,
                              _ locale: Locale) -> String
  /// Seed 004's field read back by the formatter that wrote it.
  public var fieldDate: @Sendable (_ text: String, _ calendar: Calendar, _ locale: Locale) -> Date?
  /// Drives a disclosure row through taps and selections; one snapshot after each action.
  public var disclosure: @Sendable (_ kind: DisclosureRow.Kind, _ start: Date,
                                    _ actions: [DisclosureAction], _ calendar: Calendar,
                                    _ locale: Locale) -> [DisclosureSnapshot]

  /// The subject's functions by name: what a check calls (`Check.subjectFunctions`), what a
  /// subject may lack (`missing`), one slot each for a hook's bookkeeping.
  public enum Function: Int, CaseIterable, Sendable, CustomStringConvertible {
    case leadingBlanks, weekdaySymbols, closes, selecting, role, days, paging, nights
    case clampedReturn, text, fieldDate, disclosure

    public var description: String {
      switch self {
      case .leadingBlanks: "leadingBlanks"
      case .weekdaySymbols: "weekdaySymbols"
      case .closes: "closes"
      case .selecting: "selecting"
      case .role: "role"
      case .days: "days"
      case .paging: "paging"
      case .nights: "nights"
      case .clampedReturn: "clampedReturn"
      case .text: "text"
      case .fieldDate: "fieldDate"
      case .disclosure: "disclosure"
      }
    }
  }

  /// Functions this subject does not provide: the cases of a check that calls one are
  /// skipped with that reason (a team's own subject may cover part of the seeds' logic).
  public var missing: Set<Function> = []
  /// Why a missing function is missing, when the subject says (an executor's `hello`).
  public var missingReasons: [Function: String] = [:]
  /// The executor that answers this subject's calls (`--subject exec:`), or `nil` for a
  /// subject of Swift functions. Each worker starts its own (`EvaluationContext.worker`).
  var executor: ExecutorSpec?
  /// Whether these are a team's own functions (`SubjectFunctions`): only an executable of
  /// theirs serves them as a worker (`Worker.run(serving:)`), and the cost model never
  /// timed them.
  var isOwn = false

  /// The real subject: the seeds' logic as re-implemented in `PickerLogic`.
  public static let pickerLogic = Subject(
    name: "PickerLogic",
    leadingBlanks: { CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: $0, calendar: $1) },
    weekdaySymbols: { CalendarRangeSelectorLogic.weekdaySymbols(calendar: $0) },
    closes: { InlineDatePickerDisclosureRule.closes(from: $0, to: $1, in: $2) },
    selecting: { CalendarRangeSelectorLogic.selecting($0, in: $1, calendar: $2) },
    role: { CalendarRangeSelectorLogic.role(of: $0, in: $1, calendar: $2) },
    days: { CalendarRangeSelectorLogic.days(inMonthOf: $0, calendar: $1) },
    paging: { CalendarRangeSelectorLogic.paging($0, by: $1, calendar: $2) },
    nights: { CalendarRangeSelectorLogic.nights(from: $0, to: $1, calendar: $2) },
    clampedReturn: { InlineDatePickerDisclosureRule.clampedReturn($0, departure: $1) },
    text: { kind, date, calendar, locale in kind.render(date, calendar, locale) },
    fieldDate: { DateTexts.fieldDate($0, calendar: $1, locale: $2) },
    disclosure: { kind, start, actions, calendar, locale in
      var row = DisclosureRow(kind: kind, selection: start)
      var snapshots = [DisclosureSnapshot(row, calendar, locale)]
      for action in actions {
        switch action {
        case .tap: row.tap()
        case .select(let date): row.select(date, calendar: calendar)
        }
        snapshots.append(DisclosureSnapshot(row, calendar, locale))
      }
      return snapshots
    }
  )
}
