import Foundation

/// A fixed piece of the work a shard spends most of its CPU on, timed in the bench's own
/// process before each run it measures, so a reader can see whether the CPU itself ran
/// slower when a run did (one bench: it did before some slow runs, not before all).
///
/// On this shared machine one shard of the same code ran 56.4, 72.3 and 60.7 s in one bench,
/// and the same full sweep 801 CPU-s one evening and 924 the next: the subject's own calls
/// (Foundation's ICU) run a tenth to a quarter slower in some stretches. The reference is such
/// calls and nothing of ours: Foundation's `isDate(_:inSameDayAs:)` in the Chinese calendar at
/// Asia/Chita (the calendar and call of `same-day-closing`, a shard's costliest check) over the
/// same pairs of instants every time: its ratio from one run to the next is the machine's
/// drift, not the code's.
package enum ReferenceWorkload {
  /// Instants every 17 minutes from 2015-01-01T00:00Z, each paired with the one 97 minutes on.
  /// Not the days around Chita's 2014-10-26 change from UTC+10 to UTC+8: over 2014-10-20…31
  /// Foundation's Chinese calendar spent 6.2 ms a call on average (80 µs over 10-20…23, 21 µs
  /// here; a `swiftc -O` loop), so a round would time that one slow path, not the machine.
  static func pairs(count: Int) -> [(Date, Date)] {
    let start = 1_420_070_400.0
    return (0..<count).map { index in
      let first = start + Double(index) * 17 * 60
      return (Date(timeIntervalSince1970: first), Date(timeIntervalSince1970: first + 97 * 60))
    }
  }

  /// The calendar the reference asks, made afresh each round as a case's would be.
  static func calendar() -> Calendar {
    var calendar = Calendar(identifier: .chinese)
    calendar.timeZone = TimeZone(identifier: "Asia/Chita") ?? .gmt
    return calendar
  }

  /// One round: how many pairs Foundation puts on different days.
  static func differentDays(_ pairs: [(Date, Date)]) -> Int {
    let calendar = calendar()
    return pairs.reduce(0) { count, pair in count + (calendar.isDate(pair.0, inSameDayAs: pair.1) ? 0 : 1) }
  }

  /// The pairs one round asks about: 15,000, 0.18–0.26 CPU-s a round in one bench on this machine.
  static let roundPairs = pairs(count: 15_000)
  /// ICU fills its Chinese-calendar caches on first use: the first round is not timed.
  private static let warmed: Int = differentDays(roundPairs)

  /// The calling thread's CPU seconds for one round.
  package static func measure() -> Double {
    _ = warmed
    let start = ThreadClock.now
    _ = differentDays(roundPairs)
    return ThreadClock.now - start
  }
}
