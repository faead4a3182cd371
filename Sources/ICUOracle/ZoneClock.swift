/// Where a zone's local dates start and which date an instant falls on: what the checks ask
/// of a zone. `ZoneTimeline` answers through libicu call by call; `ZoneTable` answers from
/// tables read from libicu once per zone.
public protocol ZoneClock: AnyObject {
  var zone: String { get }
  /// The local date an instant falls on.
  func localDay(at millis: Double) throws(ICUError) -> LocalDay
  /// The total UTC offset (raw + DST) in milliseconds at an instant, and its DST part.
  func offset(at millis: Double) throws(ICUError) -> (total: Int32, dst: Int32)
  /// The earliest instant of a local date, or `nil` when the zone skips the whole date.
  func start(of day: LocalDay) throws(ICUError) -> Double?
  /// The earliest instant whose local date is `day` or later.
  func firstInstant(onOrAfter day: LocalDay) throws(ICUError) -> Double
  /// Every offset transition in `[from, to)`, oldest first.
  func transitions(from: Double, to: Double) throws(ICUError) -> [ZoneTransition]
}

extension ZoneClock {
  /// Local wall time and offset of an instant, e.g. `1987-10-25 00:00:30 -02:30`, for reports.
  public func wallText(at millis: Double) throws(ICUError) -> String {
    try text(at: millis, separator: " ", offsetSeparator: " ")
  }

  /// The instant as ISO 8601 local time with its offset, `2018-11-04T01:00:00-02:00`: what
  /// an outside script reads back (the instant and the wall time both).
  public func isoText(at millis: Double) throws(ICUError) -> String {
    try text(at: millis, separator: "T", offsetSeparator: "")
  }

  private func text(at millis: Double, separator: String, offsetSeparator: String)
    throws(ICUError) -> String
  {
    let offset = try offset(at: millis).total
    let local = millis + Double(offset)
    let day = LocalDay.containing(localMillis: local)
    let secondOfDay = Int((local - (local / 86_400_000).rounded(.down) * 86_400_000) / 1000)
    let offsetMinutes = Int(offset) / 60_000
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    let sign = offsetMinutes < 0 ? "-" : "+"
    return "\(day)\(separator)\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
      + "\(offsetSeparator)\(sign)\(two(abs(offsetMinutes) / 60)):\(two(abs(offsetMinutes) % 60))"
  }
}

/// A zone's local dates from tables read once from libicu: every transition in a span (for
/// offsets and local dates by binary search) and libicu's own day starts for the days next to
/// each transition. Any other day has no transition within a day of it, so it starts at its
/// local midnight minus the offset then in force.
///
/// Immutable once built, so one table serves every worker.
public final class ZoneTable: ZoneClock, Sendable {
  public let zone: String
  private let instants: [Double]
  private let transitionList: [ZoneTransition]
  private let initial: (total: Int32, dst: Int32)
  private let span: ClosedRange<Double>
  /// libicu's answers for the days next to transitions: `start(of:)` and `firstInstant`.
  private let nearStarts: [Int32: (start: Double?, first: Double)]

  /// Reads the zone's transitions and near-transition day starts in `days` from libicu.
  public init(zone: String, days: ClosedRange<LocalDay>, backend: ICUBackend = .system)
    throws(ICUError)
  {
    let timeline = try ZoneTimeline(zone: zone, backend: backend)
    let from = days.lowerBound.adding(days: -2).utcMidnightMillis
    let to = days.upperBound.adding(days: 3).utcMidnightMillis
    let transitions = try timeline.transitions(from: from, to: to)
    self.zone = zone
    self.transitionList = transitions
    self.instants = transitions.map(\.instant)
    self.initial = try timeline.offset(at: from)
    self.span = from...to
    var near: [Int32: (Double?, Double)] = [:]
    for transition in transitions {
      for day in transition.localDays {
        for neighbour in [day.adding(days: -1), day, day.adding(days: 1)]
        where near[neighbour.julianDay] == nil {
          near[neighbour.julianDay] = (try timeline.start(of: neighbour),
                                       try timeline.firstInstant(onOrAfter: neighbour))
        }
      }
    }
    self.nearStarts = near
  }

