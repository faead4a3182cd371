import CMalloc
import Conformance
import Foundation

/// The package's `Corpora/`, found from this file's path when the working directory has none.
let packageCorpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpora")
let localCorpora = URL(fileURLWithPath: "Corpora")
let defaultCorpora = FileManager.default.fileExists(atPath: localCorpora.path)
  ? localCorpora : packageCorpora

func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

func exit(_ status: ExitStatus) -> Never { exit(status.rawValue) }

/// The run's verdict (`exit 1: …`), the last line on stderr and, when both go to one log
/// (`2>&1`), the last line there too: stdout, buffered when it is not a terminal, is flushed
/// first.
func printVerdict(_ verdict: String?) {
  fflush(nil)  // every output stream: stdout is the one buffered
  if let verdict { printError(verdict) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
// A worker keeps the default actions: Ctrl-C reaches the whole process group, and a worker
// it ends costs nothing (its parent is interrupted too).
if arguments.first != "__worker" { Interruption.install() }
/// The subject a run's options name: the seeds' logic, or an executor (started here once,
/// to read its hello: one that does not start is bad input). A worker process starts its
/// own from its setup line (`Worker.run`), appending to the run's `--subject-log`.
func subject(_ options: RunOptions) throws(InputError) -> Subject {
  guard let command = options.subjectCommand else { return .pickerLogic }
  return try Subject.executor(command: command, log: options.subjectLog, truncating: true)
}

/// Prints a bench's report, writes its JSON to `out` and adds its rows to
/// `Documentation/bench-history.jsonl` when run from the package: every bench ends so.
func finishBench(lines: [String], json: JSONValue, out: URL, kind: String,
                 rows: [(name: String, value: String, met: Bool)], date: String, machine: String) throws {
  print(lines.joined(separator: "\n"))
  try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
  try Data((json.rendered() + "\n").utf8).write(to: out, options: .atomic)
  print("wrote \(out.path)")
  if let file = try BenchHistory.append(kind: kind, rows: rows, date: date, machine: machine) {
    print("appended to \(file.path)")
  }
}

/// Runs one command and says how the process should end. Every subcommand returns here, so
/// what it built (a run's result and failure clusters) is released before `exit`: a value
/// still owned when a `Never` call ends the process is a leak to LeakSanitizer.
func execute(_ command: Command) throws -> ExitStatus {
  switch command {
  case .help(let topic):
    print(Help.text(topic: topic))
  case .version:
    print("conformance 0.1.0 (\(RunRecord.schema))")
  case .explain(let caseID, let corpora, let waivers, let command):
    let subject = try command.map { command throws(InputError) in try Subject.executor(command: command) }
    // In a child process: a case whose subject traps or loops explains as errored, exit 1.
    let (status, lines) = try Explanation.isolated(caseID, corporaDirectory: corpora, waivers: waivers,
                                                   subject: subject ?? .pickerLogic)
    print(lines.joined(separator: "\n"))
    return status
  case .bench(let quick, let jobs, let out, let corpora):
    let report = try Benchmark.run(corporaDirectory: corpora, quick: quick, jobs: jobs) {
      printError($0)
    }
    try finishBench(lines: report.lines, json: report.json, out: out, kind: "bench" + (quick ? " --quick" : ""),
                    rows: report.targets, date: report.date, machine: report.machine)
  case .benchPair(let kind, let quick, let pairs, let jobs, let out, let corpora):
    let pair = try Benchmark.pair(kind, corporaDirectory: corpora, quick: quick, jobs: jobs, pairs: pairs) {
      printError($0)
    }
    let (date, machine) = (ISO8601DateFormatter().string(from: Date()), Benchmark.machineDescription())
    try finishBench(lines: pair.lines(date: date, machine: machine, jobs: jobs),
                    json: pair.json(date: date, machine: machine, jobs: jobs), out: out,
                    kind: "bench --\(kind.rawValue)" + (quick ? " --quick" : ""), rows: pair.targets,
                    date: date, machine: machine)
  case .benchBreakdown(let quick, let jobs, let out, let corpora):
    let breakdown = try Benchmark.breakdown(corporaDirectory: corpora, quick: quick, jobs: jobs) { printError($0) }
    try finishBench(lines: breakdown.lines, json: breakdown.json, out: out,
                    kind: "bench --breakdown" + (quick ? " --quick" : ""), rows: breakdown.rows,
                    date: breakdown.date, machine: breakdown.machine)
  case .benchShards(let counts, let passes, let jobs, let out, let corpora):
    let report = try Benchmark.shards(counts, passes: passes, corporaDirectory: corpora, jobs: jobs) {
      printError($0)
    }
    try finishBench(lines: report.lines, json: report.json, out: out, kind: "bench --shards",
                    rows: report.rows.map { ($0.target, $0.measured, $0.met) }, date: report.date,
                    machine: report.machine)
  case .worker:
    try Worker.run()
  case .costs(let results, let corpora):
    let costs = try StepCosts.fit(results: results)
    let file = corpora.appendingPathComponent(StepCosts.fileName)
    try costs.encoded().write(to: file, options: .atomic)
    print("wrote \(file.path): \(costs.checks.count) checks, digest \(costs.digest), from \(costs.measured)")
  case .executor(let misbehaviours, let slowReads, let contract):
    ExecutorServer.run(subject: contract ? .contract : .pickerLogic, misbehaviours: misbehaviours,
                       slowReads: slowReads)
  case .selfTest(let jobs, let corpora, let mutants, let realRun):
    let report = try SelfTest.run(corporaDirectory: corpora, jobs: jobs, mutants: mutants,
                                  realRun: realRun) { printError($0) }
    print(report.lines.joined(separator: "\n"))
    return report.passed ? .clean : .unexpected
  case .merge(let shards, let out):
    // No fastbins: a merge frees a shard's batch of case lines while the next is read, and
    // glibc's malloc and free were a tenth of its CPU (`perf record`), which fastbins made
    // worse (measured with Scripts/timing.sh command; the figures are in its commit).
    _ = mallopt(M_MXFAST, 0)
    let result = try ShardMerge.run(shards, out: out)
    print(result.summary.joined(separator: "\n"))
    printVerdict(result.reason)
    return result.status
  case .schema:
    print(CaseRecord.schema.rendered(indent: 2, depth: .max))
  case .compare(let before, let after, let show, let lines, let except):
    let comparison = try RunComparison.run(before: before, after: after, show: show, lines: lines, except: except)
    print(comparison.lines.joined(separator: "\n"))
    return comparison.same ? .clean : .unexpected
  case .run(let options):
    let result = try ConformanceRun.run(options, subject: try subject(options))
    print(result.summary.joined(separator: "\n"))
    printVerdict(result.reason)
    return result.status
  }
  return .clean
}

/// The command line, parsed. One that does not parse exits 2 here with a one-line pointer to
/// its subcommand's help; bad input found later (a corpus file, an executor that does not
/// start) is named alone. (A function, not a global: the command is released once it has
/// run, and LeakSanitizer does not count a worker's arguments as a leak.)
func parsed() -> Command {
  do {
    return try CommandLineParser(arguments: arguments, defaultCorpora: defaultCorpora).parse()
  } catch {
    let topic = arguments.first.flatMap { Help.topics.contains($0) ? $0 : nil }
    printError("Error: \(error.message)")
    printError("See 'conformance help\(topic.map { " " + $0 } ?? "")' for the options.")
    exit(.badInput)
  }
}

do {
  // The test-only environment settings are checked before anything runs or is written.
  _ = try Fault.fromEnvironment()
  try IsolatedRunner.checkEnvironment()
  exit(try execute(parsed()))
} catch let error as InputError {
  printError("Error: \(error.message)")
  exit(.badInput)
} catch let interrupted as Interrupted {
  printError("Error: \(interrupted.description)")
  // `_exit`, as the forced exit does: threads of an in-process run may still wait on an
  // executor or spin in the subject, and `exit` would run the process's destructors under
  // them. Once (CI, loaded machine) a run interrupted so ended from SIGILL instead of 143.
  fflush(nil)
  _exit(128 + interrupted.signal)
} catch let error as HarnessError {
  printError("Error: the harness failed: \(error.message) (exit 3)")
  exit(.harnessFailure)
} catch {
  printError("Error: the harness failed: \(error) (exit 3)")
  exit(.harnessFailure)
}
