import Foundation

/// `bench --shards 4,8`: the nightly as a CI matrix would run it, on this one machine. The
/// full sweep whole, whose step records refresh the cost model the shards are cut by
/// (`Corpora/step-costs.json`), then each shard of each split alone, one after another, then
/// their merge, then the full sweep whole again; each in a process of its own under GNU
/// time: wall, CPU (the process and its workers) and peak RSS. A split's night on N runners
/// is its slowest shard plus the merge.
extension Benchmark {
  /// One timed process.
  package struct Measured: Sendable {
    package var name: String
    package var wall: Double
    package var cpu: Double
    package var peakMB: Double
    package var status: Int32
    /// A run's steps' evaluation CPU (their records' `cpuSeconds`) and its cases that did
    /// not pass: what the process spent beyond evaluating is the rest of `cpu`.
    package var evaluationCPU: Double?
    package var nonPassing: Int?
    /// `ReferenceWorkload`'s CPU seconds just before this run: how fast the machine ran then.
    package var reference: Double?
  }

  /// What shards spend beyond evaluating their cases, fitted over every shard measured:
  /// CPU-s a shard (planning, the corpus, restarted workers, reports) and µs per case that
  /// did not pass (its line written, read, reviewed and copied): the cost model's
  /// `perNonPassing`.
  package struct Overhead: Sendable {
    package var perShard: Double
    package var perNonPassing: Double
    package var shards: Int

    /// Least squares of (process CPU − evaluation CPU) on the cases that did not pass.
    init?(_ runs: [Measured]) {
      let points = runs.compactMap { run in
        run.evaluationCPU.flatMap { cpu in run.nonPassing.map { (Double($0), run.cpu - cpu) } }
      }
      guard points.count >= 3 else { return nil }
      let n = Double(points.count)
      let (meanX, meanY) = (points.map(\.0).reduce(0, +) / n, points.map(\.1).reduce(0, +) / n)
      let sxx = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
      guard sxx > 0 else { return nil }
      let slope = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +) / sxx
      (perShard, perNonPassing, shards) = (meanY - slope * meanX, slope * 1e6, points.count)
    }
  }

  /// One pass over a split (each of its shards once, then their merge), or the passes'
  /// medians taken as one (`Split.figures`).
  package struct Pass: Sendable {
    package var shards: [Measured]
    package var merge: Measured

    package var meanWall: Double { shards.map(\.wall).reduce(0, +) / Double(max(shards.count, 1)) }
    package var slowest: Double { shards.map(\.wall).max() ?? 0 }
    /// The slowest shard over the mean.
    package var imbalance: Double { slowest / max(meanWall, 1e-9) }
    /// The night on as many runners as shards: the slowest shard, then the merge.
    package var night: Double { slowest + merge.wall }
    package var cpu: Double { shards.map(\.cpu).reduce(0, +) }
  }

  /// One split of the full sweep into `count` shards, run in one or more passes.
  ///
  /// With several passes a shard's figure is its median over them (the mean of two): on this
  /// shared machine a minute can run a tenth or more slower than the next (one bench's shard
  /// 3/4 spent 233 CPU-s on the cases it had done in 202 a pass before), and shards run one
  /// after another, so one pass's slowest shard is as often the slowest minute as the
  /// largest slice. Passes alternate their order (`schedule`), so a machine slowing or
  /// speeding up through the bench falls on every shard alike; every pass's own figures are
  /// reported beside the medians.
  package struct Split: Sendable {
    package var count: Int
    package var passes: [Pass]

    /// Each shard's median over the passes (wall and CPU apart), in shard order.
    package var shards: [Measured] {
      guard let first = passes.first else { return [] }
      return first.shards.indices.map { index in
        var run = first.shards[index]
        let runs = passes.map { $0.shards[index] }
        run.wall = Self.median(runs.map(\.wall))
        run.cpu = Self.median(runs.map(\.cpu))
        run.peakMB = runs.map(\.peakMB).max() ?? run.peakMB
        run.status = runs.map(\.status).max() ?? run.status
        run.reference = Self.medianReference(runs)
        return run
      }
    }
    /// The merge's median over the passes.
    package var merge: Measured {
      var merge = passes[0].merge
      merge.wall = Self.median(passes.map(\.merge.wall))
      merge.cpu = Self.median(passes.map(\.merge.cpu))
      merge.reference = Self.medianReference(passes.map(\.merge))
      return merge
    }

    /// The runs' median reference, when every one of them was timed against it.
    static func medianReference(_ runs: [Measured]) -> Double? {
      let references = runs.compactMap(\.reference)
      return references.count == runs.count ? median(references) : nil
    }

    /// The middle value, or the mean of the middle two.
    static func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return 0 }
      let middle = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The split's figures: its shards' and merge's medians, read as one pass.
    package var figures: Pass { Pass(shards: shards, merge: merge) }
  }

  package struct ShardReport: Sendable {
    package var date: String
    package var machine: String
    /// The full sweep whole, before the shards and after them.
    package var singles: [Measured]
    package var splits: [Split]
    /// The single runs' mean: what the shards' CPU is held against. The shards ran between
    /// the two, each split's passes as much before the middle as after it, so a drift of the
    /// machine through the bench cancels (two benches of the same code differed by 5 % in
    /// their shards' ratio).
    package var single: Measured {
      var mean = singles[0]
      let count = Double(singles.count)
      mean.wall = singles.map(\.wall).reduce(0, +) / count
      mean.cpu = singles.map(\.cpu).reduce(0, +) / count
      mean.peakMB = singles.map(\.peakMB).max() ?? mean.peakMB
      if singles.count > 1 { mean.name = "single (mean)" }
      return mean
    }
    package var overhead: Overhead? { Overhead(splits.flatMap { $0.passes.flatMap(\.shards) }) }

    /// Every run measured, in the order they ran.
    var runs: [Measured] {
      singles.prefix(1) + splits.flatMap { $0.passes.flatMap { $0.shards + [$0.merge] } } + singles.dropFirst()
    }

    /// How far the machine's speed moved through the bench: the reference's fastest and
    /// slowest round before a run, and their ratio (1.000 × on a machine that held still).
    package var machineSpeed: String? {
      let references = runs.compactMap(\.reference)
      guard let fastest = references.min(), let slowest = references.max(), fastest > 0 else { return nil }
      return String(format: "the machine through the bench: the reference workload took %.3f–%.3f CPU-s "
                      + "before a run (median %.3f), the slowest %.3f × the fastest",
                    fastest, slowest, Split.median(references), slowest / fastest)
    }

    /// The issue's targets, each with what was measured and whether it holds.
    package var rows: [(target: String, measured: String, met: Bool)] {
      var rows: [(String, String, Bool)] = []
      for split in splits {
        let figures = split.figures
        let bound = split.count <= 4 ? 1.05 : 1.08
        rows.append(("\(split.count) shards: slowest ≤ \(bound) × the mean",
                     String(format: "%.1f s / %.1f s = %.3f ×", figures.slowest, figures.meanWall, figures.imbalance),
                     figures.imbalance <= bound))
        rows.append(("\(split.count) shards: CPU added up ≤ 1.05 × a single run's",
                     String(format: "%.0f s / %.0f s = %.3f ×", figures.cpu, single.cpu, figures.cpu / max(single.cpu, 1e-9)),
                     figures.cpu <= 1.05 * single.cpu))
        if split.count >= 8 {
          rows.append(("\(split.count) shards: merge ≤ 5 s", String(format: "%.1f s", split.merge.wall),
                       split.merge.wall <= 5))
          rows.append(("\(split.count) shards: night (slowest shard + merge) ≤ 60 s",
                       String(format: "%.1f s", figures.night), figures.night <= 60))
        }
      }
      return rows
    }

    package var lines: [String] {
      var lines = ["bench --shards \(date) on \(machine): the full sweep, release, each process alone"]
      func line(_ run: Measured) -> String {
        String(format: "  %-17@ %7.1f s wall %7.1f s CPU %6.0f MB peak, exit %d", run.name, run.wall, run.cpu,
               run.peakMB, run.status) + (run.reference.map { String(format: ", reference %.3f s", $0) } ?? "")
      }
      lines += singles.map(line)
      if singles.count > 1 { lines.append(line(single)) }
      for split in splits {
        let figures = split.figures
        let passes = split.passes.count
        for (number, pass) in split.passes.enumerated() {
          lines += pass.shards.map { run in
            var named = run
            if passes > 1 { named.name += " #\(number + 1)" }
            return line(named)
          }
          lines.append(line(pass.merge))
          if passes > 1 {
            lines.append(String(format: "  pass %d of %d shards: slowest %.1f s, mean %.1f s (%.3f ×), merge %.1f s, "
                                  + "night %.1f s", number + 1, split.count, pass.slowest, pass.meanWall,
                                pass.imbalance, pass.merge.wall, pass.night))
          }
        }
        lines.append(String(format: "  %d shards%@: slowest %.1f s, mean %.1f s (%.3f ×), merge %.1f s, "
                              + "night on %d runners %.1f s; CPU %.0f s (%.3f × the single run)",
                            split.count, passes > 1 ? " (median of \(passes) passes)" : "", figures.slowest,
                            figures.meanWall, figures.imbalance, split.merge.wall,
                            split.count, figures.night, figures.cpu, figures.cpu / max(single.cpu, 1e-9)))
      }
      if let overhead {
        lines.append(String(format: "  beyond evaluating cases: %.1f CPU-s a shard + %.0f µs a case that did not pass "
                              + "(least squares over %d shards; the cost model's perNonPassing is %.0f µs)",
                            overhead.perShard, overhead.perNonPassing, overhead.shards, StepCosts.defaultPerNonPassing))
      }
      if let machineSpeed { lines.append("  " + machineSpeed) }
      lines += rows.map { "  \($0.met ? "✔" : "✘") \($0.target): \($0.measured)" }
      return lines
    }

    package var json: JSONValue {
      func run(_ run: Measured) -> JSONValue {
        var members: [(String, JSONValue)] = [
          ("name", .string(run.name)), ("wall", .measured(run.wall)), ("cpu", .measured(run.cpu)),
          ("peakMB", .measured(run.peakMB)), ("status", .int(Int(run.status)))]
        if let cpu = run.evaluationCPU { members.append(("evaluationCPU", .measured(cpu))) }
        if let count = run.nonPassing { members.append(("nonPassing", .int(count))) }
        if let reference = run.reference { members.append(("referenceCPU", .measured(reference))) }
        return .object(members)
      }
      var overheadMembers: [(String, JSONValue)] = []
      if let overhead {
        overheadMembers = [("overhead", .object([
          ("perShardCPU", .measured(overhead.perShard)), ("perNonPassingMicroseconds", .measured(overhead.perNonPassing)),
          ("shards", .int(overhead.shards))]))]
      }
      return .object([
        ("date", .string(date)), ("machine", .string(machine)), ("single", run(single)),
        ("singles", .array(singles.map(run))),
        ("splits", .array(splits.map { split in
          let figures = split.figures
          return .object([("count", .int(split.count)), ("shards", .array(split.shards.map(run))),
                   ("merge", run(split.merge)), ("imbalance", .measured(figures.imbalance)),
                   ("night", .measured(figures.night)), ("cpu", .measured(figures.cpu)),
                   ("passes", .array(split.passes.map { pass in
                     .object([("shards", .array(pass.shards.map(run))), ("merge", run(pass.merge)),
                              ("imbalance", .measured(pass.imbalance)), ("night", .measured(pass.night)),
                              ("cpu", .measured(pass.cpu))])
                   }))])
        })),
        ("targets", .array(rows.map { .object([("target", .string($0.target)), ("measured", .string($0.measured)),
                                              ("met", .bool($0.met))]) })),
      ] + overheadMembers)
    }
  }

  /// The full sweep's arguments.
  static let fullSweep = ["--locales", "all", "--calendars", "all", "--first-weekdays", "all", "--time-zones", "all"]

  /// The order the shards run in: pass by pass, each split's shards 1…N, then its merge;
  /// every other pass takes the splits and their shards backwards (N…1), so over two passes
  /// each shard and each split sits as far from the bench's middle on one side as on the
  /// other. Each element is a split's count, its pass (1-based) and its shards in order.
  static func schedule(_ counts: [Int], passes: Int) -> [(count: Int, pass: Int, shards: [Int])] {
    (1...max(passes, 1)).flatMap { pass in
      let forward = pass % 2 == 1
      return (forward ? counts : counts.reversed()).map { count in
        (count, pass, forward ? Array(1...count) : Array((1...count).reversed()))
      }
    }
  }

  /// Runs the full sweep whole, then each split's shards and merge, `passes` times
  /// (`schedule`), then the full sweep whole again; `log` hears each run.
  package static func shards(_ counts: [Int], passes: Int = 1, corporaDirectory: URL, jobs: Int,
                            log: (String) -> Void) throws -> ShardReport {
    let scratch = try makeScratch("conformance-bench-shards")
    defer { removeScratch(scratch) }
    let common = ["--corpora", corporaDirectory.path, "--jobs", String(jobs)] + fullSweep
    let singleOut = scratch.appendingPathComponent("single")
    let single = try measured("single run", common + ["--out", singleOut.path])
    log(String(format: "single run: %.1f s, %.0f s CPU", single.wall, single.cpu))
    let costs = try StepCosts.fit(results: singleOut)
    let file = corporaDirectory.appendingPathComponent(StepCosts.fileName)
    try costs.encoded().write(to: file, options: .atomic)
    log("refreshed \(file.path) from the single run (digest \(costs.digest))")
    try? FileManager.default.removeItem(at: singleOut)
    var done: [Int: [Pass]] = [:]
    for (count, pass, order) in schedule(counts, passes: passes) {
      var shards: [Int: Measured] = [:]
      for index in order {
        let out = scratch.appendingPathComponent("split-\(count)-shard-\(index)").path
        var run = try measured("shard \(index)/\(count)", common + ["--shard", "\(index)/\(count)", "--out", out])
        (run.evaluationCPU, run.nonPassing) = try evaluation(URL(fileURLWithPath: out))
        log(String(format: "shard %d/%d%@: %.1f s, %.0f s CPU, reference %.3f s", index, count,
                   passes > 1 ? " (pass \(pass))" : "", run.wall, run.cpu, run.reference ?? 0))
        shards[index] = run
      }
      let directories = (1...count).map { scratch.appendingPathComponent("split-\(count)-shard-\($0)").path }
      let merged = scratch.appendingPathComponent("split-\(count)-merged").path
      let merge = try measured("merge of \(count)", ["merge"] + directories + ["--out", merged])
      log(String(format: "merge of %d: %.1f s", count, merge.wall))
      done[count, default: []].append(Pass(shards: (1...count).compactMap { shards[$0] }, merge: merge))
      for directory in directories + [merged] { try? FileManager.default.removeItem(atPath: directory) }
    }
    let again = try measured("single run, after", common + ["--out", singleOut.path])
    log(String(format: "single run again: %.1f s, %.0f s CPU", again.wall, again.cpu))
    return ShardReport(date: ISO8601DateFormatter().string(from: Date()), machine: machineDescription(),
                       singles: [single, again], splits: counts.map { Split(count: $0, passes: done[$0] ?? []) })
  }

  /// A finished run's evaluation CPU (its steps' `cpuSeconds`) and its cases that did not pass.
  static func evaluation(_ directory: URL) throws -> (cpu: Double, nonPassing: Int) {
    let results = try ResultsDirectory(directory, role: "bench", as: RunRecord.self)
    var cpu = 0.0
    let reader = try results.steps()
    while let step = try reader.next(StepRecord.self) { cpu += step.cpuSeconds }
    let summary = results.record.summary
    return (cpu, summary.total - summary.passed - summary.skipped)
  }

  /// This executable with `arguments` under GNU time: wall, user + system CPU (its waited-for
  /// workers included) and the largest process's peak RSS.
  static func measured(_ name: String, _ arguments: [String]) throws -> Measured {
    let reference = ReferenceWorkload.measure()
    let (status, _, fields) = try underTime("%e %U %S %M", arguments)
    guard [0, 1].contains(status), fields.count == 4 else {
      throw HarnessError("bench: conformance \(arguments.joined(separator: " ")) exited \(status)")
    }
    return Measured(name: name, wall: fields[0], cpu: fields[1] + fields[2], peakMB: fields[3] / 1024,
                    status: status, reference: reference)
  }
}
