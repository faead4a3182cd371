import Conformance
import Foundation
import Synchronization
import Testing

/// The test lanes. `swift test` runs the fast lane: the engine, records, reports and checks on
/// small corpora, in process. `CONFORMANCE_TESTS=all swift test` adds the end-to-end lane:
/// suites that start the `conformance` executable, its workers or executors, or sweep whole
/// nights or exhaustive selections, seconds to minutes each (CI runs both).
enum Lane {
  static let endToEnd = ProcessInfo.processInfo.environment["CONFORMANCE_TESTS"] == "all"
}

extension Tag {
  /// A suite of the end-to-end lane (`Lane`).
  @Tag static var endToEnd: Self
}

extension Trait where Self == ConditionTrait {
  /// Runs the suite only in the end-to-end lane (`Lane`).
  static var endToEndLane: Self {
    .enabled(if: Lane.endToEnd, "end-to-end lane: CONFORMANCE_TESTS=all swift test")
  }
}

/// The package's `Corpora/`.
let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpora")

/// A small corpus for engine tests: two locales, two calendars, UTC and Tehran, 2020…2022.
func smallCorpus(locales: [String] = ["en_US", "de_DE"], calendars: [String] = ["gregorian", "persian"],
                 zones: [String] = ["UTC", "Asia/Tehran"], years: ClosedRange<Int> = 2020...2022)
  throws -> Corpus
{
  let key = [locales, calendars, zones, ["\(years)"]].map { $0.joined(separator: ",") }.joined(separator: "|")
  if let corpus = smallCorpora.withLock({ $0[key] }) { return corpus }
  var request = CorpusRequest(corporaDirectory: corpora)
  request.locales = .list(locales)
  request.calendars = .list(calendars)
  request.zones = .list(zones)
  request.years = years
  let corpus = try Corpus.load(request)
  smallCorpora.withLock { $0[key] = corpus }
  return corpus
}

/// Each small corpus, loaded once: a load reads both ICUs' catalogs and zones (a third of a
/// second in a debug build), and the fast lane asks for the same few corpora again and again.
/// A corpus is a value: a test that changes its copy changes no other test's.
private let smallCorpora = Mutex<[String: Corpus]>([:])

/// Runs `checks` over `corpus` with `subject`, collecting everything in memory.
func sweep(_ corpus: Corpus, checks: [String], subject: Subject = .pickerLogic) -> RunTally {
  let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all.filter { checks.contains($0.id) })
  let recorder = RunRecorder()
  Runner(plan: plan, corpus: corpus, subject: subject, workers: 2).run { recorder.record($0) }
  return recorder.tally
}

/// The run record of a results directory, read through the library's own reader.
func runRecord(_ directory: URL) throws -> RunRecord {
  try ResultsDirectory(directory, role: "test", as: RunRecord.self).record
}

/// Every case a results directory records, in plan order.
func recordedCases(_ directory: URL) throws -> [CaseRecord] {
  let reader = try ResultsDirectory(directory, role: "test", as: RunRecord.self).cases()
  var cases: [CaseRecord] = []
  while let record = try reader.next(CaseRecord.self) { cases.append(record) }
  return cases
}

/// A run of the `conformance` executable into a temporary directory, read back before the
/// directory goes: its exit status and stderr, the run record and every case it lists.
struct ExecutableRun {
  var status: Int32
  var stdout: String
  var stderr: String
  var record: RunRecord
  var cases: [CaseRecord]
  /// The run's junit.xml, as written.
  var junit: String

  var summary: StatusCounts { record.summary }
  var checks: [String: StatusCounts] {
    Dictionary(uniqueKeysWithValues: record.checks.map { ($0.id, $0.counts) })
  }

  init(_ arguments: [String], environment: [String: String]) throws {
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-run-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let result = try Executable.run(arguments + ["--out", out.path], environment: environment)
    (status, stdout, stderr) = (result.status, result.out, result.error)
    record = try runRecord(out)
    cases = try recordedCases(out)
    junit = (try? String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)) ?? ""
  }
}
