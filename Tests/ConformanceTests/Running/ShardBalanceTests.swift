@testable import Conformance
import Foundation
import ICUOracle
import Testing

@Suite("Balanced shards and --shard auto")
struct ShardBalanceTests {
  @Test("the most expensive step first, to the lightest shard: 5 4 3 3 2 2 1 over three shards")
  func longestFirst() {
    // By hand: 5→1, 4→2, 3→3, 3→3 (3 < 4 < 5), 2→2 (4), 2→1 (5 < 6), 1→2 (6 < 7 = 7, lowest first).
    let costs: [Double] = [2, 5, 3, 1, 4, 3, 2]
    let steps = costs.indices.map { _ in Plan.Step(checkIndex: 0, group: CaseID(check: "x")) }
    var order = 0
    let (shardOf, loads) = Plan.balance(steps, count: 3) { _ in defer { order += 1 }; return costs[order] }
    #expect(loads == [7, 7, 6])
    // By position: the first 2 → shard 2, 5 → 1, the first 3 → 3, 1 → 2, 4 → 2, the second 3 → 3,
    // the second 2 → 1.
    #expect(shardOf == [1, 0, 2, 1, 1, 2, 0])
  }

  @Test("every step of the plan in exactly one shard, the same cut every time, slices close in cost")
  func coverOnce() throws {
    let corpus = try smallCorpus()
    let costs = StepCosts(measured: "test", checks: [
      "same-day-closing": .init(perCase: 1000), "leading-blanks": .init(perCase: 5),
      "range-roles": .init(perCase: 300, calendars: ["persian": .init(perCase: 600)]),
    ])
    let whole = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    for count in [1, 2, 3, 4] {
      let shards = (1...count).map {
        Plan.make(corpus: corpus, checks: CheckCatalog.all, shard: ($0, count), costs: costs)
      }
      let indices = shards.flatMap { $0.steps.map(\.index) }.sorted()
      #expect(indices == whole.steps.map(\.index), "\(count) shards")
      let again = Plan.make(corpus: corpus, checks: CheckCatalog.all, shard: (count, count), costs: costs)
      #expect(again.steps.map(\.index) == shards[count - 1].steps.map(\.index))
      // Longest first: no slice exceeds another by more than the most expensive step.
      let loads = shards[0].shards.map(\.cpuSeconds)
      let largest = whole.steps.map {
        costs.cost(of: $0, check: whole.checks[$0.checkIndex].id, zoneClass: corpus.zoneClasses[$0.group.zone ?? ""]) / 1e6
      }.max() ?? 0
      #expect((loads.max() ?? 0) - (loads.min() ?? 0) <= largest + 1e-9, "\(loads)")
      #expect(shards[0].shards.map(\.cases).reduce(0, +) == whole.caseCount)
    }
  }

  /// A step record of `cases` passing cases that took `cpu` seconds.
  func step(_ plan: String, cases: Int, cpu: Double) -> StepRecord {
    var record = StepRecord(index: 0, check: String(plan.prefix { $0 != "|" }), name: "", plan: plan + "\t\t\t",
                            counts: StatusCounts(), seconds: cpu)
    record.counts.passed = cases
    record.cpuSeconds = cpu
    return record
  }

