import Foundation

/// The rules of seed 000's inline date picker disclosure, kept apart from any view.
package enum InlineDatePickerDisclosureRule {
  /// Paging through months does not change the date, so only a different day closes the
  /// calendar.
  package static func closes(from oldValue: Date, to newValue: Date, in calendar: Calendar)
    -> Bool
  {
    !calendar.isDate(oldValue, inSameDayAs: newValue)
  }

  /// The demo's return date after the departure changes: it never comes before the departure.
  package static func clampedReturn(_ comeback: Date, departure: Date) -> Date {
    comeback < departure ? departure : comeback
  }
}
