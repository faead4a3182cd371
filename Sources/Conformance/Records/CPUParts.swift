import Foundation

/// Where the CPU of a step's thread went, by part, when the run measures it
/// (`CONFORMANCE_CPU_PARTS=1`, which `conformance bench --breakdown` sets for its run and so
/// for its workers): what the bench adds up by check. Reading the thread's clock a few times
/// a case, and twice around each of the subject's calls, costs about a microsecond each, so a
/// night does not measure it.
package struct CPUParts: Sendable, Codable, Equatable {
  /// The subject's calls, timed where the checks make them (in this process: an executor's
  /// own CPU is its process's).
  package var subject = 0.0
  /// The rest of the check's evaluation of the case: libicu (the expected column) and the
  /// check's own logic.
  package var oracle = 0.0
  /// A failure, or a pass the published reference contradicts, evaluated again through
  /// Foundation's ICU, and the reference's decision (less any subject call it makes anew).
  package var triage = 0.0
  /// Waivers and baseline.
  package var review = 0.0
  /// The step's record made from its cases.
  package var record = 0.0

  package init(subject: Double = 0, oracle: Double = 0, triage: Double = 0, review: Double = 0,
               record: Double = 0) {
    (self.subject, self.oracle, self.triage, self.review, self.record) = (subject, oracle, triage, review, record)
  }

  /// Whether this process measures them.
  package static let measured = ProcessInfo.processInfo.environment[variable] == "1"
  package static let variable = "CONFORMANCE_CPU_PARTS"

  package var total: Double { subject + oracle + triage + review + record }

  package mutating func add(_ other: CPUParts) {
    subject += other.subject
    oracle += other.oracle
    triage += other.triage
    review += other.review
    record += other.record
  }
}
