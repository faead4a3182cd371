import Foundation

/// Faults injected into the subject for isolation tests: `CONFORMANCE_FAULT=kind:glob`
/// makes cases whose id matches the glob fail in that way.
///
/// - `trap`: a Swift runtime trap (as a `preconditionFailure`).
/// - `hang`: an endless loop.
/// - `closed-range`: the real trap of turning Foundation's empty `range(of: .day, in: .month)`
///   for the astronomical Islamic calendar in Asia/Tehran (Ramadan 1438 gives `31..<31`) into
///   a closed range.
/// - `week-of-year`: the real hang of `dateInterval(of: .weekOfYear)` in a Hebrew calendar
///   whose firstWeekday is 8.
public struct Fault: Sendable {
  public enum Kind: String, Sendable { case trap, hang, closedRange = "closed-range", weekOfYear = "week-of-year" }

  public var kind: Kind
  public var cases: Glob

  /// The fault the environment asks for, if any.
  public static let current: Fault? = {
    guard let text = ProcessInfo.processInfo.environment["CONFORMANCE_FAULT"],
      let colon = text.firstIndex(of: ":"),
      let kind = Kind(rawValue: String(text[..<colon]))
    else { return nil }
    return Fault(kind: kind, cases: Glob(String(text[text.index(after: colon)...])))
  }()

  /// Fails as asked when `id` matches.
  func inject(_ id: CaseID) {
    guard cases.matches(id.description) else { return }
    switch kind {
    case .trap:
      preconditionFailure("CONFORMANCE_FAULT trap at \(id)")
    case .hang:
      while true { sleep(1) }
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
    }
  }
}
