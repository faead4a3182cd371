@testable import Conformance
import Foundation
import Testing

/// Where a sweep's CPU goes (issue 51): each step's thread CPU by part, and the bench's sum of
/// them by check and by side.
@Suite("The CPU breakdown")
struct BreakdownTests {
  /// The first step of weekday-symbols over en_US and de_DE, gregorian, every first weekday,
  /// with symbols that are never rotated: most cases fail (EngineTests.symbolsNotRotated), so
  /// triage runs.
  static func step(measuring: Bool) throws -> StepRecord {
    let corpus = try smallCorpus(calendars: ["gregorian"])
    var mutant = Subject.pickerLogic
    mutant.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols }
    let check = WeekdaySymbolsCheck()
    let plan = Plan.make(corpus: corpus, checks: [check])
    let evaluator = CaseEvaluator(corpus: corpus, subject: mutant, review: .none(versions: try RunVersions.current()),
                                  measuresParts: measuring)
    let step = try #require(plan.steps.first)
    return evaluator.evaluate(step, check: check)
  }

  @Test("a measured step says where its thread's CPU went: the subject's calls, the rest of the outcome, the triage of its failures, review and record, within the step's CPU")
  func stepParts() throws {
    let record = try Self.step(measuring: true)
    #expect(record.counts.failed > 0, "\(record.counts)")
    let parts = try #require(record.cpuParts)
    #expect(parts.subject > 0 && parts.oracle > 0 && parts.triage > 0 && parts.review > 0 && parts.record > 0,
            "\(parts)")
    // Four reads of one thread's clock: the parts cannot hold more than the step's CPU.
    #expect(parts.total <= record.cpuSeconds + 1e-6, "\(parts.total) of \(record.cpuSeconds)")
    // The line keeps them, and reads them back.
    let line = RecordCoding.line(record.withoutCases, encoder: RecordCoding.lineEncoder())
    #expect(try RecordCoding.decoder().decode(StepRecord.self, from: line).cpuParts == parts)
  }

  @Test("a step put together from pieces (a case retried alone after a fault) adds up their parts; a piece this side made has none")
  func piecesAddUp() throws {
    var whole = try Self.step(measuring: false)
    var piece = whole
    piece.cpuParts = CPUParts(subject: 2, oracle: 1, triage: 0.5, review: 0.25, record: 0.125)
    // The parent's piece first (an errored case has no parts), then two a worker measured.
    whole.absorb(piece)
    whole.absorb(piece)
    #expect(whole.cpuParts == CPUParts(subject: 4, oracle: 2, triage: 1, review: 0.5, record: 0.25))
  }

  @Test("an unmeasured step (every night) writes no parts: its line is as before")
  func unmeasured() throws {
    let record = try Self.step(measuring: false)
    #expect(record.cpuParts == nil)
    let line = String(decoding: RecordCoding.line(record.withoutCases, encoder: RecordCoding.lineEncoder()), as: UTF8.self)
    #expect(!line.contains("cpuParts"), "\(line)")
  }

  @Test("the sides add up to the run's CPU: the checks' parts, the workers beyond their steps and the parent")
  func sidesAddUp() {
    // Two checks worked out by hand: 10 + 6 CPU-s of steps, whose parts are all of them.
    let blanks = Benchmark.Breakdown.Check(
      check: "leading-blanks", cases: 100, steps: 10,
      parts: CPUParts(subject: 3, oracle: 4, triage: 2, review: 0.5, record: 0.5))
    let nights = Benchmark.Breakdown.Check(
      check: "stay-nights", cases: 50, steps: 6,
      parts: CPUParts(subject: 5, oracle: 0, triage: 0.5, review: 0.25, record: 0.25))
    let breakdown = Benchmark.Breakdown(
      date: "d", machine: "m", selection: "core corpus", jobs: 2, wall: 12, checks: [blanks, nights],
      workersCPU: 20, parentCPU: 5, deliveryCPU: 3)
    let sides = Dictionary(uniqueKeysWithValues: breakdown.sides)
    #expect(sides["subject (its calls)"] == 8)  // 3 and 5
    #expect(sides["oracle and check logic (libicu)"] == 4)  // 4 and 0
    #expect(sides["triage (Foundation's ICU and the reference)"] == 2.5)
    #expect(sides["workers beyond their steps (start, transport, case lines)"] == 4)  // 20 - 16
    #expect(sides["parent: the rest (planning, reports, compression)"] == 2)
    #expect(breakdown.sides.map(\.1).reduce(0, +) == 25)
    #expect(breakdown.totalCPU == 25)
  }

  @Test("the night's floor: the subject's calls, and the whole run, spread over 8 runners of the machine's cores")
  func floor() {
    var breakdown = Benchmark.Breakdown(
      date: "d", machine: "m", selection: "full sweep", jobs: 2, wall: 600,
      checks: [Benchmark.Breakdown.Check(check: "same-day-closing", cases: 10, steps: 1_000,
                                         parts: CPUParts(subject: 800, oracle: 200))],
      workersCPU: 1_100, parentCPU: 20, deliveryCPU: 5)
    breakdown.cores = 2
    // 800 CPU-s of the subject over 8 × 2 cores; 1,120 CPU-s of the run.
    #expect(breakdown.floor.subject == 50)
    #expect(breakdown.floor.sweep == 70)
    #expect(breakdown.lines.contains("on 8 runners of 2 cores, before the merge: at least 50.0 s for the subject's calls alone, 70.0 s for the whole sweep"))
  }
}

/// `conformance bench --breakdown --quick`, run as a user runs it.
@Suite("bench --breakdown", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct BreakdownBenchTests {
  @Test("the core corpus's breakdown: every check, every planned case, sides that add up to the run's CPU")
  func quick() throws {
    // Away from the package: a bench run there appends to Documentation/bench-history.jsonl.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("breakdown-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = directory.appendingPathComponent("breakdown.json")
    let process = Process()
    process.executableURL = Executable.url
    process.arguments = ["bench", "--breakdown", "--quick", "--out", out.path, "--corpora", corpora.path]
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    try Spawn.serially { try process.run() }
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
    let byCheck = try #require(json["byCheck"] as? [[String: Any]])
    #expect(Set(byCheck.compactMap { $0["check"] as? String }) == Set(CheckCatalog.all.map(\.id)))
    // Every case the core corpus plans, as a dry run counts them.
    let dryRun = try Executable.run(["--dry-run"])
    let planned = dryRun.out.split(separator: "\n").first { $0.hasPrefix("plan: ") }
      .flatMap { Int($0.dropFirst(6).prefix { $0.isNumber }) }
    #expect(byCheck.compactMap { $0["cases"] as? Int }.reduce(0, +) == planned)
    // The core corpus has failures, and triage classifies them.
    #expect(byCheck.compactMap { $0["triage"] as? Double }.reduce(0, +) > 0)
    // The sides are the run's CPU, but for what no part of a step names (within a step's
    // clock reads).
    let total = try #require(json["workersCPUSeconds"] as? Double) + (try #require(json["parentCPUSeconds"] as? Double))
    let sides = try #require(json["bySide"] as? [[String: Any]]).compactMap { $0["cpuSeconds"] as? Double }
    #expect(sides.count == 8)
    #expect(abs(sides.reduce(0, +) - total) <= 0.02 * total, "\(sides) against \(total)")
  }
}
