import Foundation

extension Benchmark {
  /// `bench --breakdown`: where a sweep's CPU goes, by check and by side, in one run made as
  /// a user makes it (worker processes of this executable, reports written), its workers
  /// measuring each step's parts (`CPUParts`), the subject's calls timed where the checks
  /// make them.
  package struct Breakdown: Sendable {
    /// One check's share.
    package struct Check: Sendable {
      package var check: String
      package var cases = 0
      /// The thread CPU of its steps, in the workers.
      package var steps = 0.0
      package var parts = CPUParts()
    }

    package var date: String
    package var machine: String
    package var selection: String
    package var jobs: Int
    package var wall: Double
    package var checks: [Check]
    /// The workers' CPU (this process's reaped children) and this process's during the run.
    package var workersCPU: Double
    package var parentCPU: Double
    /// Of the parent's: the delivering thread (replies read, tallied, cases file written).
    package var deliveryCPU: Double
    /// Steps a worker evaluated whose record came back without parts, and their CPU: shown
    /// as a side of their own, so the sides still add up (none expected).
    package var unparted = (steps: 0, cpu: 0.0)

    /// The cores of this machine, which a runner of the nightly's matrix has too.
    package var cores = ProcessInfoCores.count

    package var stepsCPU: Double { checks.reduce(0) { $0 + $1.steps } }

    /// The nightly's matrix (`Scripts/timing.sh night`, Benchmarks.md).
    package static let runners = 8
    /// What the night on `runners` runners of `cores` cores cannot go below, before its merge:
    /// the subject's calls alone, and the whole sweep, each spread perfectly over every core.
    package var floor: (subject: Double, sweep: Double) {
      let lanes = Double(Self.runners * max(cores, 1))
      return (checks.reduce(0) { $0 + $1.parts.subject } / lanes, totalCPU / lanes)
    }
    /// What the workers spend outside their steps: start, corpus, requests, replies and case
    /// lines (the transport), the watchdog.
    package var workersBeyondSteps: Double { workersCPU - stepsCPU }
    package var totalCPU: Double { workersCPU + parentCPU }

    /// The whole run's CPU by side, each with its share.
    package var sides: [(String, Double)] {
      let sum = { (part: (Check) -> Double) in checks.reduce(0) { $0 + part($1) } }
      return [
        ("subject (its calls)", sum(\.parts.subject)),
        ("oracle and check logic (libicu)", sum(\.parts.oracle)),
        ("triage (Foundation's ICU and the reference)", sum(\.parts.triage)),
        ("review (waivers, baseline)", sum(\.parts.review)),
        ("step records", sum(\.parts.record)),
      ] + (unparted.steps == 0 ? [] : [("\(unparted.steps) steps without their parts", unparted.cpu)]) + [
        ("workers beyond their steps (start, transport, case lines)", workersBeyondSteps),
        ("parent: delivery and records (replies, tally, cases file)", deliveryCPU),
        ("parent: the rest (planning, reports, compression)", parentCPU - deliveryCPU),
      ]
    }

    package var lines: [String] {
      func padded(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
      }
      func number(_ value: Double, _ width: Int = 8) -> String {
        let text = String(format: "%.1f", value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
      }
      var lines = [String(format: "bench --breakdown %@ on %@: %@, %d workers, %.1f s wall, %.1f CPU-s "
                            + "(workers %.1f, parent %.1f)", date, machine, selection, jobs, wall, totalCPU,
                          workersCPU, parentCPU)]
      lines.append("by side (CPU-s, share of the run's):")
      for (side, seconds) in sides {
        lines.append("  " + padded(side, 60) + number(seconds) + number(100 * seconds / max(totalCPU, 1e-9), 7) + " %")
      }
      lines.append(String(format: "on %d runners of %d cores, before the merge: at least %.1f s for the subject's "
                            + "calls alone, %.1f s for the whole sweep", Self.runners, cores, floor.subject, floor.sweep))
      lines.append("by check (CPU-s): " + padded("", 4) + ["cases", "steps", "subject", "oracle", "triage", "review",
                                                          "record"].map { padded("", 9 - $0.count) + $0 }.joined())
      for check in checks.sorted(by: { $0.steps > $1.steps }) {
        lines.append("  " + padded(check.check, 20) + padded("", 9 - String(check.cases).count) + String(check.cases)
          + [check.steps, check.parts.subject, check.parts.oracle, check.parts.triage, check.parts.review,
             check.parts.record].map { number($0, 9) }.joined())
      }
      return lines
    }

    package var json: JSONValue {
      let bySide: [JSONValue] = sides.map { .object([("side", .string($0.0)), ("cpuSeconds", .measured($0.1))]) }
      let byCheck: [JSONValue] = checks.map { check in
        let members: [(String, JSONValue)] = [
          ("check", .string(check.check)), ("cases", .int(check.cases)), ("stepsCPUSeconds", .measured(check.steps)),
          ("subject", .measured(check.parts.subject)), ("oracle", .measured(check.parts.oracle)),
          ("triage", .measured(check.parts.triage)), ("review", .measured(check.parts.review)),
          ("record", .measured(check.parts.record)),
        ]
        return .object(members)
      }
      var members: [(String, JSONValue)] = []
      members.append(("date", .string(date)))
      members.append(("machine", .string(machine)))
      members.append(("selection", .string(selection)))
      members.append(("jobs", .int(jobs)))
      members.append(("wallSeconds", .measured(wall)))
      members.append(("workersCPUSeconds", .measured(workersCPU)))
      members.append(("parentCPUSeconds", .measured(parentCPU)))
      members.append(("floor", .object([
        ("runners", .int(Self.runners)), ("cores", .int(cores)), ("subjectSeconds", .measured(floor.subject)),
        ("sweepSeconds", .measured(floor.sweep)),
      ])))
      members.append(("bySide", .array(bySide)))
      members.append(("byCheck", .array(byCheck)))
      return .object(members)
    }

    /// The rows bench-history keeps: each side's CPU and share.
    package var rows: [(name: String, value: String, met: Bool)] {
      [("breakdown: \(selection), \(jobs) workers",
        String(format: "%.1f CPU-s (workers %.1f, parent %.1f), %.1f s wall", totalCPU, workersCPU, parentCPU, wall),
        true),
       (String(format: "breakdown: the night's floor on %d runners of %d cores, before the merge", Self.runners, cores),
        String(format: "%.1f s for the subject's calls alone, %.1f s for the whole sweep", floor.subject, floor.sweep),
        true)]
        + sides.map { side in
          ("breakdown: \(side.0)", String(format: "%.1f CPU-s, %.1f %%", side.1, 100 * side.1 / max(totalCPU, 1e-9)),
           true)
        }
    }
  }

  /// Runs the breakdown: the full sweep (`quick`: the core corpus) in worker processes of this
  /// executable.
  package static func breakdown(corporaDirectory: URL, quick: Bool, jobs: Int,
                                log: (String) -> Void) throws -> Breakdown {
    let scratch = try makeScratch("conformance-breakdown")
    defer { removeScratch(scratch) }
    var request = CorpusRequest(corporaDirectory: corporaDirectory)
    if !quick {
      (request.locales, request.calendars, request.zones) = (.all, .all, .all)
    }
    var options = RunOptions(request: request, out: scratch.appendingPathComponent("run"))
    options.jobs = jobs
    let waivers = corporaDirectory.appendingPathComponent(Corpus.Files.waivers)
    options.waivers = FileManager.default.fileExists(atPath: waivers.path) ? waivers : nil
    options.workerExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    // The workers inherit it: each step's record says where its thread's CPU went.
    setenv(CPUParts.variable, "1", 1)
    defer { unsetenv(CPUParts.variable) }
    let (clock, cpu, children) = (ContinuousClock.now, ThreadClock.process, childrenCPU())
    let result = try ConformanceRun.run(options)
    let (wall, parentCPU, workersCPU) = ((ContinuousClock.now - clock).seconds, ThreadClock.process - cpu,
                                         childrenCPU() - children)
    log(String(format: "run: %d cases, %.1f s wall, workers %.1f CPU-s, parent %.1f CPU-s", result.cases, wall,
               workersCPU, parentCPU))
    var byCheck: [String: Breakdown.Check] = [:]
    let steps = try ResultsDirectory(options.out, role: "bench", as: RunRecord.self).steps()
    var unparted = (steps: 0, cpu: 0.0)
    try steps.forEachBatch(StepRecord.self) { batch in
      for step in batch {
        var check = byCheck[step.check] ?? Breakdown.Check(check: step.check)
        check.cases += step.counts.total
        check.steps += step.cpuSeconds
        // A step this process made alone (cases a fault errored, or the breaker did not run)
        // took no worker's CPU.
        if let parts = step.cpuParts {
          check.parts.add(parts)
        } else if step.cpuSeconds > 0 {
          unparted = (unparted.steps + 1, unparted.cpu + step.cpuSeconds)
        }
        byCheck[step.check] = check
      }
    }
    if unparted.steps > 0 {
      log(String(format: "%d steps came back without their CPU parts (%.1f CPU-s)", unparted.steps, unparted.cpu))
    }
    return Breakdown(
      date: ISO8601DateFormatter().string(from: Date()), machine: machineDescription(),
      selection: quick ? "core corpus" : "full sweep", jobs: jobs, wall: wall,
      checks: CheckCatalog.all.compactMap { byCheck[$0.id] }, workersCPU: workersCPU, parentCPU: parentCPU,
      deliveryCPU: result.timing.deliveryCPU, unparted: unparted)
  }
}
