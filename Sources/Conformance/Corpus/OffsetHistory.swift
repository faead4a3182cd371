import ICUOracle

/// A zone's UTC offsets over the window, as each side's tz data has them.
///
/// Every check that sweeps a zone reads it only through offsets: the subject's `Calendar`
/// and the oracle's calendar turn instants into local dates with the zone's rules, and a
/// month's answers depend on no instant further than a neighbouring month away. So two zones
/// whose offsets (total and DST part, on both sides) agree from two months before a month to
/// two months after it give the same answers in it: `MonthSelection` sweeps such a month once
/// (see Documentation/Design.md, "Equivalent months"). `--exhaustive` sweeps them all, and a test compares.
package struct OffsetHistory: Sendable, Hashable {
  /// A total offset and its DST part, in milliseconds.
  package struct Offset: Sendable, Hashable {
    package var total: Int32
    package var dst: Int32
  }

  /// One side's offsets: the one in force at the start, then every change.
  package struct Side: Sendable, Hashable {
    package var initial: Offset
    /// Oldest first, as `ZoneTimeline.transitions` reads them.
    package var transitions: [ZoneTransition]

    /// The offset in force at `from` and every change in `[from, to)`.
    func slice(from: Double, to: Double) -> Slice {
      // The first transition at or after `from` (transitions are sorted by instant).
      var low = 0
      var high = transitions.count
      while low < high {
        let middle = (low + high) / 2
        if transitions[middle].instant < from { low = middle + 1 } else { high = middle }
      }
      let inForce = low == 0
        ? initial
        : Offset(total: transitions[low - 1].offsetAfter, dst: transitions[low - 1].dstAfter)
      var end = low
      while end < transitions.count, transitions[end].instant < to { end += 1 }
      return Slice(inForce: inForce, changes: Array(transitions[low..<end]))
    }
  }

  /// What one side's offsets are over a stretch of time.
  struct Slice: Hashable {
    var inForce: Offset
    var changes: [ZoneTransition]
  }

  /// libicu's offsets.
  package var oracle: Side
  /// Foundation's, read through its own ICU; `nil` when that is not reachable, and then no
  /// month is taken as equivalent to another (the subject's tz data is unknown).
  package var subject: Side?

  /// Two zones' months are equivalent when these are equal (calendar and month aside).
  func fingerprint(of month: CalendarMonth) -> Fingerprint? {
    guard let subject else { return nil }
    // Two months either side: paging reads the neighbouring months, and no month is longer
    // than 31 days; one more day covers any offset.
    let from = month.firstDay.adding(days: -63).utcMidnightMillis
    let to = month.endDay.adding(days: 63).utcMidnightMillis
    return Fingerprint(month: month.firstDay, oracle: oracle.slice(from: from, to: to),
                       subject: subject.slice(from: from, to: to))
  }

  struct Fingerprint: Hashable {
    var month: LocalDay
    var oracle: Slice
    var subject: Slice
  }
}