  @Test("a model fitted from step records gives each check, calendar and zone class its CPU per case")
  func fit() throws {
    let costs = StepCosts.fit([
      step("month-days|calendar=hebrew|zone=UTC", cases: 100, cpu: 0.01),          // 100 µs
      step("month-days|calendar=hebrew|zone=Pacific/Apia", cases: 10, cpu: 0.003), // 300 µs
      step("month-days|calendar=gregorian|zone=UTC", cases: 200, cpu: 0.002),      // 10 µs
    ], zoneClasses: ["UTC": "no transitions", "Pacific/Apia": "skipped-day"], measured: "by hand")
    #expect(costs.perCase(check: "month-days", calendar: "hebrew", zoneClass: "skipped-day") == 300)
    #expect(costs.perCase(check: "month-days", calendar: "hebrew", zoneClass: "no transitions") == 100)
    // 13,000 µs over 110 cases; a calendar with one zone class keeps one rate.
    #expect(costs.perCase(check: "month-days", calendar: "hebrew", zoneClass: nil) == 118)
    #expect(costs.perCase(check: "month-days", calendar: "gregorian", zoneClass: "skipped-day") == 10)
    // 15,000 µs over 310 cases for a calendar the fit never saw.
    #expect(costs.perCase(check: "month-days", calendar: "coptic", zoneClass: nil) == 48.4)
    #expect(costs.perCase(check: "leading-blanks", calendar: nil, zoneClass: nil) == 1)
  }

  @Test("a step that costs 10 ms or more keeps its own rate; the others their class's")
  func stepRates() throws {
    let costs = StepCosts.fit([
      step("month-days|calendar=chinese|zone=America/Havana", cases: 10, cpu: 0.5),  // 500,000 µs: 50,000 a case
      step("month-days|calendar=chinese|zone=UTC", cases: 1000, cpu: 0.009),        // 9,000 µs: below
    ], zoneClasses: ["UTC": "no transitions", "America/Havana": "no transitions"], measured: "by hand")
    #expect(costs.steps == ["month-days": ["calendar=chinese|zone=America/Havana": 50_000]])
    func planned(_ zone: String) throws -> Plan.Step {
      Plan.Step(checkIndex: 0, index: 0, group: try CaseID(parsing: "month-days|calendar=chinese|zone=\(zone)"),
                firstWeekdays: [.own], months: [LocalDay(year: 2020, month: 1, day: 1), LocalDay(year: 2020, month: 2, day: 1)],
                variants: [])
    }
    let havana = try planned("America/Havana"), utc = try planned("UTC")
    #expect(havana.caseCount == 2)
    #expect(costs.cost(of: havana, check: "month-days", zoneClass: "no transitions") == 100_000)
    // The class: 509,000 µs over 1,010 cases, three significant digits.
    #expect(costs.cost(of: utc, check: "month-days", zoneClass: "no transitions") == 2 * 504)
    // The per-step rates are part of the digest shards must share.
    var classesOnly = costs
    classesOnly.steps = nil
    #expect(classesOnly.digest != costs.digest)
  }

  @Test("bench over passes: each shard's median (the mean of two), the slowest of them, the merges' median")
  func benchPasses() {
    func run(_ name: String, _ wall: Double, _ cpu: Double) -> Benchmark.Measured {
      Benchmark.Measured(name: name, wall: wall, cpu: cpu, peakMB: 100, status: 1)
    }
    // Pass 1: shard 1 met a slow minute (60 s); pass 2: shard 2 did (58 s).
    let first = Benchmark.Pass(shards: [run("shard 1/2", 60, 110), run("shard 2/2", 50, 100)], merge: run("merge", 5, 8))
    let second = Benchmark.Pass(shards: [run("shard 1/2", 52, 102), run("shard 2/2", 58, 108)], merge: run("merge", 4, 7))
    let split = Benchmark.Split(count: 2, passes: [first, second])
    // By hand: means 56 and 54; slowest 56 over a mean of 55; merge 4.5; night 60.5.
    #expect(split.shards.map(\.wall) == [56, 54])
    #expect(split.shards.map(\.cpu) == [106, 104])
    #expect(split.figures.slowest == 56 && split.figures.meanWall == 55)
    #expect(abs(split.figures.imbalance - 56.0 / 55.0) < 1e-12)
    #expect(split.merge.wall == 4.5 && split.figures.night == 60.5 && split.figures.cpu == 210)
    // Each pass keeps its own: 60 + 5 and 58 + 4.
    #expect(split.passes.map(\.night) == [65, 62])
    // A third pass: each shard's median, so one slow minute (shard 1's 60 s) drops out.
    let third = Benchmark.Pass(shards: [run("shard 1/2", 51, 101), run("shard 2/2", 53, 103)], merge: run("merge", 4.2, 7))
    let three = Benchmark.Split(count: 2, passes: [first, second, third])
    #expect(three.shards.map(\.wall) == [52, 53] && three.shards.map(\.cpu) == [102, 103])
    #expect(three.figures.slowest == 53 && three.merge.wall == 4.2 && abs(three.figures.night - 57.2) < 1e-12)
    // The shards' CPU is held against the mean of the single runs before and after them.
    let report = Benchmark.ShardReport(date: "d", machine: "m", singles: [run("single run", 400, 800),
                                                                       run("single run, after", 410, 812)],
                                       splits: [split])
    #expect(report.single.wall == 405 && report.single.cpu == 806)
    #expect(report.rows.contains { $0.target.contains("CPU added up") && $0.measured == "210 s / 806 s = 0.261 ×" })
  }

