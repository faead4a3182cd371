import Foundation

/// Runs a plan on worker threads, each with its own `CaseEvaluator`, and reports each case
/// as an event, in plan order whatever the scheduling.
package struct Runner: Sendable {
  package var plan: Plan
  package var corpus: Corpus
  package var subject: Subject
  /// Threads evaluating steps at once.
  package var workers: Int
  /// Keep every case in its step's record (`--record all`), not only those that did not pass.
  package var recordAll = false
  /// Re-evaluate failing cases against Foundation's ICU to classify them (needs
  /// `corpus.triage`).
  package var triage = true
  /// Waivers and baseline applied to every case; `nil`: nothing is expected.
  package var review: Review?

  package init(plan: Plan, corpus: Corpus, subject: Subject,
              workers: Int = ProcessInfoCores.count, recordAll: Bool = false) {
    self.plan = plan
    self.corpus = corpus
    self.subject = subject
    self.workers = max(1, workers)
    self.recordAll = recordAll
  }

  /// Evaluates every step; `handler` sees a stepEnded event per step in plan order, on the
  /// calling thread.
  ///
  /// Each thread takes steps from a `StepScheduler`, which may hand them out a bounded
  /// number of cases ahead of delivery, so the results held in memory stay bounded while
  /// delivery (reports, logs) overlaps with evaluation.
  package func run(_ handler: EventHandler) {
    let scheduler = StepScheduler(plan: plan, window: .init(cases: Self.maxCasesAhead))
    let (corpus, subject, recordAll, triage, review) = (corpus, subject, recordAll, triage, review)
    let zoneClasses = corpus.zoneClasses
    let failure = scheduler.run(slots: workers, serve: { _ in
      let evaluator = CaseEvaluator(corpus: corpus, subject: subject, triage: triage, review: review,
                                    recordAll: recordAll, zoneClasses: zoneClasses)
      while let work = scheduler.next() {
        // A thread reports no faults (a trap ends the process), so no group ever trips.
        guard case .run(let job) = work else { preconditionFailure("\(work) in an in-process run") }
        let step = scheduler.step(job.step)
        scheduler.answered(job, evaluator.evaluate(step, check: scheduler.plan.checks[step.checkIndex],
                                                   positions: job.positions))
        scheduler.finished(job)
      }
      evaluator.close()
    }, handler)
    precondition(failure == nil, "an in-process run abandoned: \(failure!)")
  }

  /// How many cases workers may hold ahead of delivery: a few tens of megabytes of results.
  /// Bounded by cases, not steps: a bound of a few steps leaves a thread idle behind one
  /// slow step (a chinese-calendar month check).
  static let maxCasesAhead = 100_000
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
