/// One change of a zone's UTC offset, as libicu's rules give it.
public struct ZoneTransition: Hashable, Sendable {
  /// The instant of the change (UDate milliseconds).
  public var instant: Double
  /// Total offset (raw + DST) in milliseconds just before and from the instant on.
  public var offsetBefore: Int32
  public var offsetAfter: Int32
  /// The DST part of each offset (negative in zones such as Europe/Dublin in some tz builds).
  public var dstBefore: Int32
  public var dstAfter: Int32

  public init(instant: Double, offsetBefore: Int32, offsetAfter: Int32, dstBefore: Int32,
              dstAfter: Int32) {
    self.instant = instant
    self.offsetBefore = offsetBefore
    self.offsetAfter = offsetAfter
    self.dstBefore = dstBefore
    self.dstAfter = dstAfter
  }

  /// What makes a transition interesting to a date picker. A transition can be in several.
  public enum Kind: String, CaseIterable, Sendable, Comparable {
    /// Clocks jump forward (a gap of wall times).
    case springForward = "spring-forward"
    /// Clocks go back (an overlap of wall times).
    case fallBack = "fall-back"
    /// Only the zone's name or DST flag changed; wall times go on.
    case noWallChange = "no-wall-change"
    /// The gap contains a local midnight: that day starts later than 00:00.
    case skippedMidnight = "skipped-midnight"
    /// The overlap contains a local midnight: 00:00 happens twice.
    case repeatedMidnight = "repeated-midnight"
    /// The gap contains a whole local date (Pacific/Apia 2011-12-30).
    case skippedDay = "skipped-day"
    /// The overlap contains a whole local date.
    case repeatedDay = "repeated-day"
    /// The offset changes by something other than whole hours (Lord_Howe's 30 minutes).
    case nonHourChange = "non-hour-offset-change"
    /// A DST offset below zero on either side (Europe/Dublin's winter time in vanguard tz).
    case negativeDST = "negative-dst"

    public static func < (lhs: Kind, rhs: Kind) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  static let dayMillis: Double = 86_400_000

  /// The local wall times (as UDate-like milliseconds of local time) just before and at the
  /// instant: a gap is `[wallBefore, wallAfter)`, an overlap `[wallAfter, wallBefore)`.
  public var wallBefore: Double { instant + Double(offsetBefore) }
  public var wallAfter: Double { instant + Double(offsetAfter) }

  /// The kinds of this transition, derived from the offsets around it.
  public var kinds: Set<Kind> {
    var kinds: Set<Kind> = []
    let delta = offsetAfter - offsetBefore
    if delta > 0 { kinds.insert(.springForward) }
    if delta < 0 { kinds.insert(.fallBack) }
    if delta == 0 { kinds.insert(.noWallChange) }
    if delta % 3_600_000 != 0 { kinds.insert(.nonHourChange) }
    if dstBefore < 0 || dstAfter < 0 { kinds.insert(.negativeDST) }
    let low = min(wallBefore, wallAfter)
    let high = max(wallBefore, wallAfter)
    // A midnight k·day lies in [low, high) when the first midnight at or after low is < high.
    let firstMidnight = (low / Self.dayMillis).rounded(.up) * Self.dayMillis
    if firstMidnight < high {
      kinds.insert(delta > 0 ? .skippedMidnight : .repeatedMidnight)
      if firstMidnight + Self.dayMillis <= high {
        kinds.insert(delta > 0 ? .skippedDay : .repeatedDay)
      }
    }
    return kinds
  }

  /// The local days whose wall-clock hours the transition touches: the day of the last
  /// instant before it and the day of the instant itself (they differ across midnight).
  public var localDays: [LocalDay] {
    let before = LocalDay.containing(localMillis: wallBefore - 1)
    let after = LocalDay.containing(localMillis: wallAfter)
    return before == after ? [before] : [before, after]
  }

  /// Same kinds and the same wall-clock shape (offsets and time of day): the core corpus
  /// keeps the first and last transition of each shape.
  public var shape: String {
    let timeOfDay = (wallBefore - (wallBefore / Self.dayMillis).rounded(.down) * Self.dayMillis)
    let kindText = kinds.sorted().map(\.rawValue).joined(separator: "+")
    return "\(kindText) \(offsetBefore)->\(offsetAfter) at \(Int(timeOfDay / 60_000))min"
  }
}

extension LocalDay {
  /// The local date of a local-time millisecond count (UDate plus the zone offset).
  public static func containing(localMillis: Double) -> LocalDay {
    let days = (localMillis / 86_400_000).rounded(.down)
    return LocalDay(julianDay: LocalDay.unixEpochJulianDay + Int32(days))
  }
}
