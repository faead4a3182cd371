import ICUOracle

/// The months of one calendar system that overlap the run's window, in local days (from
/// libicu), with lookup by day.
public struct MonthTable: Sendable {
  public let calendar: String
  public let months: [CalendarMonth]

  public init(calendar: String, months: [CalendarMonth]) {
    self.calendar = calendar
    self.months = months
  }

  /// The index of the month containing `day`, or `nil` outside the table.
  public func index(containing day: LocalDay) -> Int? {
    var low = 0
    var high = months.count
    while low < high {
      let middle = (low + high) / 2
      if months[middle].endDay <= day { low = middle + 1 } else { high = middle }
    }
    return low < months.count && months[low].contains(day) ? low : nil
  }

  /// The month that starts on `day`, or `nil` when no month of this calendar starts there.
  public func month(startingOn day: LocalDay) -> CalendarMonth? {
    guard let index = index(containing: day), months[index].firstDay == day else { return nil }
    return months[index]
  }
}
