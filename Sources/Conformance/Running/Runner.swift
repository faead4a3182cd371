import Dispatch
import Foundation

/// Runs a plan on every core and reports each case as an event, in plan order whatever the
/// scheduling.
public struct Runner: Sendable {
  public var plan: Plan
  public var corpus: Corpus
  public var subject: Subject
  /// Threads evaluating steps at once.
  public var workers: Int

  public init(plan: Plan, corpus: Corpus, subject: Subject,
              workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.plan = plan
    self.corpus = corpus
    self.subject = subject
    self.workers = max(1, workers)
  }

  /// Evaluates every step; `handler` sees caseEnded and stepEnded events in plan order.
  ///
  /// Steps run in windows of a few per worker: a window is evaluated in parallel, then
  /// delivered in order, so memory holds one window of results, not the run.
  public func run(_ handler: EventHandler) {
    let contexts = ContextPool { EvaluationContext(corpus: corpus, subject: subject) }
    let window = workers * 8
    var start = 0
    while start < plan.steps.count {
      let end = min(start + window, plan.steps.count)
      let slice = Array(plan.steps[start..<end])
      let checks = plan.checks
      let results = ParallelMap.run(slice, workers: workers) { step in
        let context = contexts.take()
        defer { contexts.give(context) }
        return Self.evaluate(step, check: checks[step.checkIndex], context: context)
      }
      for (step, result) in zip(slice, results) {
        for caseResult in result.cases { handler(Event(.caseEnded(caseResult))) }
        handler(Event(.stepEnded(StepResult(
          check: plan.checks[step.checkIndex].id, name: step.name, counts: result.counts,
          duration: result.duration))))
      }
      start = end
    }
  }

  /// Evaluates one case by itself (for `explain` and tests).
  public static func evaluate(_ id: CaseID, check: any Check, context: EvaluationContext)
    -> Outcome
  {
    do {
      return try check.evaluate(id, in: context)
    } catch let unavailable as SubjectUnavailable {
      return .skipped(unavailable.reason)
    } catch let error as InputError {
      return .errored(error.message)
    } catch {
      return .errored("\(error)")
    }
  }

  static func evaluate(_ step: Plan.Step, check: any Check, context: EvaluationContext)
    -> (cases: [CaseResult], counts: StatusCounts, duration: Double)
  {
    let clock = ContinuousClock.now
    var counts = StatusCounts()
    let cases = step.cases().map { id in
      let outcome = evaluate(id, check: check, context: context)
      counts.add(outcome.status)
      return CaseResult(id: id, outcome: outcome)
    }
    let elapsed = ContinuousClock.now - clock
    let seconds = Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    return (cases, counts, seconds)
  }
}

/// Evaluation contexts for worker threads: a context holds ICU handles that must not be used
/// by two threads at once, so each step borrows one.
final class ContextPool: @unchecked Sendable {
  private let lock = NSLock()
  private var idle: [EvaluationContext] = []
  private let make: () -> EvaluationContext

  init(make: @escaping () -> EvaluationContext) { self.make = make }

  func take() -> EvaluationContext {
    lock.lock()
    defer { lock.unlock() }
    return idle.popLast() ?? make()
  }

  func give(_ context: EvaluationContext) {
    lock.lock()
    idle.append(context)
    lock.unlock()
  }
}
