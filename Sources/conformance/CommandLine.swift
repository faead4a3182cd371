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
  /// `bench --breakdown`: where a sweep's CPU goes, by check and by side.
  case benchBreakdown(quick: Bool, jobs: Int, out: URL, corpora: URL)
  case merge(shards: [URL], out: URL)
  /// `compare BEFORE AFTER`: two runs compared case by case.
  case compare(before: URL, after: URL, show: Int, lines: Bool, except: Set<String>)
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

/// The command line read by each subcommand's table (`Subcommands`, the sweep's
/// `RunOptions.commandLine`); what spans several options is checked once all are read.
struct CommandLineParser {
  var arguments: [String]
  var defaultCorpora: URL

  func parse() throws(InputError) -> Command {
    let rest = arguments.dropFirst()
    switch arguments.first {
    case "__worker"?:
      guard rest.isEmpty else {
        throw InputError("__worker takes no arguments (its run is its first line on stdin): "
          + rest.joined(separator: " "))
      }
      return .worker
    case "help"?:
      guard let topic = rest.first else { return .help(topic: nil) }
      guard Help.topics.contains(topic) else {
        throw InputError("no help for '\(topic)' (subcommands: \(Help.topics.joined(separator: ", ")))"
          + Suggestion.didYouMean(topic, among: Help.topics))
      }
      return .help(topic: topic)
    case "explain"?: return try explain(rest)
    case "bench"?: return try bench(rest)
    case "merge"?: return try merge(rest)
    case "compare"?: return try compare(rest)
    case "schema"?: return try schema(rest)
    case "self-test"?: return try selfTest(rest)
    case "executor"?: return try executor(rest)
    case "costs"?: return try costs(rest)
    default: return try run(arguments[...])
    }
  }

  /// A sweep: its options, then the defaults that depend on several of them.
  func run(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    var start = RunCommandLine(options: RunOptions(request: CorpusRequest(corporaDirectory: defaultCorpora),
                                                   out: URL(fileURLWithPath: "Reports/latest")))
    start.options.arguments = self.arguments
    // The explain commands a run prints start this binary by its absolute path: pasted in a
    // CI log's directory, /tmp or another checkout, `swift run` finds no package.
    start.options.explainLauncher = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let line: RunCommandLine
    switch try Subcommands.run.parse(arguments, into: start) {
    case .answer("--version"): return .version
    case .answer: return .help(topic: nil)
    case .parsed(let parsed): line = parsed
    }
    var options = line.options
    // Worker processes run this very executable.
    if line.isolation {
      options.workerExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    if options.subjectLog != nil, options.subjectCommand == nil {
      throw InputError("--subject-log records what an executor was asked: it needs --subject exec:<command>")
    }
    // The shipped waivers explain Foundation's differences; an executor's are its own.
    options.waivers = line.waivers == nil && options.subjectCommand != nil
      ? nil : WaiverFile.chosen(line.waivers, corpora: options.request.corporaDirectory)
    return .run(options)
  }

  func explain(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    let parsing = try Subcommands.explain.parse(arguments, into: .init(corpora: defaultCorpora))
    guard case .parsed(let line) = parsing else { return .help(topic: "explain") }
    guard let caseID = line.caseID else { throw InputError("explain needs a case id") }
    return .explain(caseID: caseID, corpora: line.corpora, waivers: line.waiverFile,
                    subjectCommand: line.subjectCommand)
  }

  func bench(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let line) = try Subcommands.bench.parse(arguments, into: .init(corpora: defaultCorpora))
    else { return .help(topic: "bench") }
    if line.breakdown {
      if line.pairKind != nil || line.shards != nil || line.passes != nil {
        throw InputError("bench: --breakdown is a bench of its own; run it without --holes, --reference, "
          + "--shards and --passes")
      }
      return .benchBreakdown(quick: line.quick, jobs: line.jobs,
                             out: line.out ?? URL(fileURLWithPath: "Reports/bench-breakdown.json"),
                             corpora: line.corpora)
    }
    if let pairKind = line.pairKind {
      if line.shards != nil {
        throw InputError("bench: --\(pairKind.rawValue) and --shards are two benches; run one at a time")
      }
      return .benchPair(kind: pairKind, quick: line.quick, pairs: line.passes ?? (line.quick ? 3 : 1),
                        jobs: line.jobs,
                        out: line.out ?? URL(fileURLWithPath: "Reports/bench-\(pairKind.rawValue).json"),
                        corpora: line.corpora)
    }
    if let shards = line.shards {
      if line.quick { throw InputError("bench: --shards splits the full sweep; it does not go with --quick") }
      return .benchShards(counts: shards, passes: line.passes ?? 1, jobs: line.jobs,
                          out: line.out ?? URL(fileURLWithPath: "Reports/bench-shards.json"),
                          corpora: line.corpora)
    }
    if line.passes != nil {
      throw InputError("bench: --passes repeats the shards of --shards or the pairs of --holes and "
        + "--reference")
    }
    return .bench(quick: line.quick, jobs: line.jobs,
                  out: line.out ?? URL(fileURLWithPath: "Reports/bench.json"), corpora: line.corpora)
  }

  func merge(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let line) = try Subcommands.merge.parse(arguments, into: .init())
    else { return .help(topic: "merge") }
    guard !line.shards.isEmpty else { throw InputError("merge needs the shards' report directories") }
    return .merge(shards: line.shards, out: line.out)
  }

  func compare(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let line) = try Subcommands.compare.parse(arguments, into: .init())
    else { return .help(topic: "compare") }
    guard line.runs.count == 2 else {
      throw InputError("compare needs two report directories, BEFORE and AFTER (got \(line.runs.count))")
    }
    return .compare(before: line.runs[0], after: line.runs[1], show: line.show, lines: line.lines, except: line.except)
  }

  func schema(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let records) = try Subcommands.schema.parse(arguments, into: [])
    else { return .help(topic: "schema") }
    guard records.count == 1, let record = records.first else {
      throw InputError("schema needs one record name: \(Help.schemaRecords.joined(separator: ", ")) "
        + "(got \(records.count))")
    }
    guard Help.schemaRecords.contains(record) else {
      throw InputError("no schema for '\(record)' (records: \(Help.schemaRecords.joined(separator: ", ")))"
        + Suggestion.didYouMean(record, among: Help.schemaRecords))
    }
    return .schema(record: record)
  }

  func selfTest(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    let parsing = try Subcommands.selfTest.parse(arguments, into: .init(corpora: defaultCorpora))
    guard case .parsed(let line) = parsing else { return .help(topic: "self-test") }
    return .selfTest(jobs: line.jobs, corpora: line.corpora, mutants: line.mutants, realRun: line.realRun)
  }

  func executor(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let line) = try Subcommands.executor.parse(arguments, into: .init())
    else { return .help(topic: "executor") }
    return .executor(misbehaviours: line.misbehaviours, slowReads: line.slowReads, contract: line.contract)
  }

  func costs(_ arguments: ArraySlice<String>) throws(InputError) -> Command {
    guard case .parsed(let line) = try Subcommands.costs.parse(arguments, into: .init(corpora: defaultCorpora))
    else { return .help(topic: "costs") }
    guard let results = line.results else {
      throw InputError("costs needs a results directory (a run's --out)")
    }
    return .costs(results: results, corpora: line.corpora)
  }
}
