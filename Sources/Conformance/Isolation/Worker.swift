import Foundation
import ICUOracle

/// The worker side of isolation: `conformance __worker <run options>` builds the same plan
/// as its parent and evaluates what the parent sends on stdin, one request per line:
///
///     step N       every case of step N (N: the step's index in the whole plan)
///     case N K     only the K-th case of step N (a retry after a worker died)
///     quit
///
/// and answers on stdout: `R` once ready; per request, `F <json>` for each case that did not
/// pass (`P <json>` for passing ones with `--record all`), then `S <json>` with the counts
/// and sums of what it evaluated.
public enum Worker {
  public static func run(_ options: RunOptions, subject: Subject = .pickerLogic) throws {
    let checks = try ConformanceRun.selectChecks(options.checks)
    let waivers = try options.waivers.map { url throws(InputError) in try WaiverFile.load(url) } ?? []
    let baseline = try options.baseline.map { url throws(InputError) in try Baseline.load(url) }
    let corpus = try Corpus.load(options.request)
    let plan = Plan.make(corpus: corpus, checks: checks, shard: options.shard)
    let steps = Dictionary(plan.steps.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    let versions = try RunVersions.current()
    let review = Review(waivers: waivers, baseline: baseline, versions: versions, today: .today)
    let (context, triage) = EvaluationContext.worker(corpus: corpus, subject: subject)
    var info = RunInfo(arguments: [], options: [], versions: versions, coverage: [],
                       transitionsByKind: [:], checks: [], started: Date(), subject: subject.name)
    info.zoneClasses = Dictionary(corpus.zones.map { ($0.id, $0.zoneClass) },
                                  uniquingKeysWith: { a, _ in a })
    write("R\n")
    while let line = readLine() {
      let words = line.split(separator: " ")
      guard let verb = words.first, verb != "quit" else { return }
      guard words.count >= 2, let index = Int(words[1]), let step = steps[index] else {
        throw HarnessError("worker: request '\(line)' names no step of this plan")
      }
      var only: Int?
      if verb == "case" {
        guard words.count == 3, let position = Int(words[2]) else {
          throw HarnessError("worker: request '\(line)' is malformed")
        }
        only = position
      }
      let check = plan.checks[step.checkIndex]
      let ids = step.cases()
      let clock = ContinuousClock.now
      let outcome: Runner.StepOutcome
      if let only {
        guard ids.indices.contains(only) else {
          throw HarnessError("worker: step \(index) has no case \(only)")
        }
        var result = Runner.evaluate(ids[only], check: check, context: context, triage: triage)
        review.apply(ids[only], &result)
        var caseResult = CaseResult(id: ids[only], outcome: result, step: index)
        caseResult.json = ResultsJSON.caseJSON(caseResult).rendered(indent: nil)
        var counts = StatusCounts()
        counts.add(result.status)
        outcome = Runner.StepOutcome(cases: [caseResult], counts: counts,
                                     duration: (ContinuousClock.now - clock).seconds)
      } else {
        outcome = Runner.evaluate(step, check: check, context: context, triage: triage,
                                  review: review, renderAll: options.record == .all)
      }
      write(response(outcome, step: step, check: check.id, info: info, recordAll: options.record == .all))
    }
  }

  /// The lines answering one request.
  static func response(_ outcome: Runner.StepOutcome, step: Plan.Step, check: String,
                       info: RunInfo, recordAll: Bool) -> String {
    let tally = RunTally(keepProblems: false)
    tally.start(info, elapsed: 0)
    var text = ""
    for result in outcome.cases {
      tally.record(Event(.caseEnded(result)))
      if result.outcome.status != .passed && result.outcome.status != .skipped {
        text += "F " + result.jsonLine + "\n"
      } else if recordAll {
        text += "P " + result.jsonLine + "\n"
      }
    }
    tally.record(Event(.stepEnded(StepResult(index: step.index, check: check, name: step.name,
                                             counts: outcome.counts, duration: outcome.duration,
                                             cpu: outcome.cpu))))
    let summary = JSONValue.object([
      ("step", .int(step.index)),
      ("counts", .array([outcome.counts.passed, outcome.counts.failed, outcome.counts.errored,
                         outcome.counts.skipped, outcome.counts.waived,
                         outcome.counts.unexpectedPass].map(JSONValue.int))),
      ("duration", .double(outcome.duration)),
      ("skipReason", tally.steps.last?.skipReason.map(JSONValue.string) ?? .null),
      ("matrices", ResultsJSON.matrices(tally.matrices)),
      ("baseline", .object(tally.baselineCounts.map { ($0.key.rawValue, .int($0.value)) })),
      ("skips", ResultsJSON.counts(tally.skipReasons)),
    ])
    return text + "S " + summary.rendered(indent: nil) + "\n"
  }

  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
