import Conformance
import Foundation

/// What the command line asks for.
enum Command {
  case run(RunOptions)
  case explain(caseID: String, corpora: URL, waivers: URL?, subjectCommand: String?)
  case bench(quick: Bool, jobs: Int, out: URL, corpora: URL)
  /// `bench --shards 4,8`: each split's shards of the full sweep alone, then their merge.
  case benchShards(counts: [Int], passes: Int, jobs: Int, out: URL, corpora: URL)
  case benchPair(kind: Benchmark.PairKind, quick: Bool, pairs: Int, jobs: Int, out: URL, corpora: URL)
  case merge(shards: [URL], out: URL)
  /// `compare BEFORE AFTER`: two runs compared case by case.
  case compare(before: URL, after: URL, show: Int)
  /// `schema case-record`: a record's JSON Schema, generated from its keys.
  case schema(record: String)
  case selfTest(jobs: Int, corpora: URL, mutants: [Mutant], realRun: URL?)
  case worker
  /// `costs <results-dir>`: fit the step cost model shards are balanced by.
  case costs(results: URL, corpora: URL)
  /// `executor`: the executor protocol answered with PickerLogic, or with the contract's
  /// rules (`--contract`), with faults on purpose.
  case executor(misbehaviours: [ExecutorServer.Misbehaviour], slowReads: URL?, contract: Bool)
  /// `--help`, `help` or `help <subcommand>`: the whole help, or one subcommand's.
  case help(topic: String?)
  case version
}

/// A hand-written parser following swift-argument-parser's conventions: kebab-case options,
/// `--opt value` and `--opt=value`, `--` ends options, validation across options after parsing.
struct CommandLineParser {
  var arguments: [String]
  var defaultCorpora: URL

  func parse() throws(InputError) -> Command {
    let rest = arguments.dropFirst()
    switch arguments.first {
    case "__worker"?: return try parseWorker(Array(rest))
    case "bench"?: return try parseBench(rest)
    case "self-test"?: return try parseSelfTest(rest)
    case "merge"?: return try parseMerge(rest)
    case "compare"?: return try parseCompare(rest)
    case "schema"?: return try parseSchema(rest)
    case "explain"?: return try parseExplain(rest)
    case "executor"?: return try parseExecutor(rest)
    case "costs"?: return try parseCosts(rest)
    case "help"?:
      guard let topic = rest.first else { return .help(topic: nil) }
      guard Help.topics.contains(topic) else {
        throw InputError("no help for '\(topic)' (subcommands: \(Help.topics.joined(separator: ", ")))"
          + Suggestion.didYouMean(topic, among: Help.topics))
      }
      return .help(topic: topic)
    default: return try parseRun(arguments[...])
    }
  }

  /// A worker process: its run comes on stdin, in its first line (`WorkerSetup`).
  func parseWorker(_ arguments: [String]) throws(InputError) -> Command {
    guard arguments.isEmpty else {
      throw InputError("__worker takes no arguments (its run is its first line on stdin): \(arguments.joined(separator: " "))")
    }
    return .worker
  }

