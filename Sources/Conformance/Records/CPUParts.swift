import Foundation

/// Where the CPU of a step's thread went, by part, when the run measures it
/// (`CONFORMANCE_CPU_PARTS=1`, which `conformance bench --breakdown` sets for its run and so
/// for its workers): what the bench adds up by check. Reading the thread's clock a few times
/// a case costs about a microsecond, so a night does not measure it.
package struct CPUParts: Sendable, Codable, Equatable {
  /// The check's evaluation of the case: the subject's calls, libicu (the expected column)
  /// and the check's own logic.
  package var outcome = 0.0
  /// A failure, or a pass the published reference contradicts, evaluated again through
  /// Foundation's ICU, and the reference's decision.
  package var triage = 0.0
  /// Waivers and baseline.
  package var review = 0.0
  /// The step's record made from its cases.
  package var record = 0.0

  package init(outcome: Double = 0, triage: Double = 0, review: Double = 0, record: Double = 0) {
    (self.outcome, self.triage, self.review, self.record) = (outcome, triage, review, record)
  }

  /// Whether this process measures them.
  package static let measured = ProcessInfo.processInfo.environment[variable] == "1"
  package static let variable = "CONFORMANCE_CPU_PARTS"

  package var total: Double { outcome + triage + review + record }

  package mutating func add(_ other: CPUParts) {
    outcome += other.outcome
    triage += other.triage
    review += other.review
    record += other.record
  }
}