  @Test("the reference workload asks Foundation what libicu answers: its pairs straddle Chita's midnights")
  func referenceWorkload() throws {
    let pairs = ReferenceWorkload.pairs(count: 2_000)
    // Expected from libicu: a pair is on two days when Asia/Chita's local dates differ.
    let chita = try ZoneTimeline(zone: "Asia/Chita")
    let expected = try pairs.filter { pair in
      try chita.localDay(at: pair.0.timeIntervalSince1970 * 1000) != chita.localDay(at: pair.1.timeIntervalSince1970 * 1000)
    }.count
    // By hand: Chita kept UTC+8 all through January 2015, so its midnights fall at 16:00Z,
    // minute 960 + 1,440 k of the year. A pair (17 i, 17 i + 97) is on two days when a midnight
    // M has 17 i in [M − 97, M): 5 or 6 instants a midnight, over the 24 midnights up to the
    // last pair's end (1,999 × 17 + 97 = 34,080 = 960 + 1,440 × 23), which only that pair crosses.
    let byHand = (0...23).map { k in
      let midnight = 960 + 1_440 * k
      return (0..<2_000).filter { (midnight - 97..<midnight).contains(17 * $0) }.count
    }
    #expect(byHand.dropLast().allSatisfy { (5...6).contains($0) } && byHand.last == 1)
    #expect(expected == byHand.reduce(0, +))
    #expect(ReferenceWorkload.differentDays(pairs) == expected)
    #expect(ReferenceWorkload.measure() > 0)
  }

