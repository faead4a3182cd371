import Foundation

/// A sweep's command line while it is read: its options, and the two whose meaning is settled
/// only once every option is read (which waiver file depends on `--corpora` and `--subject`,
/// wherever they come; isolation needs the executable's path).
package struct RunCommandLine {
  package var options: RunOptions
  /// `--waivers` as given: a path, `none`, or `nil` for the corpus's own.
  package var waivers: String?
  /// `--no-isolation` clears it.
  package var isolation = true

  package init(options: RunOptions) { self.options = options }
}

extension RunOptions {
  /// A sweep's options, in the order the help lists them and the run reports them. Adding an
  /// option is one entry here (and the field it sets).
  package static let commandLine: [CommandOption<RunCommandLine>] = [
    .init("--locales", "<set>", default: "core",
          help: "core, all (every libicu locale and Corpora/locale-variants.txt), a comma list, "
            + "or @file",
          reported: [.value { selection($0.request.locales) }]) {
      $0.options.request.locales = try $1.selection()
    },
    .init("--calendars", "<set>", default: "core",
          help: "core (the 17 both sides know), all (adds the calendars only Foundation has, checked "
            + "by invariants), a comma list, or @file",
          reported: [.value { selection($0.request.calendars) }]) {
      $0.options.request.calendars = try $1.selection()
    },
    .init("--first-weekdays", "<list>", default: "all",
          help: "all (own,1,2,3,4,5,6,7), or a comma list of own and 1…7 (1 = Sunday)",
          reported: [.value { $0.request.firstWeekdays.map(\.description).joined(separator: ",") }]) {
      $0.options.request.firstWeekdays = try $1.firstWeekdays()
    },
    .init("--time-zones", "<set>", default: "core",
          help: "core, all (every libicu zone; aliases with their canonical zone's rules are folded "
            + "into it), a comma list, or @file",
          reported: [.value { selection($0.request.zones) }]) {
      $0.options.request.zones = try $1.selection()
    },
    .init("--checks", "<list>", default: "all",
          help: "all, or a comma list of: " + CheckCatalog.all.map(\.id).joined(separator: ", "),
          reported: [.value { $0.checks.isEmpty ? "all" : $0.checks.joined(separator: ",") }]) {
      $0.options.checks = $1.text == "all" ? [] : $1.text.split(separator: ",").map(String.init)
      if $0.options.checks.isEmpty && $1.text != "all" { throw InputError("--checks has an empty value") }
    },
    .init("--years", "<A...B>", default: "1970...2037",
          help: "the window of Gregorian years swept",
          reported: [.value { "\($0.request.years.lowerBound)...\($0.request.years.upperBound)" }]) {
      $0.options.request.years = try $1.years()
    },
    .init("--transitions", "<sample>", default: "shapes for core zones, all otherwise",
          help: "all, or shapes (first and last of each kind of transition per zone)",
          reported: [.value {
            $0.request.transitionSample?.rawValue ?? ($0.request.zones == .core ? "shapes" : "all")
          }]) {
      $0.options.request.transitionSample = try $1.choice(expected: "all or shapes")
    },
    .init("--out", "<dir>", default: "Reports/latest",
          help: "where reports go; replaced only by a run that finishes",
          reported: [.value { $0.out.path }]) {
      $0.options.out = URL(fileURLWithPath: try $1.nonEmpty())
    },
    .init("--record", "<what>", default: "failures",
          help: "failures, or all (cases.jsonl.gz holds every case)",
          reported: [.value { $0.record.rawValue }]) {
      $0.options.record = try $1.choice(expected: "failures or all")
    },
    .init("--baseline", "<file>",
          help: "a previous results.json (or its directory): classify every case as new-failure, "
            + "fixed, still-failing, changed, new-case or removed",
          reported: [.value { $0.baseline?.path ?? "none" }]) {
      $0.options.baseline = URL(fileURLWithPath: try $1.nonEmpty())
    },
    .init("--waivers", "<file|none>", default: "Corpora/known-differences.json; none with an executor",
          help: "known differences",
          reported: [.value { $0.waivers?.path ?? "none" }],
          explain: .init(\.waivers, value: explainWaivers)) {
      $0.waivers = $1.text
    },
    .init("--history", "<dir>",
          help: "earlier nights' results (a results directory or results.json each), for the "
            + "page's trend of new, fixed and still failing") {
      $0.options.history = URL(fileURLWithPath: try $1.nonEmpty())
    },
    .init("--fail-on", "<rule>", default: "unexpected",
          help: "new, unexpected (new failures and unexpected passes), any or none",
          reported: [.value { $0.failOn.rawValue }]) {
      $0.options.failOn = try $1.choice(expected: "new, unexpected, any or none")
    },
    .init("--oracle-stale", "<how>", default: "apart",
          help: "apart: a failure that is only libicu's older data (the published reference shows "
            + "the subject following the release it declares) is counted apart as oracle-stale, "
            + "which no rule counts; fail: a failure like any other",
          reported: [.value { $0.oracleStale.rawValue }]) {
      $0.options.oracleStale = try $1.choice(expected: "apart or fail")
    },
    .init("--jobs", "<n>", default: "the number of cores",
          help: "worker processes",
          reported: [.value { String($0.jobs) }]) {
      $0.options.jobs = try $1.jobs()
    },
    .flag("--no-isolation",
          help: "evaluate in this process (threads) instead of worker processes (faster to debug; "
            + "a trap or hang in the subject ends the run)",
          reported: [.named("isolation") {
            $0.workerExecutable == nil ? "in-process" : "worker processes"
          }]) {
      $0.isolation = false
    },
    .init("--case-timeout", "<s>",
          default: "5 × the slowest case of its check, 2 to 10 s: from the cost model for the seeds' "
            + "logic, from the cases run so far for an executor",
          help: "the CPU seconds a case may spend in a worker before it is stopped as hung (3 × "
            + "that in wall time)",
          reported: [.value { $0.caseTimeout.map { WorkerLimits.number($0) } ?? "measured" }]) {
      guard let seconds = Double($1.text), seconds > 0, seconds.isFinite else {
        throw InputError("--case-timeout '\($1.text)': expected a positive number of CPU seconds")
      }
      $0.options.caseTimeout = seconds
    },
    .init("--shard", "<K/N|auto>",
          help: "run the K-th of N slices of the plan, balanced by expected cost "
            + "(Corpora/step-costs.json); auto reads CONFORMANCE_SHARD=K/N or the CI's own "
            + "variables (GitLab, CircleCI, Buildkite)",
          reported: [.value { $0.shard.map { "\($0.index)/\($0.count)" } ?? "none" },
                     .named("shard-costs") { $0.shardCosts ?? "none" }]) {
      $0.options.shard = $1.text == "auto"
        ? try ShardSelection.fromEnvironment(ProcessInfo.processInfo.environment) : try $1.shard()
    },
    .init("--month-sweep", "<zones>", default: "per-offset for --time-zones all, transition-free otherwise",
          help: "which zones sweep every month: per-offset (one per standard offset) or "
            + "transition-free",
          reported: [.value {
            $0.request.monthSweep?.rawValue ?? ($0.request.zones == .all ? "per-offset" : "transition-free")
          }]) {
      $0.options.request.monthSweep = try $1.choice(expected: "per-offset or transition-free")
    },
    .flag("--exhaustive",
          help: "sweep every month in every zone, folding no month into an equivalent zone's (slow; "
            + "checks the reasoning behind the month selection on a subset)",
          reported: [.value { $0.request.exhaustive ? "yes" : "no" }]) {
      $0.options.request.exhaustive = true
    },
    .init("--oracle", "<mode>", default: "tables",
          help: "tables (zone structure read once per zone) or direct (libicu asked afresh for "
            + "every case)",
          reported: [.value { $0.request.oracleMode.rawValue }]) {
      $0.options.request.oracleMode = try $1.choice(expected: "tables or direct")
    },
    .flag("--dry-run", help: "print what the plan covers and stop") {
      $0.options.dryRun = true
    },
    .init("--subject", "<subject>", default: "picker-logic",
          help: "picker-logic (the seeds' logic, in Swift), or exec:<command>: a process that "
            + "answers the subject's questions as JSON Lines (Schemas/executor-protocol.schema.json; "
            + "the contract in words: Documentation/ExecutorProtocol.md)",
          reported: [.value { $0.subjectCommand.map { "exec:" + $0 } ?? "picker-logic" }],
          explain: .init(\.subject, prefix: "exec:") { $0.subjectCommand }) {
      $0.options.subjectCommand = try $1.subject()
    },
    .init("--subject-log", "<file>",
          help: "with exec:, record every question and its answer (or fault), a JSON line each "
            + "(Schemas/executor-transcript.schema.json)") {
      $0.options.subjectLog = URL(fileURLWithPath: try $1.nonEmpty())
    },
    .corpora(explain: .init(\.corpora, value: explainCorpora)) {
      $0.options.request.corporaDirectory = $1
    },
    .answer("--version", help: "Show the version."),
  ]

