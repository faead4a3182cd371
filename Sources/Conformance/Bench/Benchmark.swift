import Foundation
import Synchronization
import ICUOracle

/// `conformance bench`: the performance figures of issue 5, measured in one process and one
/// sitting on this machine, written to `Reports/bench.json`.
///
/// 1. The core corpus, as `swift run conformance` runs it (reports included).
/// 2. The full sweep (`--locales all --calendars all --first-weekdays all --time-zones all`),
///    the same way; `--quick` uses the core corpus instead.
/// 3. The subject's own time for the cases of (2): each case is evaluated with a recording
///    subject that times every call in thread CPU where the check makes it. The harness's
///    overhead is (2)'s CPU over this. The calls are also replayed alone with the same
///    arguments; that figure runs on caches the case has just warmed (a `DateFormatter`'s
///    locale data, a calendar's first symbols), so it reads low and is reported beside it.
/// 4. The direct oracle against the tables on a fixed sample of the core corpus.
/// 5. Fault storms: the core corpus as `conformance` runs it (worker processes), clean, then
///    with every `leading-blanks` case trapping and every `same-day-closing` case hanging.
package enum Benchmark {
  /// One run of this executable on the core corpus in worker processes, maybe with a fault.
  package struct StormRun: Sendable {
    package var name: String
    package var fault: String?
    package var wall: Double
    package var status: Int32
    package var errored: Int
    /// Cases the breaker reported "not run".
    package var notRun: Int
    /// Whether an executor answered for the subject (`--subject exec:`): held to 1.5 × the
    /// clean run of its selection (2 × on the small one), and expected to exit as it did.
    package var executor = false
    /// The selection: the core corpus, or `small` (3 zones, 3 calendars, 4 locales, 11
    /// years, where starting the executors weighs most).
    package var selection = "core"
    /// Records the run read with `JSONDecoder` because a fast reader declined them
    /// (`SlowReads`, as `results.json` has them), and for an executor's run the questions its
    /// reference executors left to it (`executorQuestion`, from `--slow-reads`).
    package var slowReads: [String: Int] = [:]
  }

  /// Issue 31's small selection for the executor's row.
  static let smallSelection = ["--time-zones", "UTC,America/Sao_Paulo,Asia/Tehran", "--calendars",
                               "gregorian,hebrew,chinese", "--locales", "en_US,de_DE,ar_EG,zh_CN",
                               "--years", "2015...2025"]

  /// One measured run.
  package struct Phase: Sendable {
    package var name: String
    package var cases: Int
    package var wall: Double
    package var cpu: Double
    package var timing: ConformanceRun.Timing
    package var residentMB: Double
    /// The process's peak RSS when this phase ended (phases run in order, so it covers
    /// this one and those before it).
    package var peakMB: Double
    /// The size of everything it wrote (results, cases, steps, JUnit, page): what a nightly
    /// archives.
    package var archiveMB: Double
    /// Reading those results back as the next night's baseline, for the same selection:
    /// seconds and megabytes of peak memory it adds to a `--dry-run` (each in a process of
    /// its own), and that process's peak.
    package var baselineSeconds = 0.0
    package var baselineMB = 0.0
    package var baselinePeakMB = 0.0
    /// Records its run (and workers) and then its baseline read left to `JSONDecoder`
    /// because a fast reader declined them (`SlowReads`), by reader.
    package var slowReads: [String: Int] = [:]
    package var baselineSlowReads: [String: Int] = [:]
    package var casesPerSecond: Double { wall > 0 ? Double(cases) / wall : 0 }
  }

  package struct Report: Sendable {
    package var date: String
    package var machine: String
    package var jobs: Int
    package var quick: Bool
    package var core: Phase
    package var full: Phase?
    /// The subject's CPU time in the full sweep's cases (or the core's with `--quick`).
    package var subjectCPU: Double
    /// The same calls replayed alone right after each case (warm caches).
    package var replayCPU: Double
    /// Thread CPU spent evaluating the same cases (subject, oracle and check logic).
    package var evaluateCPU: Double
    /// The subject-only loop per check: where the irreducible time goes.
    package var perCheck: [SubjectLoop.PerCheck]
    package var sample: (cases: Int, tablesWall: Double, directWall: Double, tablesCPU: Double,
                        directCPU: Double)
    /// The oracle and check logic alone on the sample (evaluation CPU minus the subject's), with
    /// tables and direct: what the tables save where they act.
    package var sampleOracle: (tables: Double, direct: Double)
    package var directOracleOverTables: Double { sampleOracle.direct / max(sampleOracle.tables, 1e-9) }
    package var peakMB: Double
    /// The clean run first, then the storms.
    package var storms: [StormRun] = []
    /// The published reference's cost: the measured selection swept with triage, with
    /// `Corpora/reference` and without it (CPU seconds, the fastest of the pairs run).
    package var reference: (with: Double, without: Double, pairs: Int)?
    /// What closing issue 30's holes costs: the same sweep with the month grid, the month
    /// cycles and the week-year edges, and as it was without them (CPU seconds, fastest of the
    /// pairs; each pair in this one run).
    package var holes: (with: Double, without: Double)?
    /// How much those checks add to the sweep's CPU (target ≤ 0.15).
    package var holesGrowth: Double? { holes.map { ($0.with - $0.without) / max($0.without, 1e-9) } }
    /// The reference's share of the sweep's CPU (target ≤ 0.10).
    package var referenceShare: Double? {
      reference.map { ($0.with - $0.without) / max($0.with, 1e-9) }
    }

    var measured: Phase { full ?? core }
    /// Harness CPU over subject-only CPU (target ≤ 1.3).
    package var overhead: Double { measured.timing.sweepCPU / max(subjectCPU, 1e-9) }
    /// Sweep wall time over its CPU time (target ≤ 0.6 with two workers).
    package var parallelism: Double { measured.timing.sweep / max(measured.timing.sweepCPU, 1e-9) }
    /// Direct oracle wall time over the tables' on the same sample (target ≥ 10).
    package var directOverTables: Double { sample.directWall / max(sample.tablesWall, 1e-9) }

    /// The split of the measured sweep's CPU time (and the report writing). The subject and
    /// the oracle come from the subject-only loop, which evaluates each case once, as a check
    /// does (the oracle: evaluation minus the subject's calls); what the sweep's threads add
    /// to that (triage of failures, waivers and baseline, rendering failures as JSON) is
    /// their evaluation CPU minus the loop's, a difference between two runs that carries
    /// their noise (on a shared machine it can read below zero); the engine is the sweep's
    /// CPU minus its threads' evaluation and delivery. The parts add up to the sweep's CPU
    /// plus writing.
    package var split: [(String, Double)] {
      let timing = measured.timing
      return [("subject", subjectCPU), ("oracle and check logic", evaluateCPU - subjectCPU),
              ("the threads beyond the loop (triage, review, JSON; ± the runs' noise)",
               timing.evaluationCPU - evaluateCPU),
              ("engine", timing.sweepCPU - timing.deliveryCPU - timing.evaluationCPU),
              ("reporting", timing.deliveryCPU + timing.write)]
    }
  }

  /// Runs the benchmark; `log` receives a line per finished phase.
  package static func run(corporaDirectory: URL, quick: Bool, jobs: Int,
                         log: (String) -> Void) throws -> Report {
    let scratch = try makeScratch("conformance-bench")
    defer { removeScratch(scratch) }
    let waivers = corporaDirectory.appendingPathComponent(Corpus.Files.waivers)

    func options(_ request: CorpusRequest, _ name: String) -> RunOptions {
      var options = RunOptions(request: request, out: scratch.appendingPathComponent(name))
      options.jobs = jobs
      options.waivers = FileManager.default.fileExists(atPath: waivers.path) ? waivers : nil
      return options
    }
    func measure(_ name: String, _ run: RunOptions, selection: [String]) throws -> Phase {
      _ = SlowReads.take()
      let (clock, cpu) = (ContinuousClock.now, ThreadClock.process)
      let result = try ConformanceRun.run(run)
      let memory = ResidentMemory.read()
      let files = (try? FileManager.default.contentsOfDirectory(atPath: run.out.path)) ?? []
      let bytes = files.reduce(0) { total, file in
        total + ((try? FileManager.default.attributesOfItem(
          atPath: run.out.appendingPathComponent(file).path)[.size] as? Int) ?? 0)
      }
      var phase = Phase(name: name, cases: result.cases, wall: (ContinuousClock.now - clock).seconds,
                        cpu: ThreadClock.process - cpu, timing: result.timing,
                        residentMB: memory.current, peakMB: memory.peak,
                        archiveMB: Double(bytes) / 1e6)
      // Three of each, alternating, and the fastest of each: on a shared machine one pair's
      // difference drifted between 0.3 and 2.4 s within minutes.
      var plain = (seconds: Double.infinity, peakMB: 0.0)
      var reading = plain
      for _ in 0..<3 {
        let without = try dryRun(selection + ["--corpora", corporaDirectory.path])
        let with = try dryRun(selection + ["--corpora", corporaDirectory.path,
                                           "--baseline", run.out.path])
        plain = (min(plain.seconds, without.seconds), max(plain.peakMB, without.peakMB))
        reading = (min(reading.seconds, with.seconds), max(reading.peakMB, with.peakMB))
      }
      (phase.baselineSeconds, phase.baselineMB, phase.baselinePeakMB) =
        (reading.seconds - plain.seconds, reading.peakMB - plain.peakMB, reading.peakMB)
      // The fast readers' declines: the run's (its results say them), then a baseline read
      // of its files here (the dry runs above are processes of their own).
      phase.slowReads = try ResultsDirectory(run.out, role: "bench", as: RunRecord.self).record.run.slowReads ?? [:]
      _ = SlowReads.take()
      _ = try Baseline.load(run.out)
      phase.baselineSlowReads = SlowReads.take() ?? [:]
      log("\(name): records left to JSONDecoder by the fast readers: run \(Self.described(phase.slowReads)), "
            + "baseline \(Self.described(phase.baselineSlowReads))")
      log(String(format: "%@: %d cases in %.1f s wall, %.1f s CPU (%.0f cases/s), RSS %.0f MB, "
                   + "archive %.1f MB; read back as a baseline +%.1f s, +%.0f MB",
                 name, phase.cases, phase.wall, phase.cpu, phase.casesPerSecond, phase.residentMB,
                 phase.archiveMB, phase.baselineSeconds, phase.baselineMB))
      return phase
    }

    let core = CorpusRequest(corporaDirectory: corporaDirectory)
    var all = core
    all.locales = .all
    all.calendars = .all
    all.zones = .all
    let corePhase = try measure("core corpus", options(core, "core"), selection: [])
    let fullPhase = quick ? nil : try measure(
      "full sweep", options(all, "full"),
      selection: ["--locales", "all", "--calendars", "all", "--time-zones", "all"])

    let loop = try subjectOnly(quick ? core : all, jobs: jobs)
    log(String(format: "subject alone: %.1f s CPU where the checks call it, %.1f s replayed "
                 + "(evaluating the same cases: %.1f s CPU)", loop.subject, loop.replayed, loop.evaluate))

    var sample = core
    sample.calendars = .list(["gregorian", "hebrew", "chinese", "islamic-umalqura"])
    sample.locales = .list(["en_US", "fa_IR", "ar_EG", "zh_CN"])
    let tables = try sweepOnly(sample, jobs: jobs)
    sample.oracleMode = .direct
    let direct = try sweepOnly(sample, jobs: jobs)
    let directOracle = try subjectOnly(sample, jobs: jobs)
    sample.oracleMode = .tables
    let tablesOracle = try subjectOnly(sample, jobs: jobs)
    let oracle = (tables: tablesOracle.evaluate - tablesOracle.subject,
                  direct: directOracle.evaluate - directOracle.subject)
    log(String(format: "fixed sample of %d cases: tables %.2f s, direct %.2f s (%.1f×); oracle and "
                 + "check logic alone %.2f s vs %.2f s CPU (%.1f×)",
               tables.cases, tables.wall, direct.wall, direct.wall / max(tables.wall, 1e-9),
               oracle.tables, oracle.direct, oracle.direct / max(oracle.tables, 1e-9)))

    // The reference's cost and the holes': the sweep as a user runs it, with the part and
    // without, alternating; three pairs on the core corpus, one on the full sweep.
    let pairs = quick ? 3 : 1
    let reference = try pair(.reference, corporaDirectory: corporaDirectory, quick: quick, jobs: jobs,
                             pairs: pairs) { _ in }
    let (withReference, withoutReference) = (reference.with.cpu, reference.without.cpu)
    let holes = try pair(.holes, corporaDirectory: corporaDirectory, quick: quick, jobs: jobs, pairs: pairs) { _ in }
    log(String(format: "month grid, month cycles and week-year edges (the sweep as run, in workers): "
                 + "%.1f s CPU with, %.1f s without (%+.1f %%)", holes.with.cpu, holes.without.cpu,
               holes.cost * 100))
    log(String(format: "reference: %@ as a user runs it, %.1f s CPU with Corpora/reference, %.1f s "
                 + "without (%.1f %%)", quick ? "core corpus" : "full sweep", withReference,
               withoutReference, reference.cost * 100))

    let peak = ResidentMemory.read().peak
    var storms: [StormRun] = []
    for (name, fault) in [("clean", nil), ("trap storm", "trap:*leading-blanks*"),
                          ("hang storm", "hang:*same-day-closing*")] as [(String, String?)] {
      let run = try storm(name, fault: fault, corporaDirectory: corporaDirectory, jobs: jobs,
                          out: scratch.appendingPathComponent("storm-\(storms.count)"))
      storms.append(run)
      log(String(format: "%@ (%@): %.1f s, exit %d, %d errored (%d not run)", name,
                 fault ?? "no fault", run.wall, run.status, run.errored, run.notRun))
    }
    // The same core run with the subject answered through the executor protocol by this
    // executable's reference executor (PickerLogic): what the protocol itself costs.
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    // Each of the run's executors appends how many questions it left to JSONDecoder.
    func executorCommand(_ name: String) -> (String, URL) {
      let file = scratch.appendingPathComponent("\(name)-slow-reads.txt")
      return ("exec:'\(me)' executor --slow-reads '\(file.path)'", file)
    }
    let (command, slowReads) = executorCommand("executor")
    var executor = try storm("executor", fault: nil, corporaDirectory: corporaDirectory, jobs: jobs,
                             out: scratch.appendingPathComponent("executor"),
                             extra: ["--subject", command, "--waivers",
                                     corporaDirectory.appendingPathComponent(Corpus.Files.waivers).path],
                             executorSlowReads: slowReads)
    executor.executor = true
    storms.append(executor)
    log(String(format: "executor (exec:conformance executor): %.1f s, exit %d, %d errored", executor.wall,
               executor.status, executor.errored))
    let waiverArguments = ["--waivers", corporaDirectory.appendingPathComponent(Corpus.Files.waivers).path]
    var smallClean = try storm("small", fault: nil, corporaDirectory: corporaDirectory, jobs: jobs,
                               out: scratch.appendingPathComponent("small"), extra: smallSelection + waiverArguments)
    smallClean.selection = "small"
    let (smallCommand, smallSlowReads) = executorCommand("small-executor")
    var smallExecutor = try storm("small executor", fault: nil, corporaDirectory: corporaDirectory, jobs: jobs,
                                  out: scratch.appendingPathComponent("small-executor"),
                                  extra: smallSelection + waiverArguments + ["--subject", smallCommand],
                                  executorSlowReads: smallSlowReads)
    (smallExecutor.selection, smallExecutor.executor) = ("small", true)
    storms += [smallClean, smallExecutor]
    log(String(format: "small selection: %.1f s in-process, %.1f s through the executor", smallClean.wall,
               smallExecutor.wall))

    return Report(
      date: ISO8601DateFormatter().string(from: Date()), machine: machineDescription(),
      jobs: jobs, quick: quick, core: corePhase, full: fullPhase, subjectCPU: loop.subject,
      replayCPU: loop.replayed,
      evaluateCPU: loop.evaluate, perCheck: loop.perCheck,
      sample: (tables.cases, tables.wall, direct.wall, tables.cpu, direct.cpu),
      sampleOracle: oracle,
      peakMB: peak, storms: storms, reference: (withReference, withoutReference, pairs),
      holes: (holes.with.cpu, holes.without.cpu))
  }

  /// What a part of the sweep costs a night, measured as a user runs it (this executable in
  /// a process of its own, in worker processes, writing its reports), with and without the
  /// part, alternating, `pairs` times; the least CPU (the run and its workers) and wall of
  /// each. Not in-process on two threads: there, Foundation's `DateFormatter` can crash
  /// inside ICU 76 when two threads make formatters at once (seen on the full sweep), which a
  /// worker's one thread never does.
  package enum PairKind: String, Sendable {
    /// What closing issue 30's holes added (without: `CONFORMANCE_BENCH_PLAN=before-closing-holes`).
    case holes
    /// The published reference's triage (without: the corpora with no `reference` folder).
    case reference
  }

  package struct Pair: Sendable {
    package var kind: PairKind
    package var selection: [String]
    package var pairs: Int
    package var with: (cpu: Double, wall: Double)
    package var without: (cpu: Double, wall: Double)
    /// The part's cost: holes as growth over the sweep without them, the reference as its
    /// share of the sweep with it (how each issue states its target).
    package var cost: Double {
      switch kind {
      case .holes: (with.cpu - without.cpu) / max(without.cpu, 1e-9)
      case .reference: (with.cpu - without.cpu) / max(with.cpu, 1e-9)
      }
    }
  }

  package static func pair(_ kind: PairKind, corporaDirectory: URL, quick: Bool, jobs: Int, pairs: Int,
                          log: (String) -> Void) throws -> Pair
  {
    let scratch = try makeScratch("conformance-bench-\(kind.rawValue)")
    defer { removeScratch(scratch) }
    let selection = quick ? [] : ["--locales", "all", "--calendars", "all", "--time-zones", "all"]
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    // The run without the part: another plan, or the same corpora less their reference.
    var withoutCorpora = corporaDirectory
    var withoutEnvironment = ProcessInfo.processInfo.environment
    switch kind {
    case .holes:
      withoutEnvironment[Plan.benchPlanVariable] = "before-closing-holes"
    case .reference:
      withoutCorpora = scratch.appendingPathComponent("corpora-without-reference")
      try FileManager.default.createDirectory(at: withoutCorpora, withIntermediateDirectories: true)
      for name in try FileManager.default.contentsOfDirectory(atPath: corporaDirectory.path) where name != "reference" {
        try FileManager.default.createSymbolicLink(at: withoutCorpora.appendingPathComponent(name),
                                                   withDestinationURL: corporaDirectory.appendingPathComponent(name))
      }
    }
    let runs = [("with", corporaDirectory, ProcessInfo.processInfo.environment),
                ("without", withoutCorpora, withoutEnvironment)]
    var best = [(cpu: Double.infinity, wall: Double.infinity), (cpu: Double.infinity, wall: Double.infinity)]
    for pass in 0..<pairs {
      for (index, (name, corpora, environment)) in runs.enumerated() {
        let out = scratch.appendingPathComponent("run-\(pass)-\(index)")
        let (status, wall, cpu) = try timed(me, selection + ["--corpora", corpora.path,
                                                             "--jobs", String(jobs), "--out", out.path],
                                            environment: environment)
        guard [0, 1].contains(status) else {
          throw HarnessError("bench: the sweep \(name) \(kind.rawValue) exited \(status)")
        }
        try? FileManager.default.removeItem(at: out)
        best[index] = (min(best[index].cpu, cpu), min(best[index].wall, wall))
        log(String(format: "%@ %@, pass %d: %.1f s CPU, %.1f s wall", name, kind.rawValue, pass + 1, cpu, wall))
      }
    }
    return Pair(kind: kind, selection: selection, pairs: pairs, with: best[0], without: best[1])
  }

  /// `conformance --out …` on the core corpus in a process of its own (worker processes, as
  /// a user runs it), with `CONFORMANCE_FAULT=fault`.
  ///
  /// - Parameter executorSlowReads: the file the run's executors append their slow reads
  ///   to (`conformance executor --slow-reads`), summed as `executorQuestion`.
  static func storm(_ name: String, fault: String?, corporaDirectory: URL, jobs: Int, out: URL,
                    extra: [String] = [], executorSlowReads: URL? = nil) throws -> StormRun
  {
    var environment = ProcessInfo.processInfo.environment
    environment["CONFORMANCE_FAULT"] = fault
    let (status, wall, _) = try timed(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                   ["--corpora", corporaDirectory.path, "--jobs", String(jobs), "--out", out.path]
                                     + extra,
                                   environment: environment)
    guard [0, 1].contains(status) else {
      throw HarnessError("bench: the \(name) run exited \(status)")
    }
    let record = try ResultsDirectory(out, role: "bench", as: RunRecord.self).record
    var run = StormRun(name: name, fault: fault, wall: wall, status: status,
                       errored: record.summary.errored,
                       notRun: record.run.isolation?.trips.reduce(0) { $0 + $1.notRun } ?? 0)
    run.slowReads = record.run.slowReads ?? [:]
    if let executorSlowReads {
      // One line per executor that ended; none written means none ended normally.
      let lines = try String(contentsOf: executorSlowReads, encoding: .utf8).split(separator: "\n")
      guard !lines.isEmpty, case let counts = lines.compactMap({ Int($0) }), counts.count == lines.count else {
        throw HarnessError("bench: \(executorSlowReads.path) holds no count of each executor's slow reads")
      }
      run.slowReads["executorQuestion"] = counts.reduce(0, +)
    }
    return run
  }

  /// The subject-only loop's figures: totals and, per check, where the subject's time goes.
  package struct SubjectLoop: Sendable {
    package struct PerCheck: Sendable {
      package var check: String
      package var cases = 0
      /// The subject's calls, timed where the checks made them (caches as cold as in a run).
      package var subject = 0.0
      /// The same calls replayed alone right after each case (warm caches).
      package var replayed = 0.0
      /// The whole evaluation of the same cases: subject, oracle and check logic.
      package var evaluate = 0.0

      mutating func add(_ other: PerCheck) {
        cases += other.cases
        subject += other.subject
        replayed += other.replayed
        evaluate += other.evaluate
      }
    }
    package var perCheck: [PerCheck]
    package var subject: Double { perCheck.reduce(0) { $0 + $1.subject } }
    package var replayed: Double { perCheck.reduce(0) { $0 + $1.replayed } }
    package var evaluate: Double { perCheck.reduce(0) { $0 + $1.evaluate } }
  }

  /// Evaluates every case of a selection with recording subjects and replays their calls.
  static func subjectOnly(_ request: CorpusRequest, jobs: Int) throws -> SubjectLoop {
    let corpus = try Corpus.load(request)
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let checks = plan.checks
    let steps = plan.steps
    let next = Atomic<Int>(0)
    let parts = Mutex<[(Int, SubjectLoop.PerCheck)]>([])
    // One recorder and context per thread, made on it: each is used by one thread only.
    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
      let recorder = SubjectRecorder()
      let context = EvaluationContext(corpus: corpus, subject: recorder.recording(.pickerLogic))
      var mine: [(Int, SubjectLoop.PerCheck)] = []
      while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < steps.count {
        let step = steps[index]
        var part = SubjectLoop.PerCheck(check: checks[step.checkIndex].id)
        for id in step.cases() {
          let start = ThreadClock.now
          _ = context.outcome(of: id, check: checks[step.checkIndex])
          part.evaluate += ThreadClock.now - start
          part.subject += recorder.takeSubjectTime()
          part.replayed += recorder.replay()
          part.cases += 1
        }
        mine.append((step.checkIndex, part))
      }
      parts.withLock { $0.append(contentsOf: mine) }
    }
    var perCheck = checks.map { SubjectLoop.PerCheck(check: $0.id) }
    for (index, part) in parts.withLock({ $0 }) { perCheck[index].add(part) }
    return SubjectLoop(perCheck: perCheck)
  }

  /// Runs a selection's plan without reports: wall and CPU of the sweep alone.
  ///
  /// - Parameters:
  ///   - triage: classify failures (through Foundation's ICU and the reference).
  static func sweepOnly(_ request: CorpusRequest, jobs: Int, triage: Bool = false) throws
    -> (cases: Int, wall: Double, cpu: Double)
  {
    let corpus = try Corpus.load(request)
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    var runner = Runner(plan: plan, corpus: corpus, subject: .pickerLogic, workers: jobs)
    runner.triage = triage
    let (clock, cpu) = (ContinuousClock.now, ThreadClock.process)
    let cases = Mutex(0)
    runner.run { event in
      if case .stepEnded(let step) = event.kind { cases.withLock { $0 += step.counts.total } }
    }
    return (cases.withLock { $0 }, (ContinuousClock.now - clock).seconds, ThreadClock.process - cpu)
  }

  /// `conformance --dry-run` with `arguments` in a process of its own, under GNU time
  /// (`/usr/bin/time`, Debian's `time`): its wall time and peak RSS. (A child's peak read
  /// through `getrusage` includes the bench's own memory at fork or vfork.)
  static func dryRun(_ arguments: [String]) throws -> (seconds: Double, peakMB: Double) {
    let (status, seconds, fields) = try underTime("%M", ["--dry-run"] + arguments)
    guard status == 0, let kilobytes = fields.first else {
      throw HarnessError("bench: conformance --dry-run \(arguments.joined(separator: " ")) exited \(status)")
    }
    return (seconds, kilobytes / 1024)
  }

  /// This executable with `arguments` under GNU time (`/usr/bin/time`, Debian's `time`),
  /// which reports `format`'s fields: the exit status, the wall seconds and those numbers.
  static func underTime(_ format: String, _ arguments: [String]) throws
    -> (status: Int32, seconds: Double, fields: [Double])
  {
    let timeTool = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: timeTool) else {
      throw HarnessError("bench needs \(timeTool) to measure processes (apt-get install time)")
    }
    let report = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-bench-time-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: report) }
    let (status, seconds, _) = try timed(
      URL(fileURLWithPath: timeTool),
      ["-f", format, "-o", report.path, URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path]
        + arguments)
    // GNU time writes "Command exited with non-zero status N" first when it did.
    let line = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: "\n").last ?? ""
    return (status, seconds, line.split(separator: " ").compactMap { Double($0) })
  }

  /// Runs `executable` with its output discarded: its exit status, wall seconds, and the CPU
  /// seconds it and the children it waited for (a run's workers) spent.
  static func timed(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil)
    throws -> (status: Int32, seconds: Double, cpu: Double)
  {
    let before = childrenCPU()
    let clock = ContinuousClock.now
    let process = try ChildProcess(executable, arguments: arguments, environment: environment,
                                   input: false, output: .discarded, errors: false)
    // The child leads a process group of its own, so a Ctrl-C reaches the bench alone: it is
    // passed on to the group (GNU time and the run under it, which stops its workers and
    // removes its staging), else the run went on for minutes unwatched.
    let child = process.pid
    let token = Interruption.register {
      let number = Interruption.received
      if kill(-child, number) != 0 { kill(child, number) }
    }
    let end = process.waitUntilExit()
    Interruption.unregister(token)
    try Interruption.check()
    let status: Int32 = switch end {
    case .exited(let status): status
    case .signal(let signal): signal
    }
    return (status, (ContinuousClock.now - clock).seconds, childrenCPU() - before)
  }

  /// User and system CPU of the children this process has waited for, and theirs.
  static func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// A directory the bench writes runs into, which an interruption's forced exit (it runs no
  /// `defer`) removes too; `removeScratch` it when done.
  static func makeScratch(_ name: String) throws -> URL {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    Interruption.registerCleanup(scratch.path) { try? FileManager.default.removeItem(at: scratch) }
    return scratch
  }

  static func removeScratch(_ scratch: URL) {
    Interruption.unregisterCleanup(scratch.path)
    try? FileManager.default.removeItem(at: scratch)
  }

  /// Counts by reader as `caseLine 3, stepRecord 1`, or `none`.
  static func described(_ counts: [String: Int]) -> String {
    counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  }

  package static func machineDescription() -> String {
    let cpus = ProcessInfoCores.count
    let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
    let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
      ?? "unknown CPU"
    return "\(cpus) cores (\(model)), \(memory) GiB"
  }
}


