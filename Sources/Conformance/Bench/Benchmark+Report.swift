import Foundation

extension Benchmark.Report {
  /// The targets of issue 5 and whether this run meets them.
  package var targets: [(name: String, value: String, met: Bool)] {
    var rows: [(String, String, Bool)] = []
    if let full {
      rows.append(("full sweep ≤ 120 s wall", String(format: "%.1f s", full.wall), full.wall <= 120))
    }
    if let full {
      rows.append(("full sweep's archive ≤ 25 MB", String(format: "%.1f MB", full.archiveMB),
                   full.archiveMB <= 25))
      rows.append(("baseline read ≤ 3 s", String(format: "%.1f s", full.baselineSeconds),
                   full.baselineSeconds <= 3))
      rows.append(("baseline read ≤ 150 MB", String(format: "%.0f MB (process peak %.0f MB)",
                                                     full.baselineMB, full.baselinePeakMB),
                   full.baselineMB <= 150))
    }
    for phase in [core] + (full.map { [$0] } ?? []) {
      let declined = phase.slowReads.values.reduce(0, +) + phase.baselineSlowReads.values.reduce(0, +)
      rows.append(("\(phase.name): every record read by its fast reader (issue 33)",
                   "run \(Benchmark.described(phase.slowReads)), baseline \(Benchmark.described(phase.baselineSlowReads)) "
                     + "left to JSONDecoder", declined == 0))
    }
    // The sweep's peak, not the bench's: the measuring loops after it hold more state.
    let sweepPeak = measured.peakMB
    rows.append(("peak RSS ≤ 500 MB", String(format: "%.0f MB", sweepPeak), sweepPeak <= 500))
    rows.append(("core corpus ≤ 10 s", String(format: "%.1f s", core.wall), core.wall <= 10))
    rows.append(("CPU ≤ 1.3 × subject-only loop", String(format: "%.2f ×", overhead), overhead <= 1.3))
    rows.append(("wall ≤ 0.6 × CPU", String(format: "%.2f ×", parallelism), parallelism <= 0.6))
    rows.append(("tables ≥ 10 × faster than direct", String(format: "%.1f ×", directOverTables),
                 directOverTables >= 10))
    if let growth = holesGrowth, let holes {
      rows.append(Benchmark.Pair.target(.holes, with: holes.with, without: holes.without, cost: growth))
    }
    if let share = referenceShare, let reference {
      rows.append(("reference lookups ≤ 10 % of the sweep's CPU", String(
        format: "%.1f s with, %.1f s without: %.1f %%", reference.with, reference.without, share * 100),
        share <= 0.10))
    }
    if let clean = storms.first {
      for storm in storms.dropFirst() {
        if storm.executor {
          // Against the in-process run of the same selection.
          guard let alone = storms.first(where: { !$0.executor && $0.fault == nil && $0.selection == storm.selection })
          else { continue }
          let ratio = storm.wall / max(alone.wall, 1e-9)
          let limit = storm.selection == "core" ? 1.5 : 2
          rows.append(("\(storm.selection == "core" ? "core" : "small selection") through the executor protocol ≤ "
                         + "\(WorkerLimits.number(limit)) × in-process, same exit", String(
            format: "%.1f s / %.1f s = %.2f ×, exit %d", storm.wall, alone.wall, ratio, storm.status),
            ratio <= limit && storm.status == alone.status))
          let declined = storm.slowReads.values.reduce(0, +)
          rows.append(("\(storm.name): every answer and question read by its fast reader (issue 33)",
                       "\(Benchmark.described(storm.slowReads)) left to JSONDecoder", declined == 0))
          continue
        }
        guard storm.selection == clean.selection else { continue }
        let ratio = storm.wall / max(clean.wall, 1e-9)
        rows.append(("\(storm.name) ≤ 3 × the clean run, exit 1", String(
          format: "%.1f s / %.1f s = %.1f ×, exit %d", storm.wall, clean.wall, ratio, storm.status),
          ratio <= 3 && storm.status == 1))
      }
    }
    return rows
  }

