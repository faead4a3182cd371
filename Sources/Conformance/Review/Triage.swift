/// Why a failure happened.
///
/// Where the published reference covers a check (`Corpora/reference/`), three voices decide:
/// libicu, Foundation's own ICU, and the reference at the release each side claims. Checks it
/// does not cover yet keep the two-voice classes (`data-drift`, `unclassified`).
package enum Triage: String, Sendable, Codable, CaseIterable {
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
  /// The subject declares no release of the data the check reads (its CLDR or tz): which
  /// side departs from its release is not known; the detail shows each release's value.
  case undeclared = "undeclared-release"
  /// Two voices only (no reference covers the check): the subject agrees with its own ICU and
  /// libicu differs. Which side's data departs from its release is not known.
  case dataDrift = "data-drift"
  /// Anything else: the voices disagree in a way none of the above names; all values are
  /// shown.
  case unclassified

  /// Classifies a failed outcome from the same case evaluated against Foundation's ICU, where
  /// no reference covers the check.
  package static func classify(_ outcome: Outcome, against second: Outcome) -> Triage {
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
  ///   - oracleRelease, subjectRelease: the reference at the release each side claims (the
  ///     subject's: the one it declares); `foundationRelease`: at Foundation's ICU's, which
  ///     `subjectICU` is held to (the subject's own for the seeds' logic).
  package static func classify(oracle: Value, subject: Value, subjectICU: Value?,
                              oracleRelease: Value, subjectRelease: Value,
                              foundationRelease: Value? = nil) -> Triage {
    guard let subjectICU else { return .unclassified }
    return classify(Voices(subjectMatchesItsRelease: subject == subjectRelease,
                           oracleMatchesItsRelease: oracle == oracleRelease,
                           subjectICUMatchesItsRelease: subjectICU == (foundationRelease ?? subjectRelease),
                           oracleAgreesWithSubjectICU: oracle == subjectICU,
                           subjectAgreesWithSubjectICU: subject == subjectICU))
  }

  /// What the voices say of one failure, each a yes or no.
  package struct Voices: Equatable {
    package var subjectMatchesItsRelease: Bool
    package var oracleMatchesItsRelease: Bool
    package var subjectICUMatchesItsRelease: Bool
    package var oracleAgreesWithSubjectICU: Bool
    package var subjectAgreesWithSubjectICU: Bool
    /// The subject matches data it reads besides its ICU (the system's zone files), which
    /// differ from the release it claims.
    package var subjectMatchesOtherData = false
  }

  package static func classify(_ voices: Voices) -> Triage {
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
