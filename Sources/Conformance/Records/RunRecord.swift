import Foundation

/// `results.json`: what a run was and what it found, in numbers. Its cases and step records
/// sit beside it as JSON Lines (`files`), so the document stays small however much failed.
public struct RunRecord: Sendable, Codable {
  /// Bumped whenever a reader of an older file would misread this one (3: one typed record;
  /// cases and steps in their own gzip-compressed JSON Lines files).
  public static let schema = "conformance-results/3"

  public var schema = RunRecord.schema
  public var run: RunInfo
  public var elapsedSeconds: Double
  public var summary: StatusCounts
  public var checks: [CheckRecord]
  public var skipReasons: [String: Int]
  /// Failures no waiver explains that are new (what `--fail-on new` counts).
  public var newFailures: Int
  /// Cases per baseline class, every class named (empty without a baseline).
  public var baselineClasses: [String: Int]
  /// Pass counts per check, dimension and value (see `StepRecord.cells`).
  public var matrices: [String: [String: [String: PassCount]]]
  public var files: Files

  /// The files beside `results.json`, relative to it.
  public struct Files: Sendable, Codable, Equatable {
    /// One `StepRecord` per line, in plan order: the plan, each step's counts and cells.
    public var steps: String
    /// One `CaseRecord` per line, in plan order.
    public var cases: String
    /// `not-passing` (every case that did not pass or skip) or `all` (`--record all`).
    public var casesHold: String

    public init(steps: String, cases: String, casesHold: String) {
      self.steps = steps
      self.cases = cases
      self.casesHold = casesHold
    }
  }

  /// One check's counts, as cases and as JUnit testcases.
  public struct CheckRecord: Sendable, Codable, Equatable {
    public var id: String
    public var counts: StatusCounts
    public var testcases: TestcaseCounts
    /// Cases per baseline class (with a baseline): what a later page's trend plots.
    public var baselineClasses: [String: Int]?
  }

  /// How many removed cases `results.json` lists by id (the count is in `baselineClasses`).
  static let removedListed = 1000

  init(_ tally: RunTally, info: RunInfo, files: Files) {
    var run = info
    run.review.removed = Array(info.review.removed.prefix(Self.removedListed))
    self.run = run
    elapsedSeconds = tally.elapsed.rounded(toPlaces: 3)
    summary = tally.totals
    checks = info.checks.map { check in
      CheckRecord(id: check.id, counts: tally.checkCounts[check.id] ?? StatusCounts(),
                  testcases: tally.testcaseCounts(check: check.id),
                  baselineClasses: info.review.baseline == nil ? nil
                    : tally.checkBaselineCounts[check.id] ?? [:])
    }
    skipReasons = tally.skipReasons
    newFailures = tally.newFailures
    baselineClasses = info.review.baseline == nil ? [:]
      : Dictionary(uniqueKeysWithValues: Baseline.Class.allCases.map {
        ($0.rawValue, tally.baselineCounts[$0] ?? 0)
      })
    matrices = tally.matrices
    self.files = files
  }

  /// The default names of the files beside `results.json`.
  static func files(recordAll: Bool) -> Files {
    Files(steps: "steps.jsonl.gz", cases: "cases.jsonl.gz",
          casesHold: recordAll ? "all" : "not-passing")
  }
}

/// A results directory read back: its `results.json` and readers of the files beside it.
/// What `merge` and `--baseline` read; any valid JSON serialization of these files reads the
/// same (compact, pretty-printed, keys reordered, filtered), and the JSON Lines files may be
/// gzip-compressed or not.
public struct ResultsDirectory<Head: Decodable & Sendable>: Sendable {
  /// What was read of `results.json`: the whole `RunRecord`, or as much as a reader needs.
  public let record: Head
  /// The `results.json` read.
  public let url: URL
  public let files: RunRecord.Files

  /// Reads `results.json` at `path`, or in the directory `path`.
  ///
  /// - Parameter role: how the command line named it (`--baseline`, `merge`), for errors.
  /// - Throws: `InputError` naming the file (and what is wrong with it) or the schema.
  public init(_ path: URL, role: String, as type: Head.Type = Head.self) throws(InputError) {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory)
    url = isDirectory.boolValue ? path.appendingPathComponent("results.json") : path
    guard exists, let data = FileManager.default.contents(atPath: url.path) else {
      throw InputError("\(role) \(url.path): cannot read the file")
    }
    let decoder = RecordCoding.decoder()
    let schema: String?
    do {
      schema = try decoder.decode(SchemaProbe.self, from: data).schema
    } catch {
      throw InputError("\(role) \(url.path): not a results.json document (\(JSONValueReader.describe(error)))")
    }
    guard schema == RunRecord.schema else {
      throw InputError("\(role) \(url.path): schema \(schema ?? "missing"), expected \(RunRecord.schema)"
        + (schema == nil ? "" : "; re-record it with this conformance (a run without --baseline)"))
    }
    do {
      record = try decoder.decode(Head.self, from: data)
      files = try decoder.decode(FilesProbe.self, from: data).files
    } catch {
      throw InputError("\(role) \(url.path): \(JSONValueReader.describe(error))")
    }
  }

  /// The step records, in plan order.
  public func steps() throws(InputError) -> JSONValueReader {
    try JSONValueReader(path: companion(files.steps).path)
  }

  /// The cases, in plan order.
  public func cases() throws(InputError) -> JSONValueReader {
    try JSONValueReader(path: companion(files.cases).path)
  }

  /// A file beside `results.json`; one that was decompressed since may have lost its `.gz`.
  func companion(_ name: String) -> URL {
    let directory = url.deletingLastPathComponent()
    let named = directory.appendingPathComponent(name)
    let plain = directory.appendingPathComponent(String(name.dropLast(3)))
    if !FileManager.default.fileExists(atPath: named.path), name.hasSuffix(".gz"),
      FileManager.default.fileExists(atPath: plain.path)
    {
      return plain
    }
    return named
  }
}

/// The schema of a results document, read before anything else.
private struct SchemaProbe: Decodable {
  var schema: String?
}

/// The files a results document names.
private struct FilesProbe: Decodable {
  var files: RunRecord.Files
}