  /// Lines for the console.
  package var lines: [String] {
    var lines = ["bench \(date) on \(machine), \(jobs) workers\(quick ? " (quick: core corpus only)" : "")"]
    for phase in [core] + (full.map { [$0] } ?? []) {
      lines.append(String(format: "  %@ %9d cases %8.1f s wall %8.1f s CPU %8.0f cases/s  RSS after %4.0f MB, peak so far %4.0f MB, archive %.1f MB, baseline read +%.1f s +%.0f MB",
                          phase.name.padding(toLength: 12, withPad: " ", startingAt: 0), phase.cases,
                          phase.wall, phase.cpu, phase.casesPerSecond, phase.residentMB, phase.peakMB,
                          phase.archiveMB, phase.baselineSeconds, phase.baselineMB))
    }
    lines.append("  time split of the \(full == nil ? "core" : "full") sweep (CPU s): "
      + split.map { String(format: "%@ %.1f", $0.0, $0.1) }.joined(separator: ", "))
    lines.append("  subject CPU by check (where the checks call it; replayed alone):")
    for check in perCheck where check.cases > 0 {
      lines.append(String(format: "    %@ %9d cases %8.1f s %8.1f µs a case; replayed %8.1f s",
                          check.check.padding(toLength: 20, withPad: " ", startingAt: 0), check.cases,
                          check.subject, check.subject / Double(check.cases) * 1e6, check.replayed))
    }
    lines.append(String(format: "  fixed sample (%d cases): tables %.2f s, direct oracle %.2f s wall; "
                          + "oracle and check logic alone %.2f s vs %.2f s CPU (%.1f ×)",
                        sample.cases, sample.tablesWall, sample.directWall, sampleOracle.tables,
                        sampleOracle.direct, directOracleOverTables))
    for storm in storms {
      lines.append(String(format: "  %@ %@: %.1f s wall, exit %d, %d errored (%d not run)",
                          storm.name.padding(toLength: 10, withPad: " ", startingAt: 0),
                          storm.fault ?? "no fault", storm.wall, storm.status, storm.errored, storm.notRun))
    }
    for target in targets {
      lines.append("  \(target.met ? "✔" : "✘") \(target.name): \(target.value)")
    }
    return lines
  }

  package var json: JSONValue {
    // Typed pieces, one statement each: one literal of them all took the type checker seconds.
    func phase(_ phase: Benchmark.Phase) -> JSONValue {
      let members: [(String, JSONValue)] = [
        ("cases", .int(phase.cases)), ("wallSeconds", .measured(phase.wall)),
        ("cpuSeconds", .measured(phase.cpu)), ("casesPerSecond", .measured(phase.casesPerSecond)),
        ("loadSeconds", .measured(phase.timing.load)), ("sweepSeconds", .measured(phase.timing.sweep)),
        ("sweepCPUSeconds", .measured(phase.timing.sweepCPU)),
        ("evaluationCPUSeconds", .measured(phase.timing.evaluationCPU)),
        ("deliveryCPUSeconds", .measured(phase.timing.deliveryCPU)),
        ("writeSeconds", .measured(phase.timing.write)), ("residentMBAfter", .measured(phase.residentMB)),
        ("peakResidentMBSoFar", .measured(phase.peakMB)), ("archiveMB", .measured(phase.archiveMB)),
        ("baselineReadSeconds", .measured(phase.baselineSeconds)),
        ("baselineReadMB", .measured(phase.baselineMB)),
        ("baselineReadProcessPeakMB", .measured(phase.baselinePeakMB)),
      ]
      return .object(members)
    }
    let byCheck: [JSONValue] = perCheck.map {
      let members: [(String, JSONValue)] = [
        ("check", .string($0.check)), ("cases", .int($0.cases)),
        ("subjectCPUSeconds", .measured($0.subject)), ("subjectReplayedCPUSeconds", .measured($0.replayed)),
        ("evaluateCPUSeconds", .measured($0.evaluate)),
      ]
      return .object(members)
    }
    let sampled: [(String, JSONValue)] = [
      ("cases", .int(sample.cases)), ("tablesWallSeconds", .measured(sample.tablesWall)),
      ("directWallSeconds", .measured(sample.directWall)),
      ("tablesCPUSeconds", .measured(sample.tablesCPU)), ("directCPUSeconds", .measured(sample.directCPU)),
      ("oracleTablesCPUSeconds", .measured(sampleOracle.tables)),
      ("oracleDirectCPUSeconds", .measured(sampleOracle.direct)),
    ]
    let ratios: [(String, JSONValue)] = [
      ("cpuOverSubjectOnly", .measured(overhead)), ("wallOverCPU", .measured(parallelism)),
      ("directOverTables", .measured(directOverTables)),
    ]
    var referenceJSON = JSONValue.null
    if let reference {
      referenceJSON = .object([("withCPUSeconds", .measured(reference.with)),
                               ("withoutCPUSeconds", .measured(reference.without)), ("pairs", .int(reference.pairs))])
    }
    var holesJSON = JSONValue.null
    if let holes {
      holesJSON = .object([("withCPUSeconds", .measured(holes.with)), ("withoutCPUSeconds", .measured(holes.without))])
    }
    let targetsJSON: [JSONValue] = targets.map {
      .object([("target", .string($0.name)), ("value", .string($0.value)), ("met", .bool($0.met))])
    }
    let splitJSON: [(String, JSONValue)] = split.map { ($0.0, .measured($0.1)) }
    var members: [(String, JSONValue)] = []
    members.append(("date", .string(date)))
    members.append(("machine", .string(machine)))
    members.append(("jobs", .int(jobs)))
    members.append(("quick", .bool(quick)))
    members.append(("core", phase(core)))
    members.append(("full", full.map(phase) ?? .null))
    members.append(("subjectOnlyCPUSeconds", .measured(subjectCPU)))
    members.append(("subjectReplayedCPUSeconds", .measured(replayCPU)))
    members.append(("evaluateCPUSeconds", .measured(evaluateCPU)))
    members.append(("split", .object(splitJSON)))
    members.append(("subjectOnlyByCheck", .array(byCheck)))
    members.append(("sample", .object(sampled)))
    members.append(("peakResidentMB", .measured(peakMB)))
    members.append(("storms", .array(storms.map(\.json))))
    members.append(("ratios", .object(ratios)))
    members.append(("reference", referenceJSON))
    members.append(("holesClosed", holesJSON))
    members.append(("targets", .array(targetsJSON)))
    return .object(members)
  }
}

