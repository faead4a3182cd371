import ConformanceKit
import MyPicker

/// MyPicker's functions as a sweep calls them: one list for the test that sweeps them and
/// for the worker executable that serves an isolated sweep.
public enum MyPickerConformance {
  public static var functions: SubjectFunctions {
    var mine = SubjectFunctions(name: "MyPicker")
    mine.leadingBlanks = { month, calendar in MyPicker.leadingBlanks(inMonthOf: month, calendar: calendar) }
    mine.weekdaySymbols = { calendar in MyPicker.weekdaySymbols(calendar: calendar) }
    mine.days = { month, calendar in MyPicker.days(inMonthOf: month, calendar: calendar) }
    return mine
  }
}