  /// A table from transitions read elsewhere (a tz release's files: `Corpora/reference/tz`),
  /// with the day starts next to each transition computed here as libicu computes them
  /// (`SKIPPED_WALL_TIME = NEXT_VALID`, `REPEATED_WALL_TIME = FIRST`): the earliest instant
  /// whose local date is the day or later.
  ///
  /// - Parameters:
  ///   - initial: the offset in force before the first transition.
  ///   - span: the instants the table answers for.
  public convenience init(zone: String, initial: (total: Int32, dst: Int32),
                          transitions: [ZoneTransition], span: ClosedRange<Double>) {
    let bare = ZoneTable(zone: zone, initial: initial, transitions: transitions, span: span, near: [:])
    var near: [Int32: (start: Double?, first: Double)] = [:]
    for transition in transitions {
      for day in transition.localDays {
        for neighbour in [day.adding(days: -1), day, day.adding(days: 1)]
        where near[neighbour.julianDay] == nil {
          let first = bare.earliest(onOrAfter: neighbour)
          near[neighbour.julianDay] = (bare.localDayUnchecked(at: first) == neighbour ? first : nil, first)
        }
      }
    }
    self.init(zone: zone, initial: initial, transitions: transitions, span: span, near: near)
  }

  private init(zone: String, initial: (total: Int32, dst: Int32), transitions: [ZoneTransition],
               span: ClosedRange<Double>, near: [Int32: (start: Double?, first: Double)]) {
    self.zone = zone
    self.transitionList = transitions
    self.instants = transitions.map(\.instant)
    self.initial = initial
    self.span = span
    self.nearStarts = near
  }

  private func offsetUnchecked(at millis: Double) -> Int32 {
    let index = lastTransition(atOrBefore: millis)
    return index >= 0 ? transitionList[index].offsetAfter : initial.total
  }

  private func localDayUnchecked(at millis: Double) -> LocalDay {
    LocalDay.containing(localMillis: millis + Double(offsetUnchecked(at: millis)))
  }

  /// The earliest instant whose local date is `day` or later: a transition that jumps into
  /// it, or the instant a stretch of one offset reaches its local midnight.
  private func earliest(onOrAfter day: LocalDay) -> Double {
    let midnight = day.utcMidnightMillis
    let (from, to) = (midnight - 3 * 86_400_000, midnight + 3 * 86_400_000)
    var candidates: [Double] = []
    var index = lastTransition(atOrBefore: from) + 1
    var start = -Double.infinity
    var offset = index > 0 ? transitionList[index - 1].offsetAfter : initial.total
    while true {
      let end = index < instants.count ? instants[index] : Double.infinity
      let crossing = midnight - Double(offset)
      if crossing >= start && crossing < end { candidates.append(crossing) }
      guard index < instants.count, instants[index] < to else { break }
      if localDayUnchecked(at: instants[index]) >= day { candidates.append(instants[index]) }
      (start, offset) = (instants[index], transitionList[index].offsetAfter)
      index += 1
    }
    return candidates.filter { localDayUnchecked(at: $0) >= day }.min() ?? midnight - Double(offset)
  }

