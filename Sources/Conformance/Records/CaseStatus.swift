/// A case's status in the reports: the check's verdict, or what a waiver makes of it.
public enum CaseStatus: String, Sendable, Codable, CaseIterable, Comparable {
  case passed, failed, errored, skipped
  /// Not run: the breaker stopped its group (`Outcome.Verdict.notRun`); no waiver applies.
  case notRun = "not-run"
  /// Failed or errored, and a waiver explains it.
  case waived
  /// Failed only because libicu's data is older: the published reference shows the subject
  /// following the release it declares and libicu its own older one (`--oracle-stale`).
  case oracleStale = "oracle-stale"
  /// Passed although a waiver says it should fail: the explained difference is gone.
  case unexpectedPass = "unexpected-pass"

  /// A difference already explained (by a waiver, or as libicu's older data): past its
  /// cluster's examples a results file keeps it abridged, a full sweep holding some 600,000.
  var isExplained: Bool { self == .waived || self == .oracleStale }

  init(_ verdict: Outcome.Verdict) {
    switch verdict {
    case .passed: self = .passed
    case .failed: self = .failed
    case .errored: self = .errored
    case .skipped: self = .skipped
    case .notRun: self = .notRun
    }
  }

  public static func < (lhs: CaseStatus, rhs: CaseStatus) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
