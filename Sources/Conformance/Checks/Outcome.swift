/// The check's verdict on one case and the values it compared: a mismatch is data here, never
/// a thrown error. What a review makes of it (waiver, triage, baseline class) is kept apart, in
/// `CaseReview`, so a verdict reads the same before and after any review.
public struct Outcome: Sendable, Codable, Equatable {
  /// What the check found, before any review.
  public enum Verdict: String, Sendable, Codable, CaseIterable {
    case passed, failed, errored, skipped
  }

  public var verdict: Verdict
  /// What the oracle (libicu) says.
  public var expected: Value
  /// What the subject (PickerLogic through Foundation) says.
  public var actual: Value
  /// The shape of the difference, for grouping failures ("different first weekday"); empty
  /// when the case passed.
  public var pattern: String
  /// Inputs and intermediate values a reader needs to judge the case, one fact per line.
  public var detail: [String]
  /// Each side's reading of the month, when the case names one.
  public var months: MonthReadings?
  /// Everything each side answered, in full, with `--record all` (`expected` and `actual`
  /// keep only what differs, or a count when nothing does).
  public var values: CaseValues?

  /// Whether the check found a difference or could not compare (failed or errored).
  public var isFailure: Bool { verdict == .failed || verdict == .errored }

  public init(verdict: Verdict, expected: Value, actual: Value, pattern: String = "",
              detail: [String] = [], months: MonthReadings? = nil) {
    self.verdict = verdict
    self.expected = expected
    self.actual = actual
    self.pattern = pattern
    self.detail = detail
    self.months = months
  }

  /// Passed when the values are equal, failed otherwise (with the given pattern and detail).
  /// Pattern, detail and month readings are computed only for a failure: they cost subject
  /// and oracle calls a passing case does not need.
  public static func comparing(expected: Value, actual: Value,
                               pattern: @autoclosure () -> String,
                               detail: @autoclosure () -> [String] = [],
                               months: @autoclosure () -> MonthReadings? = nil) -> Outcome {
    if expected == actual {
      return Outcome(verdict: .passed, expected: expected, actual: actual)
    }
    return Outcome(verdict: .failed, expected: expected, actual: actual, pattern: pattern(),
                   detail: detail(), months: months())
  }

  /// A case whose `count` comparisons all agreed, recorded by their number: a pass needs no
  /// text, and rendering it for millions of passing cases costs more than the comparisons.
  public static func agreed(_ count: Int) -> Outcome {
    Outcome(verdict: .passed, expected: .int(count), actual: .int(count))
  }

  /// An errored case: the subject or the oracle could not produce a value.
  public static func errored(_ message: String) -> Outcome {
    Outcome(verdict: .errored, expected: .null, actual: .null, pattern: "error", detail: [message])
  }

  /// A case that cannot run here, with the reason.
  public static func skipped(_ reason: String) -> Outcome {
    Outcome(verdict: .skipped, expected: .null, actual: .null, pattern: "skipped", detail: [reason])
  }
}

/// Each side's full answer for a case, so a script outside the harness can check a verdict:
/// every cell, pair, role or count the check compared.
public struct CaseValues: Sendable, Codable, Equatable {
  /// What the oracle (libicu) computed.
  public var oracle: Value
  /// What the subject answered.
  public var subject: Value

  /// Its keys, for `Codable` and the case line's writer.
  enum CodingKeys: String, CodingKey, CaseIterable { case oracle, subject }

  public init(oracle: Value, subject: Value) {
    self.oracle = oracle
    self.subject = subject
  }
}

/// How each side reads the month a case is about.
public struct MonthReadings: Sendable, Equatable, Codable {
  /// libicu's reading, e.g. `era 0 year 5782 month 7`.
  public var oracle: String
  /// Foundation's reading of the same instant.
  public var subject: String

  /// Its keys, for `Codable` and the case line's writer.
  enum CodingKeys: String, CodingKey, CaseIterable { case oracle, subject }
}