  /// The index of the last transition at or before `millis`, or -1.
  private func lastTransition(atOrBefore millis: Double) -> Int {
    var low = 0
    var high = instants.count
    while low < high {
      let middle = (low + high) / 2
      if instants[middle] <= millis { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }

  /// Whether `other` answers every question as this table does: the same span, offsets,
  /// transitions and day starts. Most zones read the same in every tz release, and a
  /// question put to two such releases need be answered once.
  public func answersAlike(_ other: ZoneTable) -> Bool {
    if self === other { return true }
    guard span == other.span, initial == other.initial, transitionList == other.transitionList,
      nearStarts.count == other.nearStarts.count
    else { return false }
    return nearStarts.allSatisfy { day, near in
      other.nearStarts[day].map { $0.start == near.start && $0.first == near.first } ?? false
    }
  }

  /// Whether the table can answer for an instant (it throws outside its span).
  public func covers(_ millis: Double) -> Bool { span.contains(millis) }

  /// Whether the table can answer for a local date.
  public func covers(_ day: LocalDay) -> Bool {
    span.contains(day.utcMidnightMillis - 86_400_000) && span.contains(day.utcMidnightMillis + 2 * 86_400_000)
  }

  private func inSpan(_ millis: Double) throws(ICUError) {
    guard span.contains(millis) else {
      throw ICUError(status: 1, name: "U_ILLEGAL_ARGUMENT_ERROR",
                     operation: "zone table of \(zone) asked about \(millis) outside its span")
    }
  }

  public func offset(at millis: Double) throws(ICUError) -> (total: Int32, dst: Int32) {
    try inSpan(millis)
    let index = lastTransition(atOrBefore: millis)
    guard index >= 0 else { return initial }
    return (transitionList[index].offsetAfter, transitionList[index].dstAfter)
  }

  public func localDay(at millis: Double) throws(ICUError) -> LocalDay {
    LocalDay.containing(localMillis: millis + Double(try offset(at: millis).total))
  }

  public func start(of day: LocalDay) throws(ICUError) -> Double? {
    if let near = nearStarts[day.julianDay] { return near.start }
    let midnight = day.utcMidnightMillis
    return midnight - Double(try offset(at: midnight).total)
  }

  public func firstInstant(onOrAfter day: LocalDay) throws(ICUError) -> Double {
    if let near = nearStarts[day.julianDay] { return near.first }
    let midnight = day.utcMidnightMillis
    return midnight - Double(try offset(at: midnight).total)
  }

  public func transitions(from: Double, to: Double) throws(ICUError) -> [ZoneTransition] {
    let first = lastTransition(atOrBefore: from) + 1
    var result: [ZoneTransition] = []
    var index = first
    // ZoneTimeline's contract: strictly after `from`, before `to`.
    while index < instants.count, instants[index] < to {
      if instants[index] > from { result.append(transitionList[index]) }
      index += 1
    }
    return result
  }
}

/// A shared zone table, with libicu answering whatever falls outside its span. One per
/// worker: the fallback timeline is not thread-safe.
public final class TableOrTimeline: ZoneClock {
  public let table: ZoneTable
  private var fallbackTimeline: ZoneTimeline?
  public var zone: String { table.zone }

  public init(_ table: ZoneTable) { self.table = table }

  private func fallback() throws(ICUError) -> ZoneTimeline {
    if let timeline = fallbackTimeline { return timeline }
    let timeline = try ZoneTimeline(zone: table.zone)
    fallbackTimeline = timeline
    return timeline
  }

  public func localDay(at millis: Double) throws(ICUError) -> LocalDay {
    table.covers(millis) ? try table.localDay(at: millis) : try fallback().localDay(at: millis)
  }

  public func offset(at millis: Double) throws(ICUError) -> (total: Int32, dst: Int32) {
    table.covers(millis) ? try table.offset(at: millis) : try fallback().offset(at: millis)
  }

  public func start(of day: LocalDay) throws(ICUError) -> Double? {
    table.covers(day) ? try table.start(of: day) : try fallback().start(of: day)
  }

  public func firstInstant(onOrAfter day: LocalDay) throws(ICUError) -> Double {
    table.covers(day) ? try table.firstInstant(onOrAfter: day)
      : try fallback().firstInstant(onOrAfter: day)
  }

  public func transitions(from: Double, to: Double) throws(ICUError) -> [ZoneTransition] {
    table.covers(from) && table.covers(to) ? try table.transitions(from: from, to: to)
      : try fallback().transitions(from: from, to: to)
  }
}
