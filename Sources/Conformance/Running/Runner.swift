import Foundation

/// Runs a plan on worker threads and reports each case as an event, in plan order whatever
/// the scheduling.
public struct Runner: Sendable {
  public var plan: Plan
  public var corpus: Corpus
  public var subject: Subject
  /// Threads evaluating steps at once.
  public var workers: Int
  /// Render every case's JSON line in the workers (`--record all`), not only failing ones.
  public var renderAll = false
  /// Re-evaluate failing cases against Foundation's ICU to classify them (needs
  /// `corpus.triage`).
  public var triage = true
  /// Waivers and baseline applied to every case; `nil`: nothing is expected.
  public var review: Review?

  public init(plan: Plan, corpus: Corpus, subject: Subject,
              workers: Int = ProcessInfoCores.count, renderAll: Bool = false) {
    self.plan = plan
    self.corpus = corpus
    self.subject = subject
    self.workers = max(1, workers)
    self.renderAll = renderAll
  }

  /// Evaluates every step; `handler` sees caseEnded and stepEnded events in plan order, on
  /// the calling thread.
  ///
  /// Workers take steps in order and may run ahead of delivery by a bounded number of
  /// cases, so the results held in memory stay bounded while delivery (reports, logs)
  /// overlaps with evaluation.
  public func run(_ handler: EventHandler) {
    let steps = plan.steps
    let checks = plan.checks
    let pipeline = StepPipeline(caseCounts: steps.map(\.caseCount), maxAhead: Self.maxCasesAhead)
    let token = Interruption.register { pipeline.cancel() }
    defer { Interruption.unregister(token) }
    let corpus = self.corpus
    let subject = self.subject
    let renderAll = self.renderAll
    let triage = self.triage
    let review = self.review
    let finished = DispatchGroup()
    for _ in 0..<workers {
      finished.enter()
      let thread = Thread {
        let (context, triageContext) = EvaluationContext.worker(corpus: corpus, subject: subject,
                                                                triage: triage)
        while let index = pipeline.claim() {
          let step = steps[index]
          pipeline.complete(index, Self.evaluate(step, check: checks[step.checkIndex],
                                                 context: context, triage: triageContext,
                                                 review: review, renderAll: renderAll))
        }
        finished.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    for (index, step) in steps.enumerated() {
      guard let result = pipeline.take(index) else { break }
      for caseResult in result.cases { handler(Event(.caseEnded(caseResult))) }
      handler(Event(.stepEnded(StepResult(
        index: step.index, check: checks[step.checkIndex].id, name: step.name, counts: result.counts,
        duration: result.duration, cpu: result.cpu))))
    }
    finished.wait()
  }

  /// How many cases workers may hold ahead of delivery: a few tens of megabytes of results.
  /// A bound of 16 steps left a worker idle behind one slow step (a chinese-calendar month
  /// check): `bench --quick` took 12.8–14.1 s at 0.60 wall/CPU, 10.6 s at 0.52 with room.
  static let maxCasesAhead = 100_000

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

  /// The results of one step.
  struct StepOutcome: Sendable {
    var cases: [CaseResult]
    var counts: StatusCounts
    var duration: Double
    /// The evaluating thread's CPU seconds.
    var cpu = 0.0
  }

  /// Evaluates a case and, when it fails and `triage` is given, classifies the failure by
  /// evaluating it again with Foundation's ICU as the oracle.
  public static func evaluate(_ id: CaseID, check: any Check, context: EvaluationContext,
                              triage: EvaluationContext?) -> Outcome {
    Fault.current?.inject(id)
    context.answers?.startCase()
    var outcome = evaluate(id, check: check, context: context)
    guard outcome.status == .failed, let triage else { return outcome }
    context.answers?.startReplay()
    let second = evaluate(id, check: check, context: triage)
    outcome.triage = Triage.classify(outcome, against: second)
    outcome.triageExpected = second.status == .errored ? nil : second.expected
    if second.status == .errored, let reason = second.detail.first {
      outcome.detail.append("triage: Foundation's ICU could not compute: \(reason)")
    }
    return outcome
  }

  static func evaluate(_ step: Plan.Step, check: any Check, context: EvaluationContext,
                       triage: EvaluationContext? = nil, review: Review? = nil,
                       renderAll: Bool = false) -> StepOutcome
  {
    let (clock, cpu) = (ContinuousClock.now, ThreadClock.now)
    var counts = StatusCounts()
    let cases = step.cases().map { id in
      var outcome = evaluate(id, check: check, context: context, triage: triage)
      review?.apply(id, &outcome)
      counts.add(outcome.status)
      var result = CaseResult(id: id, outcome: outcome, step: step.index)
      // Waived cases are left to delivery: most are abridged there (`ResultsJSON.abridges`),
      // and a worker process renders whatever it sends.
      if renderAll || ![.passed, .skipped, .waived].contains(outcome.status) {
        result.json = ResultsJSON.caseJSON(result).rendered(indent: nil)
      }
      return result
    }
    let elapsed = ContinuousClock.now - clock
    return StepOutcome(cases: cases, counts: counts, duration: elapsed.seconds,
                       cpu: ThreadClock.now - cpu)
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// Hands step indices to workers in order and their results to the delivering thread in
/// order; workers wait while the steps claimed and not yet delivered hold `maxAhead` cases
/// (one step is always let through, however large).
final class StepPipeline: @unchecked Sendable {
  private let condition = NSCondition()
  private let caseCounts: [Int]
  private let maxAhead: Int
  private var nextClaim = 0
  private var delivered = 0
  /// Cases in steps claimed and not yet delivered.
  private var casesAhead = 0
  private var results: [Int: Runner.StepOutcome] = [:]
  private var cancelled = false

  init(caseCounts: [Int], maxAhead: Int) {
    self.caseCounts = caseCounts
    self.maxAhead = max(1, maxAhead)
  }

  private var count: Int { caseCounts.count }

  /// The next step to evaluate, or `nil` when every step has been claimed.
  func claim() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled && nextClaim < count && nextClaim > delivered
      && casesAhead + caseCounts[nextClaim] > maxAhead
    {
      condition.wait()
    }
    guard !cancelled, nextClaim < count else { return nil }
    casesAhead += caseCounts[nextClaim]
    nextClaim += 1
    return nextClaim - 1
  }

  func complete(_ index: Int, _ outcome: Runner.StepOutcome) {
    condition.lock()
    results[index] = outcome
    condition.broadcast()
    condition.unlock()
  }

  /// Waits for step `index` (the next one to deliver) and removes its results; `nil` once
  /// the run is cancelled.
  func take(_ index: Int) -> Runner.StepOutcome? {
    condition.lock()
    defer { condition.unlock() }
    while results[index] == nil && !cancelled { condition.wait() }
    guard !cancelled else { return nil }
    delivered = index + 1
    casesAhead -= caseCounts[index]
    condition.broadcast()
    return results.removeValue(forKey: index)
  }

  /// Stops handing out steps and wakes everyone waiting.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
