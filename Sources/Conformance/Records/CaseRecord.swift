/// One case as every surface sees it: the check's verdict and values, and the review of it.
///
/// It is what a step carries from the thread or worker process that evaluated it, one line of
/// `cases.jsonl.gz`, and what `merge`, `--baseline` and the reports read back, through
/// `Codable` alone.
package struct CaseRecord: Sendable, Equatable {
  package var id: CaseID
  /// The index of the step it belongs to in the whole plan (shards merge by it).
  package var step: Int
  package var outcome: Outcome
  package var review = CaseReview()
  /// Set when the values were dropped to keep the results small (see `abridged()`): the
  /// 64-bit FNV-1a digest of the actual value's text, which a baseline compares.
  package var actualDigest: String?

  package init(id: CaseID, step: Int, outcome: Outcome, review: CaseReview = CaseReview()) {
    self.id = id
    self.step = step
    self.outcome = outcome
    self.review = review
  }

  /// The status the reports count: the verdict as the review reads it.
  package var status: CaseStatus {
    guard review.waiver != nil, outcome.verdict != .notRun else {
      return review.oracleStale == true && outcome.verdict == .failed ? .oracleStale : CaseStatus(outcome.verdict)
    }
    return outcome.verdict == .passed ? .unexpectedPass : .waived
  }

  /// Whether the values were dropped (see `abridged()`).
  package var isAbridged: Bool { actualDigest != nil }

  /// The digest a baseline compares: recorded, or computed from the actual value.
  package var actualDigestValue: UInt64 {
    actualDigest.flatMap { UInt64($0, radix: 16) } ?? outcome.actual.digest
  }

  /// Whether a baseline-aware nightly should go red for it: a failure no waiver explains
  /// that is new, a new case or changed (every unwaived failure without a baseline). A new
  /// failure that a waiver matches but does not list in its scope is one (`outOfScope`).
  package var isNewFailure: Bool {
    guard outcome.isFailure, review.waiver == nil, review.oracleStale != true else { return false }
    switch review.baseline {
    case nil, .newFailure?, .newCase?, .changed?: return true
    case .stillFailing?, .fixed?, .removed?: return false
    }
  }

  /// The case without its values and detail, keeping what a reviewer filters by and what a
  /// baseline compares. A nightly full sweep waives ~400,000 known differences; whole, they
  /// made the results ~600 MB. `explain` re-runs any case in full.
  package func abridged() -> CaseRecord {
    guard !isAbridged else { return self }
    var copy = self
    copy.actualDigest = outcome.actual.digestText
    copy.outcome.expected = .null
    copy.outcome.actual = .null
    copy.outcome.detail = []
    copy.outcome.months = nil
    copy.outcome.values = nil
    copy.review.triageExpected = nil
    return copy
  }
}

/// What a review made of a case, kept apart from the check's verdict.
package struct CaseReview: Sendable, Equatable, Codable {
  /// The waiver that explains (or, for an unexpected pass, expected) this outcome.
  package var waiver: String?
  /// Why a failure happened, when triage ran.
  package var triage: Triage?
  /// The expectation computed through Foundation's own ICU, when triage ran.
  package var triageExpected: Value?
  /// How the case compares with the baseline run, when there is one.
  package var baseline: Baseline.Class?
  /// A waiver that matched the case by check, dimensions and pattern but whose claim (its
  /// triage) the case's triage contradicts: it did not waive the case.
  package var contradicts: String?
  /// A waiver that would have waived the case, but the case newly fails against the
  /// baseline and the waiver's scope does not list it: it was written for other cases.
  package var outOfScope: String?
  /// Counted apart as `oracle-stale` (`CaseStatus.oracleStale`), not as a failure: set by a
  /// review whose `--oracle-stale` is `apart` on a failure that triage finds `oracle-stale`.
  package var oracleStale: Bool?

  package init(waiver: String? = nil, triage: Triage? = nil, triageExpected: Value? = nil,
              baseline: Baseline.Class? = nil) {
    self.waiver = waiver
    self.triage = triage
    self.triageExpected = triageExpected
    self.baseline = baseline
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case waiver, triage, triageExpected = "expectedFoundationICU", baseline, contradicts
    case outOfScope, oracleStale
  }
}

extension CaseRecord: Codable {
  // Flat, so a script reads `.verdict` and `.actual` without knowing the Swift types;
  // `check`, `dimensions` and `explain` repeat the id for readers and are not read back.
  enum CodingKeys: String, CodingKey, CaseIterable {
    case id, check, step, dimensions, verdict, expected, actual, values, months, pattern, detail
    case review
    case actualDigest, explain
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(CaseID.self, forKey: .id)
    step = try container.decode(Int.self, forKey: .step)
    outcome = Outcome(
      verdict: try container.decode(Outcome.Verdict.self, forKey: .verdict),
      expected: try container.decodeIfPresent(Value.self, forKey: .expected) ?? .null,
      actual: try container.decodeIfPresent(Value.self, forKey: .actual) ?? .null,
      pattern: try container.decodeIfPresent(String.self, forKey: .pattern) ?? "",
      detail: try container.decodeIfPresent([String].self, forKey: .detail) ?? [],
      months: try container.decodeIfPresent(MonthReadings.self, forKey: .months))
    outcome.values = try container.decodeIfPresent(CaseValues.self, forKey: .values)
    review = try container.decodeIfPresent(CaseReview.self, forKey: .review) ?? CaseReview()
    actualDigest = try container.decodeIfPresent(String.self, forKey: .actualDigest)
    if let digest = actualDigest, digest.count != 16 || UInt64(digest, radix: 16) == nil {
      throw DecodingError.dataCorruptedError(
        forKey: .actualDigest, in: container,
        debugDescription: "'\(digest)' is not 16 hex digits")
    }
  }

  /// The case line's members, as `CaseLineWriter` (the one writer of a case) writes them:
  /// an abridged case keeps what a baseline compares and a reviewer filters by, and a case
  /// that did not pass its pattern, detail and explain command (the encoder's
  /// `CaseExplainer`, else the plain one).
  package func encode(to encoder: any Encoder) throws {
    let explain = encoder.userInfo[CaseExplainer.userInfoKey] as? CaseExplainer ?? .plain
    let line = CaseLineWriter.line(self, explain: explain)
    var container = encoder.singleValueContainer()
    try container.encode(try RecordCoding.decoder().decode(JSONValue.self, from: line))
  }
}

extension CaseRecord: MemberDecodable {
  /// A whole case line read by key (`conformance compare`, a self-test's catches).
  static let slowReader = SlowReads.Reader.caseLine
}