  /// The options as (name, value) pairs for reports, in the table's order.
  var reported: [RunInfo.RunOption] {
    Self.commandLine.flatMap { option in
      option.reported.map { RunInfo.RunOption($0.key ?? String(option.name.dropFirst(2)), $0.value(self)) }
    }
  }

  private static func selection(_ value: CorpusRequest.Selection) -> String {
    switch value {
    case .core: "core"
    case .all: "all"
    case .list(let values): values.joined(separator: ",")
    case .file(let path): "@" + path
    }
  }

  /// The waivers an explain command names: none when it reads the run's by default (as a
  /// run, the corpus's file, but none for an executor), else the file or `none`.
  private static func explainWaivers(_ options: RunOptions) -> String? {
    let own = options.request.corporaDirectory.standardizedFileURL
      .appendingPathComponent(Corpus.Files.waivers)
    let byDefault = options.subjectCommand == nil && FileManager.default.fileExists(atPath: own.path)
      ? own.standardizedFileURL.path : nil
    let waivers = options.waivers?.standardizedFileURL.path
    return waivers == byDefault ? nil : waivers ?? "none"
  }

  /// The corpora an explain command names: always when it starts the binary by its path (so
  /// it means the same from any directory), else only when not `Corpora` here.
  private static func explainCorpora(_ options: RunOptions) -> String? {
    let corpora = options.request.corporaDirectory.standardizedFileURL
    let local = URL(fileURLWithPath: "Corpora").standardizedFileURL
    return corpora.path == local.path && options.explainLauncher == nil ? nil : corpora.path
  }
}