  @Test("bench: each run's reference beside it, a shard's median over passes, the machine's spread through the bench")
  func benchReference() {
    func run(_ name: String, _ wall: Double, _ reference: Double) -> Benchmark.Measured {
      Benchmark.Measured(name: name, wall: wall, cpu: 2 * wall, peakMB: 100, status: 1, reference: reference)
    }
    let first = Benchmark.Pass(shards: [run("shard 1/2", 60, 0.36), run("shard 2/2", 50, 0.30)], merge: run("merge", 5, 0.31))
    let second = Benchmark.Pass(shards: [run("shard 1/2", 52, 0.32), run("shard 2/2", 58, 0.34)], merge: run("merge", 4, 0.33))
    let split = Benchmark.Split(count: 2, passes: [first, second])
    // By hand: shard 1's references 0.36 and 0.32 → 0.34; shard 2's 0.30, 0.34 → 0.32; merges 0.32.
    #expect(split.shards.map { ($0.reference! * 1000).rounded() } == [340, 320])
    #expect((split.merge.reference! * 1000).rounded() == 320)
    let report = Benchmark.ShardReport(date: "d", machine: "m", singles: [run("single run", 400, 0.33),
                                                                       run("single run, after", 410, 0.35)],
                                       splits: [split])
    // Eight runs, fastest 0.30, slowest 0.36 (1.2 ×); sorted 0.30 0.31 0.32 0.33 0.33 0.34 0.35 0.36 → median 0.33.
    #expect(report.machineSpeed == "the machine through the bench: the reference workload took 0.300–0.360 CPU-s "
      + "before a run (median 0.330), the slowest 1.200 × the fastest")
    #expect(report.lines.contains { $0.hasPrefix("  shard 1/2 #1") && $0.hasSuffix(", reference 0.360 s") })
    #expect(report.lines.contains("  " + report.machineSpeed!))
  }

  @Test("bench --shards runs every other pass backwards, splits and shards, so a drift falls on all alike")
  func benchSchedule() {
    let schedule = Benchmark.schedule([8, 4], passes: 2)
    #expect(schedule.map(\.count) == [8, 4, 4, 8])
    #expect(schedule.map(\.pass) == [1, 1, 2, 2])
    #expect(schedule.map(\.shards) == [Array(1...8), [1, 2, 3, 4], [4, 3, 2, 1], [8, 7, 6, 5, 4, 3, 2, 1]])
    // By hand, with each pass's merge after its shards: 28 runs, and every shard of either
    // split sits at positions averaging 13 (shard k of 8 at k − 1 and 27 − k; of 4 at 8 + k and 18 − k).
    var positions: [String: [Int]] = [:]
    var position = 0
    for (count, _, shards) in schedule {
      for shard in shards {
        positions["\(shard)/\(count)", default: []].append(position)
        position += 1
      }
      position += 1
    }
    #expect(position == 28 && positions.count == 12)
    #expect(positions.values.allSatisfy { $0.reduce(0, +) == 26 })
    #expect(Benchmark.schedule([8], passes: 3).map(\.shards) == [Array(1...8), Array((1...8).reversed()), Array(1...8)])
  }

  @Test("--shard auto reads each CI's own variables, 1-based or 0-based",
        arguments: [
          (["CONFORMANCE_SHARD": "2/8"], 2, 8),
          (["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "4"], 3, 4),
          (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "6"], 1, 6),
          (["BUILDKITE_PARALLEL_JOB": "4", "BUILDKITE_PARALLEL_JOB_COUNT": "5"], 5, 5),
          // CircleCI without parallelism says 1 of 1; GitLab sets only its total.
          (["CONFORMANCE_SHARD": "3/4", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1", "CI_NODE_TOTAL": "1"], 3, 4),
          (["CONFORMANCE_SHARD": "2/3", "CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], 2, 3),
        ])
  func auto(environment: [String: String], index: Int, count: Int) throws {
    let shard = try ShardSelection.fromEnvironment(environment)
    #expect(shard.index == index && shard.count == count)
  }

  @Test("--shard auto refuses no shard, half a pair, a value out of range and a disagreement, naming them",
        arguments: [
          ([:], "no shard in the environment"),
          (["CI_NODE_TOTAL": "4"], "CI_NODE_TOTAL=4 is set but CI_NODE_INDEX is not"),
          (["CIRCLE_NODE_INDEX": "6", "CIRCLE_NODE_TOTAL": "6"], "CIRCLE_NODE_INDEX=6 and CIRCLE_NODE_TOTAL=6"),
          (["CONFORMANCE_SHARD": "5/4"], "CONFORMANCE_SHARD='5/4'"),
          (["CONFORMANCE_SHARD": "1/4", "BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "4"],
           "disagrees: CONFORMANCE_SHARD=1/4 is shard 1/4, BUILDKITE_PARALLEL_JOB=1, BUILDKITE_PARALLEL_JOB_COUNT=4 is 2/4"),
        ])
  func autoRefused(environment: [String: String], message: String) {
    #expect {
      _ = try ShardSelection.fromEnvironment(environment)
    } throws: { error in
      (error as? InputError)?.message.contains(message) == true
    }
  }
}
