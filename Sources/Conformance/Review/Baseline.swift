import Foundation
import ICUOracle

/// A previous run's results, read to classify this run's cases against it.
///
/// Only what classification needs is kept: each failing case's actual value (as a digest,
/// `Value.digest`), and the plan (which cases that run swept), so a case is `fixed` or a
/// `new-failure` only if both runs swept it.
package struct Baseline: Sendable {
  /// How a case compares with the baseline.
  package enum Class: String, Sendable, Codable, CaseIterable {
    /// Fails now, passed in the baseline (which swept it).
    case newFailure = "new-failure"
    /// Failed in the baseline, passes now.
    case fixed
    /// Fails in both, with the same actual value.
    case stillFailing = "still-failing"
    /// Fails in both, with a different actual value.
    case changed
    /// Fails now; the baseline did not sweep it.
    case newCase = "new-case"
    /// Failed in the baseline; this run does not sweep it.
    case removed

    /// The order a reviewer reads the classes in, on the page with JavaScript and without:
    /// what is new first, then what moved, then what stayed or went.
    package static let readingOrder: [Class] = [.newFailure, .newCase, .changed, .fixed, .stillFailing, .removed]

    /// The class in a reader's words: the page's legend.
    package var meaning: String {
      switch self {
      case .newFailure: "fails now, passed in the baseline"
      case .fixed: "failed in the baseline, passes now"
      case .stillFailing: "fails in both, the same value"
      case .changed: "fails in both, another value"
      case .newCase: "fails now, the baseline did not sweep it"
      case .removed: "failed in the baseline, not swept now"
      }
    }
  }

  package var reference: BaselineReference
  /// The digest of each failing case's actual value, by case id (as a `CaseKey`).
  var failures: [CaseKey: UInt64]
  /// Each step the baseline swept, as results record it (`PlanStepSet.encode`), by its group
  /// id; decoded only for the few cases that ask (a new failure, a plan that changed).
  var steps: [String: String]
  /// The baseline's failing cases that the plan it was loaded for does not sweep.
  package var removed: [String] = []

  package var path: String { reference.path }
  package var started: String { reference.started }

  /// How many cases failed in the baseline.
  package var failureCount: Int { failures.count }

  /// Whether the baseline run swept a case.
  package func swept(_ id: CaseID) -> Bool {
    // A step fixes some dimensions and varies the rest; try each way of splitting the id.
    for candidate in PlanStepSet.groupKeys(of: id) {
      if let step = steps[candidate] { return PlanStepSet.decode(step)?.1.contains(id) ?? false }
    }
    return false
  }

  /// The class of a case, or `nil` for a pass the baseline did not fail either, and for a
  /// case not run (it says nothing of the subject: neither fixed nor new).
  package func classify(_ record: CaseRecord) -> Class? {
    guard record.outcome.verdict != .notRun else { return nil }
    let failing = record.outcome.isFailure
    if let previous = failures[CaseKey(record.id.description)] {
      guard failing else { return .fixed }
      return previous == record.actualDigestValue ? .stillFailing : .changed
    }
    guard failing else { return nil }
    return swept(record.id) ? .newFailure : .newCase
  }
}

/// A case id as a baseline keeps it: two independent 64-bit hashes of its text (FNV-1a and
/// this process's seeded `Hasher`), a sixth of the memory of the text for a night's ~400,000
/// failures. Two different ids share a key with a probability near 2⁻¹²⁸ per pair; the table
/// is built and asked in one process, so the seeded hash needs to agree only there.
struct CaseKey: Hashable, Sendable {
  let fnv: UInt64
  let seeded: Int

  init(_ id: String) {
    fnv = Value.digest(of: id)
    seeded = id.hashValue
  }
}

/// Which baseline a run compared with, as its reports name it.
package struct BaselineReference: Sendable, Codable, Equatable {
  package var path: String
  /// When the baseline run started (ISO 8601).
  package var started: String
  /// Both sides' ICU versions of the baseline run.
  package var versions: String
}
