import Foundation

/// The one place a case goes from inputs to a reviewed record, for a run's threads, a
/// worker process and `explain` alike: its check evaluated in the subject's context
/// against libicu; a failure triaged (Foundation's ICU, then the published reference); then
/// reviewed (waivers, baseline). Each thread or worker process holds its own: a context
/// keeps calendars, and an executor, for one thread.
package struct CaseEvaluator {
  /// The subject against libicu.
  package let context: EvaluationContext
  /// The same subject against Foundation's ICU, which triages a failure; `nil`: no triage.
  package let triage: EvaluationContext?
  /// Waivers and baseline applied to every case; `nil`: nothing is expected.
  package let review: Review?
  /// Each zone's class, which a step's record carries (`corpus.zoneClasses`, computed once
  /// by whoever makes evaluators for several threads).
  let zoneClasses: [String: String]
  /// Keep every case in its step's record (`--record all`), with both sides' values.
  let recordAll: Bool
  /// Say where each step's thread CPU went (`StepRecord.cpuParts`).
  package let measuresParts: Bool

  /// An evaluator of `subject` in `corpus`: with triage when `triage` and the corpus has
  /// Foundation's ICU (or the subject is an executor, which answers triage's questions
  /// too), and its own executor process when the subject is one.
  package init(corpus: Corpus, subject: Subject, triage: Bool = true, review: Review?,
               recordAll: Bool = false, zoneClasses: [String: String]? = nil,
               measuresParts: Bool = CPUParts.measured) {
    let (context, second) = EvaluationContext.worker(corpus: corpus, subject: subject, triage: triage,
                                                     recordsValues: recordAll, timesSubject: measuresParts)
    self.init(context: context, triage: second, review: review, recordAll: recordAll,
              zoneClasses: zoneClasses ?? corpus.zoneClasses, measuresParts: measuresParts)
  }

  /// An evaluator of contexts made elsewhere (explain's placeholders; a test's own).
  package init(context: EvaluationContext, triage: EvaluationContext?, review: Review?,
               recordAll: Bool = false, zoneClasses: [String: String] = [:], measuresParts: Bool = false) {
    (self.context, self.triage, self.review) = (context, triage, review)
    (self.recordAll, self.zoneClasses, self.measuresParts) = (recordAll, zoneClasses, measuresParts)
  }

  /// Ends the executor this evaluator started, if any.
  package func close() {
    context.executor?.close()
  }

  /// One case as a run records it: evaluated (in rounds, when an executor answers) and
  /// reviewed.
  package func reviewed(_ id: CaseID, check: any Check) -> CaseRecord {
    var record = context.executor.map { executor in
      Self.inRounds([0], executor) { _ in evaluate(id, step: 0, check: check) }[0]
    } ?? evaluate(id, step: 0, check: check)
    review?.apply(&record)
    return record
  }

  /// Evaluates the cases of a step (all, or only those at `positions`) into its record,
  /// each reviewed.
  func evaluate(_ step: Plan.Step, check: any Check, positions: [Int]? = nil,
                observer: (any CaseObserver)? = nil) -> StepRecord
  {
    let (clock, cpu) = (ContinuousClock.now, ThreadClock.now)
    var parts: CPUParts? = measuresParts ? CPUParts() : nil
    let ids = step.cases()
    let evaluated = { (position: Int) -> CaseRecord in
      observer?.willEvaluate(position: position)
      defer { observer?.didEvaluate(position: position) }
      return evaluate(ids[position], step: step.index, check: check, parts: &parts)
    }
    let positions = positions ?? Array(ids.indices)
    var records = context.executor.map { Self.inRounds(positions, $0, evaluated) }
      ?? positions.map(evaluated)
    let reviewing = parts == nil ? 0 : ThreadClock.now
    if let review {
      for index in records.indices { review.apply(&records[index]) }
    }
    let recording = parts == nil ? 0 : ThreadClock.now
    var record = StepRecord(step: step, check: check.id, cases: records, zoneClasses: zoneClasses,
                            keepPassing: recordAll, seconds: 0)
    // The step's times include making its record, the last part.
    let end = ThreadClock.now
    (record.seconds, record.cpuSeconds) = ((ContinuousClock.now - clock).seconds, end - cpu)
    if var parts {
      (parts.review, parts.record) = (recording - reviewing, end - recording)
      record.cpuParts = parts
    }
    return record
  }

  /// Evaluates a case and, when it fails and there is triage, classifies the failure by
  /// evaluating it again with Foundation's ICU as the oracle. Not reviewed.
  package func evaluate(_ id: CaseID, step: Int, check: any Check) -> CaseRecord {
    var parts: CPUParts?
    return evaluate(id, step: step, check: check, parts: &parts)
  }

  /// `evaluate`, adding the thread CPU of its subject's calls, of the rest of its outcome
  /// and of its triage to `parts` when given.
  func evaluate(_ id: CaseID, step: Int, check: any Check, parts: inout CPUParts?) -> CaseRecord {
    let start = parts == nil ? 0 : ThreadClock.now
    let record = outcome(id, step: step, check: check)
    let evaluated = parts == nil ? 0 : ThreadClock.now
    // Taken whether or not this case is measured: the timer holds only this case's calls.
    let subjectInOutcome = context.subjectTimer?.take() ?? 0
    let triaged = triaged(record, check: check)
    let subjectInTriage = context.subjectTimer?.take() ?? 0
    if parts != nil {
      parts!.subject += subjectInOutcome + subjectInTriage
      parts!.oracle += evaluated - start - subjectInOutcome
      parts!.triage += ThreadClock.now - evaluated - subjectInTriage
    }
    return triaged
  }

  /// The case's outcome in the subject's context against libicu.
  private func outcome(_ id: CaseID, step: Int, check: any Check) -> CaseRecord {
    Fault.current?.inject(id)
    context.answers?.startCase()
    context.executor?.startCase()
    var record = CaseRecord(id: id, step: step,
                            outcome: context.outcome(of: id, check: check))
    if let note = context.withoutDiagnosis, record.outcome.verdict == .failed {
      record.outcome.detail.append(note)
    }
    // A check that compares one value per side records it whole already.
    let verdict = record.outcome.verdict
    if context.recordsValues, record.outcome.values == nil, verdict == .passed || verdict == .failed {
      record.outcome.values = CaseValues(oracle: record.outcome.expected,
                                         subject: record.outcome.actual)
    }
    return record
  }

  /// The case triaged, when there is triage: a failure classified by Foundation's ICU and
  /// the published reference, a pass the reference contradicts evaluated again.
  private func triaged(_ record: CaseRecord, check: any Check) -> CaseRecord {
    var record = record
    let (id, verdict) = (record.id, record.outcome.verdict)
    // A case still waiting for the executor's answers is evaluated again once they come
    // (`inRounds`); its stand-in outcome is thrown away, so it is not triaged (most stand-ins
    // fail, and every case's first round waits: triaging them was most of an executor run's
    // extra cost).
    guard let triage, !context.awaitsSubject else { return record }
    if verdict == .passed {
      return sharedDefect(record, check: check, triage: triage)
    }
    guard verdict == .failed else { return record }
    context.answers?.startReplay()
    context.executor?.startTriage()
    let second = triage.outcome(of: id, check: check)
    record.review.triageExpected = Self.subjectICUExpectation(record.outcome, second)
    if let reference = context.corpus.reference,
      let decision = reference.decide(id, check: check, outcome: record.outcome, second: second,
                                      subjectICU: record.review.triageExpected, context: context)
    {
      record.review.triage = decision.triage
      record.outcome.detail += decision.detail
      record.outcome.values?.reference = decision.reference
    } else {
      record.review.triage = Triage.classify(record.outcome, against: second)
    }
    if second.verdict == .errored, let reason = second.detail.first {
      record.outcome.detail.append("triage: Foundation's ICU could not compute: \(reason)")
    }
    return record
  }

  /// What Foundation's ICU expects of a case from its evaluation through that ICU: a pass
  /// means exactly the subject's answer (a check that records a pass by its count of agreeing
  /// comparisons would show just "30"); `nil` when it could not compute.
  static func subjectICUExpectation(_ outcome: Outcome, _ second: Outcome) -> Value? {
    switch second.verdict {
    case .passed: outcome.actual
    case .errored, .notRun: nil
    case .failed, .skipped: second.expected
    }
  }

  /// A passing case the published reference contradicts: where the subject and libicu agree
  /// but the reference at libicu's release says otherwise, the case is evaluated through
  /// Foundation's ICU too; when both ICUs agree with each other and differ from the
  /// reference at each one's release, the subject shares their defect and the case fails
  /// as `shared-defect` (a class no two-ICU comparison can see). Otherwise it passes as it
  /// did.
  private func sharedDefect(_ record: CaseRecord, check: any Check, triage: EvaluationContext) -> CaseRecord {
    guard let referenced = check as? any ReferenceChecked, let reference = context.corpus.reference,
      referenced.referenceJudgesPasses(record.id, in: reference),
      let oracleRelease = referenced.reference(record.id, in: reference, side: .oracle,
                                               context: context).answer.value,
      oracleRelease != record.outcome.expected
    else { return record }
    context.answers?.startReplay()
    context.executor?.startTriage()
    let second = triage.outcome(of: record.id, check: check)
    guard second.verdict == .passed || second.verdict == .failed,
      let subjectICU = Self.subjectICUExpectation(record.outcome, second)
    else { return record }
    let (found, detail, decided) = reference.triage(record.id, check: referenced, outcome: record.outcome,
                                                    subjectICU: subjectICU, context: context)
    guard found == .sharedDefect else { return record }
    var failed = record
    failed.outcome.verdict = .failed
    failed.outcome.pattern = "the subject and both ICUs differ from the published reference"
    failed.outcome.detail += detail + ["the subject, libicu and Foundation's ICU all answer "
      + "\(record.outcome.expected); the published reference above says otherwise at each one's release"]
    failed.review.triage = .sharedDefect
    failed.review.triageExpected = subjectICU
    failed.outcome.values?.reference = decided
    return failed
  }
}

