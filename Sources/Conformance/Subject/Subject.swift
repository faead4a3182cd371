import Foundation
import PickerLogic

/// The logic under test, as a set of functions the checks call.
///
/// `pickerLogic` forwards to the `PickerLogic` module. Tests and `self-test` swap single
/// functions for deliberately wrong ones (mutants) to prove that a check catches them.
package struct Subject: Sendable {
  package typealias Selection = CalendarRangeSelectorLogic.Selection
  package typealias Role = CalendarRangeSelectorLogic.Role

  /// A short name for reports (`PickerLogic`, or the mutant's name).
  package var name: String
  /// Blank cells before day 1 of `month`'s grid: (month, calendar).
  package var leadingBlanks: SubjectCall<Date, Calendar, Int>
  /// The grid's column headers from the first weekday on: (calendar).
  package var weekdaySymbols: SubjectCall<Calendar, [String]>
  /// Whether a new pick closes the inline picker, another day: (old, new, calendar).
  package var closes: SubjectCall<Date, Date, Calendar, Bool>
  /// The range after a tap on a day: (day, selection, calendar).
  package var selecting: SubjectCall<Date, Selection, Calendar, Selection>
  /// A day's role in the range: (day, selection, calendar).
  package var role: SubjectCall<Date, Selection, Calendar, Role>
  /// The days of `month`'s grid: (month, calendar).
  package var days: SubjectCall<Date, Calendar, [Date]>
  /// The month the previous or next button shows: (month, offset, calendar).
  package var paging: SubjectCall<Date, Int, Calendar, Date?>
  /// The "N nights" count: (start, end, calendar).
  package var nights: SubjectCall<Date, Date, Calendar, Int>
  /// A return date clamped to the departure: (comeback, departure).
  package var clampedReturn: SubjectCall<Date, Date, Date>
  /// A date's text: (kind, date, calendar, locale).
  package var text: SubjectCall<DateText, Date, Calendar, Locale, String>
  /// Seed 004's field read back by the formatter that wrote it: (text, calendar, locale).
  package var fieldDate: SubjectCall<String, Calendar, Locale, Date?>
  /// Drives a disclosure row through taps and selections; one snapshot after each action:
  /// (kind, start, actions, calendar, locale).
  package var disclosure: SubjectCall<DisclosureRow.Kind, Date, [DisclosureAction], Calendar, Locale,
                                     [DisclosureSnapshot]>

  /// The subject's functions by name: what a check calls (`Check.subjectFunctions`), what a
  /// subject may lack (`missing`), one slot each for a hook's bookkeeping.
  package enum Function: Int, CaseIterable, Sendable, CustomStringConvertible {
    case leadingBlanks, weekdaySymbols, closes, selecting, role, days, paging, nights
    case clampedReturn, text, fieldDate, disclosure

    package var description: String {
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
  package var missing: Set<Function> = []
  /// Why a missing function is missing, when the subject says (an executor's `hello`).
  package var missingReasons: [Function: String] = [:]
  /// The kinds of date text `text` gives, when not all (`SubjectFunctions.textKinds`): a
  /// case of another kind is skipped, as an executor's `unsupported` answer skips it.
  package var textKinds: Set<DateText>?

  /// Throws the skip of a case that asks `text` for a kind this subject does not give.
  func requireText(_ kind: DateText) throws(SubjectUnavailable) {
    guard let textKinds, !textKinds.contains(kind) else { return }
    throw SubjectUnavailable("the subject \(name) gives no '\(kind.rawValue)' text (its text kinds: "
      + DateText.allCases.filter(textKinds.contains).map(\.rawValue).joined(separator: ", ") + ")")
  }
  /// The executor that answers this subject's calls (`--subject exec:`), or `nil` for a
  /// subject of Swift functions. Each worker starts its own (`EvaluationContext.worker`).
  var executor: ExecutorSpec?
  /// Whether these are a team's own functions (`SubjectFunctions`): only an executable of
  /// theirs serves them as a worker (`Worker.run(serving:)`), and the cost model never
  /// timed them.
  var isOwn = false
  /// The known differences this subject shares (a waiver's `subjects`): the seeds' and
  /// Foundation's for the built-in subject and its mutants, Foundation's for a team's
  /// functions, and what an executor's `hello` says (`shares`).
  package internal(set) var shares: Set<WaiverSubjects> = [.seeds, .foundation, .any]
  /// The data releases the subject declares (`DataReleases`); `nil`: Foundation's, which the
  /// seeds' logic and a team's Swift functions compute with unless the team says otherwise.
  var declaredReleases: DataReleases?

  /// The releases triage judges this subject's answers against.
  package var releases: DataReleases { declaredReleases ?? .foundation }

  /// The real subject: the seeds' logic as re-implemented in `PickerLogic`.
  package static let pickerLogic = Subject(
    name: "PickerLogic",
    leadingBlanks: .init { CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: $0, calendar: $1) },
    weekdaySymbols: .init { CalendarRangeSelectorLogic.weekdaySymbols(calendar: $0) },
    closes: .init { InlineDatePickerDisclosureRule.closes(from: $0, to: $1, in: $2) },
    selecting: .init { CalendarRangeSelectorLogic.selecting($0, in: $1, calendar: $2) },
    role: .init { CalendarRangeSelectorLogic.role(of: $0, in: $1, calendar: $2) },
    days: .init { CalendarRangeSelectorLogic.days(inMonthOf: $0, calendar: $1) },
    paging: .init { CalendarRangeSelectorLogic.paging($0, by: $1, calendar: $2) },
    nights: .init { CalendarRangeSelectorLogic.nights(from: $0, to: $1, calendar: $2) },
    clampedReturn: .init { InlineDatePickerDisclosureRule.clampedReturn($0, departure: $1) },
    text: .init { kind, date, calendar, locale in kind.render(date, calendar, locale) },
    fieldDate: .init { DateTexts.fieldDate($0, calendar: $1, locale: $2) },
    disclosure: .init { kind, start, actions, calendar, locale in
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
