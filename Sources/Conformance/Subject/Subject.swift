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

  /// The real subject: the seeds' logic as re-implemented in `PickerLogic`.
  public static let pickerLogic = Subject(
    name: "PickerLogic",
    leadingBlanks: { CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: $0, calendar: $1) },
    weekdaySymbols: { CalendarRangeSelectorLogic.weekdaySymbols(calendar: $0) },
    closes: { InlineDatePickerDisclosureRule.closes(from: $0, to: $1, in: $2) },
    selecting: { CalendarRangeSelectorLogic.selecting($0, in: $1, calendar: $2) },
    role: { CalendarRangeSelectorLogic.role(of: $0, in: $1, calendar: $2) },
    days: { CalendarRangeSelectorLogic.days(inMonthOf: $0, calendar: $1) }
  )
}
