/// The local dates of one zone, computed by libicu: where each date starts, which date an
/// instant falls on, and where the offset changes.
///
/// "Start of day" is the earliest instant of a local date: a skipped midnight starts the day
/// at the first instant after the gap (`SKIPPED_WALL_TIME = NEXT_VALID`), a repeated midnight
/// at its first occurrence (`REPEATED_WALL_TIME = FIRST`). A date the zone skips entirely has
/// no start. Not thread-safe: one per worker.
public final class ZoneTimeline: ZoneClock {
  public let zone: String
  public let backend: ICUBackend
  private let calendar: ICUCalendar

  /// Opens the zone's timeline; the zone must be a system id of `backend` (see ZoneCatalog).
  public init(zone: String, backend: ICUBackend = .system) throws(ICUError) {
    self.zone = zone
    self.backend = backend
    self.calendar = try ICUCalendar(locale: "en_US_POSIX@calendar=gregorian", zone: zone,
                                    backend: backend)
    calendar.skippedWallTime = .nextValid
    calendar.repeatedWallTime = .first
  }

  /// The local date an instant falls on.
  public func localDay(at millis: Double) throws(ICUError) -> LocalDay {
    try calendar.setMillis(millis)
    return LocalDay(julianDay: try calendar.get(.julianDay))
  }

  /// The total UTC offset (raw + DST) in milliseconds at an instant, and its DST part.
  public func offset(at millis: Double) throws(ICUError) -> (total: Int32, dst: Int32) {
    try calendar.setMillis(millis)
    let raw = try calendar.get(.zoneOffset)
    let dst = try calendar.get(.dstOffset)
    return (raw + dst, dst)
  }

  /// The earliest instant of a local date, or `nil` when the zone skips the whole date.
  public func start(of day: LocalDay) throws(ICUError) -> Double? {
    calendar.clear()
    calendar.set(.julianDay, day.julianDay)
    let millis = try calendar.millis()
    return try localDay(at: millis) == day ? millis : nil
  }

  /// The earliest instant whose local date is `day` or later: `start(of:)` where the date
  /// exists, else the start of the next date that does.
  public func firstInstant(onOrAfter day: LocalDay) throws(ICUError) -> Double {
    calendar.clear()
    calendar.set(.julianDay, day.julianDay)
    return try calendar.millis()
  }

  /// Every offset transition in `[from, to)` (UDate milliseconds), oldest first.
  public func transitions(from: Double, to: Double) throws(ICUError) -> [ZoneTransition] {
    var result: [ZoneTransition] = []
    var cursor = from
    while let instant = try calendar.transition(after: cursor), instant < to {
      let before = try offset(at: instant - 1)
      let after = try offset(at: instant)
      result.append(ZoneTransition(instant: instant, offsetBefore: before.total,
                                   offsetAfter: after.total, dstBefore: before.dst,
                                   dstAfter: after.dst))
      cursor = instant
    }
    return result
  }
}