extension Benchmark.Pair {
  /// The row each issue holds the sweep to.
  static func target(_ kind: Benchmark.PairKind, with: Double, without: Double, cost: Double)
    -> (name: String, value: String, met: Bool)
  {
    switch kind {
    case .holes:
      ("month grid, month cycles, week-year edges ≤ +15 % of the sweep's CPU",
       String(format: "%.1f s with, %.1f s without: %+.1f %%", with, without, cost * 100), cost <= 0.15)
    case .reference:
      ("reference lookups ≤ 10 % of the sweep's CPU",
       String(format: "%.1f s with, %.1f s without: %.1f %%", with, without, cost * 100), cost <= 0.10)
    }
  }

  /// Its row, for the history (`BenchHistory`).
  package var targets: [(name: String, value: String, met: Bool)] {
    [Self.target(kind, with: with.cpu, without: without.cpu, cost: cost)]
  }

  /// Lines for the console (`bench --holes`, `bench --reference`).
  package func lines(date: String, machine: String, jobs: Int) -> [String] {
    let row = Self.target(kind, with: with.cpu, without: without.cpu, cost: cost)
    let (withName, withoutName) = switch kind {
    case .holes: ("current plan", "before closing the holes")
    case .reference: ("with Corpora/reference", "without it")
    }
    return [
      "bench --\(kind.rawValue) \(date) on \(machine), \(jobs) workers: "
        + (selection.isEmpty ? "the core corpus" : "the full sweep")
        + ", in worker processes, the least of \(pairs) pair\(pairs == 1 ? "" : "s")",
      String(format: "  %@: %.1f s CPU, %.1f s wall", withName, with.cpu, with.wall),
      String(format: "  %@: %.1f s CPU, %.1f s wall", withoutName, without.cpu, without.wall),
      "  \(row.met ? "✔" : "✘") \(row.name): \(row.value)",
    ]
  }

  package func json(date: String, machine: String, jobs: Int) -> JSONValue {
    let row = Self.target(kind, with: with.cpu, without: without.cpu, cost: cost)
    return .object([
      ("kind", .string(kind.rawValue)),
      ("date", .string(date)), ("machine", .string(machine)), ("jobs", .int(jobs)),
      ("selection", .array(selection.map { .string($0) })), ("pairs", .int(pairs)),
      ("withCPUSeconds", .measured(with.cpu)), ("withWallSeconds", .measured(with.wall)),
      ("withoutCPUSeconds", .measured(without.cpu)), ("withoutWallSeconds", .measured(without.wall)),
      (kind == .holes ? "growth" : "share", .measured(cost)),
      ("target", .object([("target", .string(row.name)), ("value", .string(row.value)), ("met", .bool(row.met))])),
    ])
  }
}

extension Benchmark.StormRun {
  /// As the bench's JSON report lists it.
  var json: JSONValue {
    let slowReads: [(String, JSONValue)] = self.slowReads.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }
    return .object([("name", .string(name)), ("fault", fault.map { .string($0) } ?? .null),
                    ("wallSeconds", .measured(wall)), ("exitStatus", .int(Int(status))),
                    ("errored", .int(errored)), ("notRun", .int(notRun)),
                    ("executor", .bool(executor)), ("selection", .string(selection)),
                    ("slowReads", .object(slowReads))])
  }
}