extension CaseEvaluator {
  /// Rounds after which a case still waiting for the executor is errored: no check asks
  /// questions that depend on each other more than a few deep.
  static let maxRounds = 32

  /// Evaluates cases against an executor (see `ExecutorClient`): every case once, then the
  /// questions they wrote down in one batch, then the cases that were waiting for them,
  /// until none waits. A case that met an unsupported question is skipped with its reason,
  /// one that met a fault is errored with it; triage's questions decide only its triage.
  static func inRounds(_ positions: [Int], _ executor: ExecutorClient,
                       _ evaluate: (Int) -> CaseRecord) -> [CaseRecord]
  {
    executor.startStep()
    var done: [Int: CaseRecord] = [:]
    var open = positions
    for round in 1... {
      var waiting: [Int] = []
      for position in open {
        var record = evaluate(position)
        let notes = executor.notes
        switch notes.case {
        case .waiting where round < maxRounds:
          waiting.append(position)
          continue
        case .waiting:
          record = CaseRecord(id: record.id, step: record.step, outcome: .errored(
            "still waiting for the executor after \(maxRounds) rounds of questions"))
        case .unsupported(let reason):
          record = CaseRecord(id: record.id, step: record.step, outcome: .skipped(reason))
        case .fault(let fault):
          record = CaseRecord(id: record.id, step: record.step, outcome: fault.outcome)
        case .complete:
          switch notes.triage {
          case .waiting where round < maxRounds:
            waiting.append(position)
            continue
          case .unsupported(let reason):
            record.review.triage = .unclassified
            record.review.triageExpected = nil
            record.outcome.detail.append("triage: the executor did not answer its questions: \(reason)")
          case .fault(let fault):
            record.review.triage = .unclassified
            record.review.triageExpected = nil
            record.outcome.detail.append("triage: the executor did not answer its questions: \(fault.signature)")
          case .waiting, .complete: break
          }
        }
        done[position] = record
      }
      guard !waiting.isEmpty else { break }
      executor.flush()
      open = waiting
    }
    return positions.compactMap { done[$0] }
  }
}

