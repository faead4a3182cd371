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
/// The subject runs on `options.jobs` threads unless `worker` is set: then in that many
/// worker processes, so that a trap or a hang in it costs the cases it touches, not the test
/// run (`ConformanceWorker`).
public struct ConformanceSweep: Sendable {
  public var functions: SubjectFunctions
  public var options: RunOptions
  /// The executable that serves this sweep's worker processes: one of yours whose main is
  /// `ConformanceWorker.main` with the same functions. `nil` (the default): the functions
  /// run on threads of this process, and a trap in them ends it.
  public var worker: URL?

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

  /// Runs the sweep; the reports are in `options.out`.
  ///
  /// - Throws: `InputError` for a bad selection (an unknown check, locale or zone),
  ///   `HarnessError` when the harness fails. Findings are the result, not errors.
  public func run() throws -> ConformanceRun.Result {
    var options = options
    options.workerExecutable = worker
    return try ConformanceRun.run(options, subject: functions.subject)
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