/// Why a failure happened.
///
/// Where the published reference covers a check (`Corpora/reference/`), three voices decide:
/// libicu, Foundation's own ICU, and the reference at the release each side claims. Checks it
/// does not cover yet keep the two-voice classes (`data-drift`, `unclassified`).
public enum Triage: String, Sendable, Codable, CaseIterable {
  /// libicu matches its release's reference and the subject the newer release it claims: the
  /// oracle's data is old, the subject is right.
  case oracleStale = "oracle-stale"
  /// libicu differs from the reference, which the subject and its own ICU match: the oracle's
  /// code or data is wrong at its own release (libicu 72's Chinese months).
  case oracleDefect = "oracle-defect"
  /// The subject matches its own ICU, whose data differs from the release it claims: a patched
  /// or broken data set, a finding for the team that ships it.
  case subjectData = "subject-data"
  /// Both ICUs agree with each other and differ from the reference: the shared mistake no
  /// two-ICU harness can see.
  case sharedDefect = "shared-defect"
  /// The subject differs from its own ICU, which agrees with the reference (or, without a
  /// reference for the check, with libicu): the logic is wrong.
  case logicDefect = "logic-defect"
  /// The reference has no value for the case; the detail says why.
  case noReference = "no-reference"
  /// Two voices only (no reference covers the check): the subject agrees with its own ICU and
  /// libicu differs. Which side's data departs from its release is not known.
  case dataDrift = "data-drift"
  /// Anything else: the voices disagree in a way none of the above names; all values are
  /// shown.
  case unclassified

  /// Classifies a failed outcome from the same case evaluated against Foundation's ICU, where
  /// no reference covers the check.
  public static func classify(_ outcome: Outcome, against second: Outcome) -> Triage {
    switch second.verdict {
    case .passed: .dataDrift
    case .failed where second.expected == outcome.expected: .logicDefect
    default: .unclassified
    }
  }

  /// Classifies a failure by three voices.
  ///
  /// - Parameters:
  ///   - oracle: libicu's expectation; `subject`: the subject's answer (they differ).
  ///   - subjectICU: the expectation through Foundation's own ICU, `nil` when it could not
  ///     be computed.
  ///   - oracleRelease, subjectRelease: the reference at the release each side claims.
  public static func classify(oracle: Value, subject: Value, subjectICU: Value?,
                              oracleRelease: Value, subjectRelease: Value) -> Triage {
    guard let subjectICU else { return .unclassified }
    return classify(Voices(subjectMatchesItsRelease: subject == subjectRelease,
                           oracleMatchesItsRelease: oracle == oracleRelease,
                           subjectICUMatchesItsRelease: subjectICU == subjectRelease,
                           oracleAgreesWithSubjectICU: oracle == subjectICU,
                           subjectAgreesWithSubjectICU: subject == subjectICU))
  }

  /// What the voices say of one failure, each a yes or no.
  public struct Voices: Equatable {
    public var subjectMatchesItsRelease: Bool
    public var oracleMatchesItsRelease: Bool
    public var subjectICUMatchesItsRelease: Bool
    public var oracleAgreesWithSubjectICU: Bool
    public var subjectAgreesWithSubjectICU: Bool
    /// The subject matches data it reads besides its ICU (the system's zone files), which
    /// differ from the release it claims.
    public var subjectMatchesOtherData = false
  }

  public static func classify(_ voices: Voices) -> Triage {
    if voices.subjectMatchesItsRelease && voices.oracleMatchesItsRelease { return .oracleStale }
    if voices.subjectMatchesItsRelease && voices.subjectICUMatchesItsRelease
      && !voices.oracleMatchesItsRelease { return .oracleDefect }
    if voices.oracleAgreesWithSubjectICU && !voices.oracleMatchesItsRelease
      && !voices.subjectICUMatchesItsRelease { return .sharedDefect }
    if voices.subjectAgreesWithSubjectICU && !voices.subjectICUMatchesItsRelease { return .subjectData }
    if !voices.subjectMatchesItsRelease && voices.subjectMatchesOtherData { return .subjectData }
    if voices.subjectICUMatchesItsRelease && !voices.subjectAgreesWithSubjectICU { return .logicDefect }
    return .unclassified
  }
}
