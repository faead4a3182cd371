/// The check's verdict on one case and the values it compared: a mismatch is data here, never
/// a thrown error. What a review makes of it (waiver, triage, baseline class) is kept apart, in
/// `CaseReview`, so a verdict reads the same before and after any review.
package struct Outcome: Sendable, Codable, Equatable {
  /// What the check found, before any review.
  package enum Verdict: String, Sendable, Codable, CaseIterable {
    case passed, failed, errored, skipped
    /// Never asked: the breaker stopped its group after a systematic fault (the trip's
    /// reason is its detail, the fault's signature its pattern). Not a failure, and not a
    /// guess at one.
    case notRun = "not-run"
  }

  package var verdict: Verdict
  /// What the oracle (libicu) says.
  package var expected: Value
  /// What the subject (PickerLogic through Foundation) says.
  package var actual: Value
  /// The shape of the difference, for grouping failures ("different first weekday"); empty
  /// when the case passed.
  package var pattern: String
  /// Inputs and intermediate values a reader needs to judge the case, one fact per line.
  package var detail: [String]
  /// Each side's reading of the month, when the case names one.
  package var months: MonthReadings?
  /// Everything each side answered, in full, with `--record all` (`expected` and `actual`
  /// keep only what differs, or a count when nothing does).
  package var values: CaseValues?

  /// Whether the check found a difference or could not compare (failed or errored).
  package var isFailure: Bool { verdict == .failed || verdict == .errored }

  package init(verdict: Verdict, expected: Value, actual: Value, pattern: String = "",
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
  package static func comparing(expected: Value, actual: Value,
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
  package static func agreed(_ count: Int) -> Outcome {
    Outcome(verdict: .passed, expected: .int(count), actual: .int(count))
  }

  /// An errored case: the subject or the oracle could not produce a value.
  package static func errored(_ message: String) -> Outcome {
    Outcome(verdict: .errored, expected: .null, actual: .null, pattern: "error", detail: [message])
  }

  /// A case the breaker did not ask (`Verdict.notRun`): `reason` is the trip's, `signature`
  /// the fault that tripped it.
  static func notRun(_ reason: String, signature: String) -> Outcome {
    Outcome(verdict: .notRun, expected: .null, actual: .null, pattern: signature, detail: [reason])
  }

  /// A case that cannot run here, with the reason.
  package static func skipped(_ reason: String) -> Outcome {
    Outcome(verdict: .skipped, expected: .null, actual: .null, pattern: "skipped", detail: [reason])
  }
}

/// Each side's full answer for a case, so a script outside the harness can check a verdict:
/// every cell, pair, role or count the check compared.
package struct CaseValues: Sendable, Codable, Equatable {
  /// What the oracle (libicu) computed.
  package var oracle: Value
  /// What the subject answered.
  package var subject: Value
  /// Where the published reference decided the case's triage: its value at the release the
  /// subject declares (a month table's one release), and that release.
  package var reference: ReferenceValue?

  /// Its keys, for `Codable` and the case line's writer.
  enum CodingKeys: String, CodingKey, CaseIterable { case oracle, reference, subject }

  package init(oracle: Value, subject: Value, reference: ReferenceValue? = nil) {
    self.oracle = oracle
    self.subject = subject
    self.reference = reference
  }
}

/// One release's value of the published reference (`Corpora/reference`), as a script reads
/// it beside both sides' values.
package struct ReferenceValue: Sendable, Codable, Equatable {
  /// The release, as reports name it: `CLDR 46 (babel 2.17.0)`, `tz 2025b (tzdata==2025.2)`.
  package var release: String
  package var value: Value

  enum CodingKeys: String, CodingKey, CaseIterable { case release, value }

  package init(release: String, value: Value) {
    self.release = release
    self.value = value
  }
}

/// How each side reads the month a case is about.
package struct MonthReadings: Sendable, Equatable, Codable {
  /// libicu's reading, e.g. `era 0 year 5782 month 7`.
  package var oracle: String
  /// The harness's Foundation Calendar's reading of the same instant: the month the harness
  /// asks the subject about, whatever the subject's language.
  package var subject: String

  /// Its keys, for `Codable` and the case line's writer.
  enum CodingKeys: String, CodingKey, CaseIterable { case oracle, subject }
}

extension ExecutorFault {
  /// The case's outcome: `not-run` for a question the breaker did not send, else errored.
  var outcome: Outcome {
    var outcome = Outcome.errored(detail[0])
    if case .notRun = kind { outcome.verdict = .notRun }
    (outcome.pattern, outcome.detail) = (signature, detail)
    return outcome
  }
}
