import Foundation
import Synchronization

/// Feeds a run's events into a `RunTally` and the cases into the results' files, from the
/// `@Sendable` event handler: the mutex makes it safe whichever thread delivers.
package final class RunRecorder: Sendable {
  private let state: Mutex<RunTally>
  private let cases: JSONLinesWriter?
  private let steps: JSONLinesWriter?
  /// The first worker line that did not read as a case, thrown by `close()`.
  private let failure = Mutex<HarnessError?>(nil)

  /// - Parameters:
  ///   - keepProblems: keep every failing case in memory (tests and small runs).
  ///   - cases, steps: the files the cases and the step records go to, if any.
  package init(keepProblems: Bool = true, cases: JSONLinesWriter? = nil,
              steps: JSONLinesWriter? = nil) {
    state = Mutex(RunTally(keepProblems: keepProblems))
    self.cases = cases
    self.steps = steps
  }

  package func record(_ event: Event) {
    if case .stepEnded(let step) = event.kind {
      steps?.append(step.withoutCases)
      if !step.caseLines.isEmpty {
        do {
          try record(step, lines: step.caseLines)
        } catch {
          // A worker wrote these lines: one that does not read as a case is our fault.
          failure.withLock { $0 = $0 ?? HarnessError("a worker's reply: \(error)") }
        }
        return
      }
    }
    state.withLock { tally in
      tally.record(event) { record in cases?.append(record) }
    }
  }

  /// Records a step of a merge: its record's line and its cases' lines as the shard wrote
  /// them (see `record(_:lines:)`).
  func record(merged step: StepRecord, line: Data?, cases: [CaseLine]) throws(InputError) {
    if let line { self.steps?.append(line: line) } else { self.steps?.append(step.withoutCases) }
    try record(step, lines: cases)
  }

  /// Counts a step whose cases came as lines (a shard's, a worker's) and copies each line to
  /// the cases file, but for a case this run abridges that was written whole (its shard kept
  /// it as a cluster's example, this run has the examples it needs).
  private func record(_ step: StepRecord, lines: [CaseLine]) throws(InputError) {
    let writer = self.cases
    try state.withLock { tally throws(InputError) in
      try tally.record(step, cases: lines) { arriving, abridge throws(InputError) in
        if let line = arriving.line, !abridge || arriving.summary.isAbridged {
          writer?.append(line: line)
        } else {
          writer?.append(abridge ? try arriving.abridged() : try arriving.whole())
        }
      }
    }
  }

  /// Completes the review (see `RunTally.completeReview`).
  package func completeReview(_ summary: RunInfo.ReviewSummary) {
    state.withLock { $0.completeReview(summary) }
  }

  /// Records how worker processes were limited and what the breaker stopped.
  package func completeIsolation(_ summary: IsolationSummary) {
    state.withLock { $0.completeIsolation(summary) }
  }

  /// What was recorded so far.
  package var tally: RunTally { state.withLock { $0 } }

  /// Closes the files.
  ///
  /// - Throws: `HarnessError` when a file could not be written or a worker's case line did not read.
  package func close() throws {
    try cases?.close()
    try steps?.close()
    if let failure = failure.withLock({ $0 }) { throw failure }
  }
}