  func parseCosts(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var corpora = defaultCorpora
    var results: URL?
    while let argument = remaining.popFirst() {
      switch optionName(argument) {
      case "-h", "--help": return .help(topic: "costs")
      case "--corpora": corpora = URL(fileURLWithPath: try value(argument, &remaining))
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: "costs") }
        guard results == nil else { throw InputError("costs takes one results directory, got '\(argument)' too") }
        results = URL(fileURLWithPath: argument)
      }
    }
    guard let results else { throw InputError("costs needs a results directory (a run's --out)") }
    return .costs(results: results, corpora: corpora)
  }

  func parseExecutor(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var misbehaviours: [ExecutorServer.Misbehaviour] = []
    var slowReads: URL?
    var contract = false
    while let argument = remaining.popFirst() {
      switch optionName(argument) {
      case "-h", "--help": return .help(topic: "executor")
      case "--contract": contract = true
      case "--misbehave": misbehaviours.append(try ExecutorServer.Misbehaviour(try value(argument, &remaining)))
      case "--slow-reads": slowReads = URL(fileURLWithPath: try value(argument, &remaining))
      default: throw unknownOption(argument, for: "executor")
      }
    }
    return .executor(misbehaviours: misbehaviours, slowReads: slowReads, contract: contract)
  }

  func parseBench(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var quick = false
    var jobs = ProcessInfoCores.count
    var out: URL?
    var corpora = defaultCorpora
    var shards: [Int]?
    var passes: Int?
    var pairKind: Benchmark.PairKind?
    while let argument = remaining.popFirst() {
      switch optionName(argument) {
      case "-h", "--help": return .help(topic: "bench")
      case "--quick": quick = true
      case "--holes", "--reference":
        let kind: Benchmark.PairKind = argument == "--holes" ? .holes : .reference
        if let pairKind, pairKind != kind {
          throw InputError("bench: --holes and --reference are two benches; run one at a time")
        }
        pairKind = kind
      case "--shards":
        let text = try value(argument, &remaining)
        let counts = text.split(separator: ",").map { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 2 }) else {
          throw InputError("--shards '\(text)': expected shard counts of 2 or more, e.g. 4,8")
        }
        guard Set(counts).count == counts.count else {
          throw InputError("--shards '\(text)': a shard count is named twice (use --passes to repeat a split)")
        }
        shards = counts.compactMap { $0 }
      case "--passes":
        let text = try value(argument, &remaining)
        guard let count = Int(text), (1...9).contains(count) else {
          throw InputError("--passes '\(text)': expected how many times to run each shard (or pair), 1 to 9")
        }
        passes = count
      case "--jobs": jobs = try jobCount(argument, &remaining)
      case "--out": out = URL(fileURLWithPath: try value(argument, &remaining))
      case "--corpora": corpora = URL(fileURLWithPath: try value(argument, &remaining))
      default: throw unknownOption(argument, for: "bench")
      }
    }
    if let pairKind {
      if shards != nil {
        throw InputError("bench: --\(pairKind.rawValue) and --shards are two benches; run one at a time")
      }
      return .benchPair(kind: pairKind, quick: quick, pairs: passes ?? (quick ? 3 : 1), jobs: jobs,
                        out: out ?? URL(fileURLWithPath: "Reports/bench-\(pairKind.rawValue).json"), corpora: corpora)
    }
    if let shards {
      if quick { throw InputError("bench: --shards splits the full sweep; it does not go with --quick") }
      return .benchShards(counts: shards, passes: passes ?? 1, jobs: jobs,
                          out: out ?? URL(fileURLWithPath: "Reports/bench-shards.json"), corpora: corpora)
    }
    if passes != nil {
      throw InputError("bench: --passes repeats the shards of --shards or the pairs of --holes and --reference")
    }
    return .bench(quick: quick, jobs: jobs, out: out ?? URL(fileURLWithPath: "Reports/bench.json"),
                  corpora: corpora)
  }

  func parseSelfTest(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var jobs = ProcessInfoCores.count
    var corpora = defaultCorpora
    var mutants = Mutant.all
    var realRun: URL?
    while let argument = remaining.popFirst() {
      switch optionName(argument) {
      case "-h", "--help": return .help(topic: "self-test")
      case "--jobs": jobs = try jobCount(argument, &remaining)
      case "--corpora": corpora = URL(fileURLWithPath: try value(argument, &remaining))
      case "--real-run": realRun = URL(fileURLWithPath: try value(argument, &remaining))
      case "--mutants":
        let names = try value(argument, &remaining).split(separator: ",").map(String.init)
        mutants = []
        for name in names {
          guard let mutant = Mutant.all.first(where: { $0.name == name }) else {
            throw InputError("--mutants: no mutant '\(name)' (known: "
              + Mutant.all.map(\.name).joined(separator: ", ") + ")")
          }
          mutants.append(mutant)
        }
      default: throw unknownOption(argument, for: "self-test")
      }
    }
    return .selfTest(jobs: jobs, corpora: corpora, mutants: mutants, realRun: realRun)
  }

  func parseMerge(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var shards: [URL] = []
    var out = URL(fileURLWithPath: "Reports/latest")
    while let argument = remaining.popFirst() {
      if argument == "-h" || argument == "--help" { return .help(topic: "merge") }
      if optionName(argument) == "--out" {
        out = URL(fileURLWithPath: try value(argument, &remaining))
      } else if argument.hasPrefix("-") {
        throw unknownOption(argument, for: "merge")
      } else {
        shards.append(URL(fileURLWithPath: argument))
      }
    }
    guard !shards.isEmpty else { throw InputError("merge needs the shards' report directories") }
    return .merge(shards: shards, out: out)
  }

  func parseCompare(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var runs: [URL] = []
    var show = 3
    while let argument = remaining.popFirst() {
      if argument == "-h" || argument == "--help" { return .help(topic: "compare") }
      if optionName(argument) == "--show" {
        let text = try value(argument, &remaining)
        guard let count = Int(text), count >= 0 else {
          throw InputError("--show '\(text)' is not a count of examples (0 or more)")
        }
        show = count
      } else if argument.hasPrefix("-") {
        throw unknownOption(argument, for: "compare")
      } else {
        runs.append(URL(fileURLWithPath: argument))
      }
    }
    guard runs.count == 2 else {
      throw InputError("compare needs two report directories, BEFORE and AFTER (got \(runs.count))")
    }
    return .compare(before: runs[0], after: runs[1], show: show)
  }

  func parseSchema(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(topic: "schema") }
    if let option = arguments.first(where: { $0.hasPrefix("-") }) { throw unknownOption(option, for: "schema") }
    guard arguments.count == 1, let record = arguments.first else {
      throw InputError("schema needs one record name: \(Help.schemaRecords.joined(separator: ", ")) (got \(arguments.count))")
    }
    guard Help.schemaRecords.contains(record) else {
      throw InputError("no schema for '\(record)' (records: \(Help.schemaRecords.joined(separator: ", ")))"
        + Suggestion.didYouMean(record, among: Help.schemaRecords))
    }
    return .schema(record: record)
  }

  func parseExplain(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var corpora = defaultCorpora
    var waivers: String?
    var subjectCommand: String?
    var caseID: String?
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if !optionsEnded, argument == "--" { optionsEnded = true; continue }
      if !optionsEnded, argument == "-h" || argument == "--help" { return .help(topic: "explain") }
      if !optionsEnded, optionName(argument) == "--corpora" {
        corpora = URL(fileURLWithPath: try value(argument, &remaining))
        continue
      }
      if !optionsEnded, optionName(argument) == "--waivers" {
        waivers = try value(argument, &remaining)
        continue
      }
      if !optionsEnded, optionName(argument) == "--subject" {
        subjectCommand = try subject(try nonEmptyValue(argument, &remaining))
        continue
      }
      if !optionsEnded, argument.hasPrefix("-") {
        throw unknownOption(argument, for: "explain")
      }
      guard caseID == nil else { throw InputError("explain takes one case id, got '\(argument)' too") }
      caseID = argument
    }
    guard let caseID else { throw InputError("explain needs a case id") }
    // As a run: the shipped waivers explain Foundation's differences, not an executor's.
    return .explain(caseID: caseID, corpora: corpora,
                    waivers: waivers == nil && subjectCommand != nil ? nil : waiverFile(waivers, corpora: corpora),
                    subjectCommand: subjectCommand)
  }

  /// A sweep: the selection, where it writes, what it expects; cross-option defaults last.
  func parseRun(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var remaining = arguments
    var options = RunOptions(request: CorpusRequest(corporaDirectory: defaultCorpora),
                             out: URL(fileURLWithPath: "Reports/latest"))
    options.arguments = self.arguments
    // The explain commands a run prints start this binary by its absolute path: pasted in a
    // CI log's directory, /tmp or another checkout, `swift run` finds no package.
    options.explainLauncher = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var waivers: String?
    var isolation = true
    while let argument = remaining.popFirst() {
      if argument == "--" {
        if let extra = remaining.first { throw InputError("unexpected argument '\(extra)'") }
        break
      }
      switch optionName(argument) {
      case "-h", "--help": return .help(topic: nil)
      case "--version": return .version
      case "--waivers": waivers = try value(argument, &remaining)
      case "--no-isolation": isolation = false
      default: try parseRunOption(argument, &remaining, into: &options)
      }
    }
    // Worker processes run this very executable.
    if isolation {
      options.workerExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    if options.subjectLog != nil, options.subjectCommand == nil {
      throw InputError("--subject-log records what an executor was asked: it needs --subject exec:<command>")
    }
    // The shipped waivers explain Foundation's differences; an executor's are its own.
    options.waivers = waivers == nil && options.subjectCommand != nil
      ? nil : waiverFile(waivers, corpora: options.request.corporaDirectory)
    return .run(options)
  }

  /// The corpus's waiver file unless `--waivers` names another, or `none`.
  func waiverFile(_ option: String?, corpora: URL) -> URL? {
    switch option {
    case "none"?: return nil
    case let path?: return URL(fileURLWithPath: path)
    case nil:
      let file = corpora.appendingPathComponent(Corpus.Files.waivers)
      return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
  }

  /// One option of a sweep, with its value taken from `argument` or `remaining`.
  func parseRunOption(_ argument: String, _ remaining: inout ArraySlice<String>,
                      into options: inout RunOptions) throws(InputError) {
    let name = optionName(argument)
    switch name {
    case "--locales":
      options.request.locales = try selection(name, try value(argument, &remaining))
    case "--calendars":
      options.request.calendars = try selection(name, try value(argument, &remaining))
    case "--time-zones":
      options.request.zones = try selection(name, try value(argument, &remaining))
    case "--first-weekdays":
      options.request.firstWeekdays = try firstWeekdays(try value(argument, &remaining))
    case "--years":
      options.request.years = try years(try value(argument, &remaining))
    case "--transitions":
      options.request.transitionSample = try choice(name, try value(argument, &remaining),
                                                    expected: "all or shapes")
    case "--corpora":
      options.request.corporaDirectory = URL(fileURLWithPath: try value(argument, &remaining))
    case "--checks":
      let text = try value(argument, &remaining)
      options.checks = text == "all" ? [] : text.split(separator: ",").map(String.init)
      if options.checks.isEmpty && text != "all" { throw InputError("--checks has an empty value") }
    case "--out":
      options.out = URL(fileURLWithPath: try nonEmptyValue(argument, &remaining))
    case "--record":
      options.record = try choice(name, try value(argument, &remaining), expected: "failures or all")
    case "--jobs": options.jobs = try jobCount(argument, &remaining)
    case "--shard":
      let text = try value(argument, &remaining)
      options.shard = text == "auto"
        ? try ShardSelection.fromEnvironment(ProcessInfo.processInfo.environment) : try shard(text)
    case "--baseline":
      options.baseline = URL(fileURLWithPath: try nonEmptyValue(argument, &remaining))
    case "--history":
      options.history = URL(fileURLWithPath: try nonEmptyValue(argument, &remaining))
    case "--fail-on":
      options.failOn = try choice(name, try value(argument, &remaining),
                                  expected: "new, unexpected, any or none")
    case "--case-timeout":
      let text = try value(argument, &remaining)
      guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw InputError("--case-timeout '\(text)': expected a positive number of CPU seconds")
      }
      options.caseTimeout = seconds
    case "--oracle-stale":
      options.oracleStale = try choice(name, try value(argument, &remaining), expected: "apart or fail")
    case "--oracle":
      options.request.oracleMode = try choice(name, try value(argument, &remaining),
                                              expected: "tables or direct")
    case "--month-sweep":
      options.request.monthSweep = try choice(name, try value(argument, &remaining),
                                              expected: "per-offset or transition-free")
    case "--exhaustive":
      options.request.exhaustive = true
    case "--dry-run":
      options.dryRun = true
    case "--subject":
      options.subjectCommand = try subject(try nonEmptyValue(argument, &remaining))
    case "--subject-log":
      options.subjectLog = URL(fileURLWithPath: try nonEmptyValue(argument, &remaining))
    default:
      guard argument.hasPrefix("-") else {
        throw InputError("unexpected argument '\(argument)'"
          + Suggestion.didYouMean(argument, among: Help.topics))
      }
      throw unknownOption(argument, for: nil)
    }
  }

  /// An option no subcommand (`nil`: a sweep) knows, with the closest one it does know.
  func unknownOption(_ argument: String, for subcommand: String?) -> InputError {
    let name = optionName(argument)
    return InputError("unknown option '\(name)'" + (subcommand.map { " for \($0)" } ?? "")
      + Suggestion.didYouMean(name, among: Help.options(of: subcommand)))
  }

  /// An option's name without an `=value` part.
  func optionName(_ argument: String) -> String {
    argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
  }

  /// One of an option's named values, or bad input naming the option, the value and the
  /// choices.
  func choice<Value: RawRepresentable & CaseIterable>(_ option: String, _ text: String,
                                                      expected: String)
    throws(InputError) -> Value where Value.RawValue == String
  {
    guard let value = Value(rawValue: text) else {
      throw InputError("\(option) \(text): expected \(expected)"
        + Suggestion.didYouMean(text, among: Value.allCases.map(\.rawValue)))
    }
    return value
  }

  /// A value that must not be empty (a path).
  func nonEmptyValue(_ argument: String, _ remaining: inout ArraySlice<String>)
    throws(InputError) -> String
  {
    let text = try value(argument, &remaining)
    guard !text.isEmpty else { throw InputError("\(optionName(argument)) has an empty value") }
    return text
  }

  /// `--subject`'s value: `nil` for picker-logic, else an executor's command.
  func subject(_ text: String) throws(InputError) -> String? {
    if text == "picker-logic" { return nil }
    guard text.hasPrefix("exec:"), !text.dropFirst(5).allSatisfy(\.isWhitespace) else {
      throw InputError("--subject '\(text)': expected picker-logic or exec:<command>")
    }
    return String(text.dropFirst(5))
  }

  /// The value of `--jobs`, for a run, `bench` and `self-test` alike.
  func jobCount(_ argument: String, _ remaining: inout ArraySlice<String>) throws(InputError)
    -> Int
  {
    let text = try value(argument, &remaining)
    guard let jobs = Int(text), (1...256).contains(jobs) else {
      throw InputError("--jobs \(text): expected a number from 1 to 256")
    }
    return jobs
  }

  /// The value of `--opt=value` or of `--opt value`.
  func value(_ argument: String, _ remaining: inout ArraySlice<String>) throws(InputError)
    -> String
  {
    if let equals = argument.firstIndex(of: "=") {
      return String(argument[argument.index(after: equals)...])
    }
    guard let next = remaining.first, !next.hasPrefix("--") else {
      throw InputError("missing value for '\(argument)'")
    }
    remaining = remaining.dropFirst()
    return next
  }

  func selection(_ option: String, _ text: String) throws(InputError) -> CorpusRequest.Selection {
    guard !text.isEmpty, text != "@" else { throw InputError("\(option) has an empty value") }
    return CorpusRequest.Selection(parsing: text)
  }

  func firstWeekdays(_ text: String) throws(InputError) -> [FirstWeekdaySetting] {
    if text == "all" { return FirstWeekdaySetting.all }
    var settings: [FirstWeekdaySetting] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let setting = FirstWeekdaySetting(String(part)) else {
        throw InputError("--first-weekdays: '\(part)' is not all, own or 1…7")
      }
      if !settings.contains(setting) { settings.append(setting) }
    }
    return settings
  }

  func years(_ text: String) throws(InputError) -> ClosedRange<Int> {
    let parts = text.components(separatedBy: "...")
    guard parts.count <= 2, let low = Int(parts[0]), let high = Int(parts.last ?? "") else {
      throw InputError("--years \(text): expected A...B, e.g. 1970...2037")
    }
    guard low <= high else { throw InputError("--years \(text): \(low) comes after \(high)") }
    let supported = CorpusRequest.supportedYears
    guard supported.contains(low), supported.contains(high) else {
      throw InputError("--years \(text): outside \(supported.lowerBound)...\(supported.upperBound)")
    }
    return low...high
  }

  func shard(_ text: String) throws(InputError) -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { throw InputError("--shard \(text): expected K/N with 1 ≤ K ≤ N, e.g. 2/4, or auto") }
    return (index, count)
  }
}
