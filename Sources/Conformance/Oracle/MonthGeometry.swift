import ICUOracle

/// One calendar month laid onto one zone by the oracle: where its days start.
struct MonthGeometry {
  /// One existing local day of the month and the instants that bound it.
  struct Day {
    var day: LocalDay
    /// The earliest instant of the date.
    var start: Double
    /// The earliest instant of the next existing date.
    var end: Double
  }

  var month: CalendarMonth
  /// The earliest instant of the month in the zone.
  var firstInstant: Double
  /// The earliest instant after the month.
  var endInstant: Double
  /// The month's days that exist in the zone, in order (empty unless asked for).
  var days: [Day]

  /// The instant that names the month to the subject: halfway through it, so that no zone
  /// offset or day-start rule can move it into a neighbouring month.
  var probe: Double { (firstInstant + endInstant) / 2 }
}
