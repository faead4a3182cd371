import Foundation
import Synchronization

/// Faults injected into the subject for isolation tests: `CONFORMANCE_FAULT=kind:glob`
/// makes cases whose id matches the glob fail in that way.
///
/// - `trap`: a Swift runtime trap (as a `preconditionFailure`).
/// - `hang`: an endless loop that spends CPU, as a real one does (a worker's watchdog counts
///   the CPU a case spends).
/// - `closed-range`: the real trap of turning Foundation's empty `range(of: .day, in: .month)`
///   for the astronomical Islamic calendar in Asia/Tehran (Ramadan 1438 gives `31..<31`) into
///   a closed range.
/// - `week-of-year`: the real hang of `dateInterval(of: .weekOfYear)` in a Hebrew calendar
///   whose firstWeekday is 8.
/// - `leak`: 4 KiB allocated and dropped, so `.ci/leak-check` can prove it sees a leak.
package struct Fault: Sendable {
  package enum Kind: String, Sendable { case trap, hang, closedRange = "closed-range", weekOfYear = "week-of-year", leak }

  package var kind: Kind
  package var cases: Glob

  /// The fault the environment asks for, if any (checked by `fromEnvironment` at start-up).
  package static let current: Fault? = try? fromEnvironment()

  /// Reads `CONFORMANCE_FAULT`; a value that is not `kind:glob` with a known kind is bad input.
  package static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Fault? {
    guard let text = environment["CONFORMANCE_FAULT"] else { return nil }
    let kinds = "trap, hang, closed-range, week-of-year, leak"
    guard let colon = text.firstIndex(of: ":"), text.index(after: colon) < text.endIndex else {
      throw InputError("CONFORMANCE_FAULT=\(text): expected kind:case-glob, kind one of \(kinds)")
    }
    guard let kind = Kind(rawValue: String(text[..<colon])) else {
      throw InputError("CONFORMANCE_FAULT=\(text): unknown kind '\(text[..<colon])' (one of \(kinds))")
    }
    return Fault(kind: kind, cases: Glob(String(text[text.index(after: colon)...])))
  }

  private static let maskedLeak = Atomic<UInt>(0)

  /// Fails as asked when `id` matches.
  func inject(_ id: CaseID) {
    guard cases.matches(id.description) else { return }
    switch kind {
    case .trap:
      fatalError("CONFORMANCE_FAULT trap at \(id)")
      // fatalError, not preconditionFailure: an optimized build traps on a failed
      // precondition without its message, and reports must name the fault in both builds.
    case .hang:
      while true {}
    case .closedRange:
      var islamic = Calendar(identifier: .islamic)
      islamic.timeZone = TimeZone(identifier: "Asia/Tehran")!
      let ramadan = Date(timeIntervalSince1970: 1_496_000_000)  // 2017-05-28
      let days = islamic.range(of: .day, in: .month, for: ramadan) ?? 31..<31
      let closed = days.lowerBound...(days.upperBound - 1)
      print("closed range \(closed)")
    case .weekOfYear:
      var hebrew = Calendar(identifier: .hebrew)
      hebrew.firstWeekday = 8
      _ = hebrew.dateInterval(of: .weekOfYear, for: Date(timeIntervalSince1970: 1_700_000_000))
    case .leak:
      // Publish the address masked, so the optimiser must keep the allocation while a leak
      // checker, scanning memory for pointers, finds no reference to it.
      let block = malloc(4096)
      Self.maskedLeak.store(UInt(bitPattern: block) ^ UInt.max, ordering: .relaxed)
    }
  }
}