extension Plan {
  /// `CONFORMANCE_BENCH_PLAN=before-closing-holes`: a run sweeps `beforeClosingHoles`, for
  /// `bench --holes` alone.
  static let benchPlanVariable = "CONFORMANCE_BENCH_PLAN"

  /// The plan as the sweep was before issue 30 closed its holes, for the benchmark's
  /// comparison: without `month-grid`, without the `-cycle` variants, and `field-roundtrip`
  /// over the transition months only (its added days in those months stay: a few per
  /// January in the month-sweep zones).
  func beforeClosingHoles(corpus: Corpus) -> Plan {
    var selection = MonthSelection(corpus: corpus)
    var copy = self
    copy.steps = steps.compactMap { step in
      let check = checks[step.checkIndex]
      guard check.id != MonthGridCheck().id else { return nil }
      var step = step
      step.variants = step.variants.filter { !$0.hasSuffix(DateTextCheck.cycleSuffix) }
      if check.id == FieldRoundtripCheck().id, let zone = step.group.zone {
        let before = Set(selection.months(calendar: step.group.calendar ?? "gregorian", zone: zone,
                                          coverage: .transitionMonths))
        step.months = step.months.filter(before.contains)
        if step.months.isEmpty { return nil }
      }
      return step
    }
    return copy
  }
}
