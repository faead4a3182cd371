@_exported import Conformance
import Foundation
@_exported import PickerLogic
import Testing

/// Sweeps a subject of your own (`SubjectFunctions`) over the corpus, in your process, and
/// writes the same reports as `conformance` (results, JUnit, page).
///
///     var mine = SubjectFunctions(name: "MyPicker")
///     mine.leadingBlanks = { month, calendar in MyPicker.blanks(before: month, in: calendar) }
///     var sweep = ConformanceSweep(mine)
///     sweep.options.checks = ["leading-blanks"]
///     sweep.options.request.zones = .list(["UTC", "America/Sao_Paulo"])
///     let result = try sweep.run()
///
/// The defaults are the CLI's: the core corpus, every check, the shipped waivers about
/// Foundation and libicu (`Corpora/known-differences.json`: a subject on this Foundation
/// meets those differences too; the waivers about the seeds' logic never apply to yours),
/// reports in a temporary directory unless `options.out` is set.
/// The subject runs in `options.jobs` worker processes, so that a trap or a hang in it costs
/// the cases it touches (errored, one signature a fault), never the test run: by default the
/// test binary itself, started again on the one Swift Testing test that runs the sweep, in
/// which `run()` serves the parent instead of sweeping (the test's code before the sweep runs
/// again in each worker, so keep it free of side effects); or `worker`, an executable of
/// yours (`ConformanceWorker`). Outside a Swift Testing test, or with `inProcess`, it runs on
/// threads of this process, where a trap ends it and a loop never returns.
public struct ConformanceSweep: Sendable {
  public var functions: SubjectFunctions
  public var options: RunOptions
  /// The executable that serves this sweep's worker processes: one of yours whose main is
  /// `ConformanceWorker.main` with the same functions. `nil` (the default): the test binary
  /// running the sweep.
  public var worker: URL?
  /// Runs the functions on threads of this process instead (faster to debug; a trap ends the
  /// test run and a loop never returns).
  public var inProcess = false

  /// This package's `Corpora/`, found from this file's path (as a dependency by path or as a
  /// checkout, its sources are on disk).
  public static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpora")

  public init(_ functions: SubjectFunctions, corpora: URL = ConformanceSweep.corpora) {
    self.functions = functions
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-\(functions.name)-\(UUID().uuidString)")
    options = RunOptions(request: CorpusRequest(corporaDirectory: corpora), out: out)
    let waivers = corpora.appendingPathComponent("known-differences.json")
    options.waivers = FileManager.default.fileExists(atPath: waivers.path) ? waivers : nil
  }

  /// Explains one case of this sweep with your functions, as `conformance explain` does for
  /// the seeds' logic: its inputs, both sides' values, triage and status under the sweep's
  /// waivers. For a sweep on threads, whose cases no shell command reaches.
  ///
  /// - Throws: `InputError` for a malformed id or one libicu does not know.
  public func explain(_ id: String) throws -> (status: Conformance.ExitStatus, lines: [String]) {
    try Explanation.run(id, corporaDirectory: options.request.corporaDirectory, waivers: options.waivers,
                        subject: functions.subject)
  }

  /// The command this sweep's reports print for a case: through `worker` when there is one.
  var explainCommand: ExplainCommand {
    var command = ExplainCommand(options)
    if let worker { command.executable = worker.lastPathComponent } else { command.inProcess = functions.name }
    return command
  }

  /// Set in the environment of a test binary started again as a sweep's worker: the name of
  /// the subject it serves.
  static let workerVariable = "CONFORMANCE_KIT_WORKER"

  /// Runs the sweep; the reports are in `options.out`. In a test binary started again as this
  /// sweep's worker, serves the sweep that started it instead, and ends the process.
  ///
  /// - Throws: `InputError` for a bad selection (an unknown check, locale or zone),
  ///   `HarnessError` when the harness fails. Findings are the result, not errors.
  public func run() throws -> ConformanceRun.Result {
    if let serving = ProcessInfo.processInfo.environment[Self.workerVariable] {
      ConformanceWorker.serveSweep(functions, startedFor: serving)
    }
    var options = options
    if let worker {
      options.workerExecutable = worker
    } else if !inProcess, let test = Test.current, let binary = Self.testBinary() {
      options.workerExecutable = binary
      options.workerLaunch = WorkerLaunch(
        arguments: ["--testing-library", "swift-testing", "--filter", Self.filter(test.id)],
        environment: [Self.workerVariable: functions.name], explainsInProcess: true)
    }
    // SIGTERM or SIGINT to this process, or `swift test` killed (this process reparented):
    // the workers go, what ran is written as `<out>.partial`, and the process ends (143).
    Interruption.install()
    return try Interruption.whileParentLives { try ConformanceRun.run(options, subject: functions.subject) }
  }

  /// This process's executable, when it can be started again (the test binary on Linux).
  static func testBinary() -> URL? {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return FileManager.default.isExecutableFile(atPath: binary.path) && binary.path != "/proc/self/exe" ? binary : nil
  }

  /// The `--filter` that selects exactly the test `id` (a regular expression over
  /// `Module.Suite/test()`, its metacharacters escaped).
  static func filter(_ id: Test.ID) -> String {
    let name = ([id.moduleName] + [id.nameComponents.joined(separator: "/")]).joined(separator: ".")
    // The library matches it against the id with its source location (`…()/File.swift:9:2`).
    return "^" + NSRegularExpression.escapedPattern(for: name) + "(/|$)"
  }

  /// The executable product `name` of your package, built next to the test bundle running
  /// this (`.build/debug/name`), for `worker`. `swift test` builds every product of the
  /// package first.
  ///
  /// - Throws: `InputError` when there is none: it names where it looked.
  public static func executable(named name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw InputError("no executable '\(name)' next to \(CommandLine.arguments[0]) or up to 4 directories "
      + "above it: is it a product of this package (swift build builds it)?")
  }

  /// Runs the sweep from a Swift Testing test and records one issue per failure cluster the
  /// run counts against it (new failures and unexpected passes, as `--fail-on` says): its
  /// check, pattern and count, an example case with both sides' values, and the `explain`
  /// command for it. One issue per cluster, not per case: a sweep of a million cases stays
  /// one test with a readable report. Returns the result for further expectations.
  @discardableResult
  public func expectConformance(sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ConformanceRun.Result
  {
    let result = try run()
    for cluster in result.clusters where [.failed, .errored, .unexpectedPass].contains(cluster.status) {
      Issue.record(Comment(rawValue: Self.describe(cluster, reports: options.out, explain: explainCommand)),
                   sourceLocation: sourceLocation)
    }
    return result
  }

  /// A cluster in a few lines, for an issue.
  static func describe(_ cluster: FailureCluster, reports: URL, explain: ExplainCommand) -> String {
    var lines = ["\(cluster.check): \(cluster.count) cases \(cluster.status.rawValue): "
      + (cluster.pattern.isEmpty ? "(no pattern)" : cluster.pattern)]
    if let example = cluster.examples.first {
      lines.append("e.g. \(example.id)")
      if example.outcome.verdict != .errored {
        lines.append("  expected (libicu): \(example.outcome.expected)")
        lines.append("  actual:            \(example.outcome.actual)")
      }
      lines += example.outcome.detail.prefix(2).map { "  \($0)" }
      lines.append("  explain: \(explain.text(for: example.id))")
    }
    lines.append("reports: \(reports.path)")
    return lines.joined(separator: "\n")
  }
}
