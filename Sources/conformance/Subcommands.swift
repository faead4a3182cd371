import Conformance
import Foundation

/// Every subcommand's table: its help and its parser are made from it. A subcommand's
/// options are read into a value of its own (`ExplainLine`, …), checked as a whole by
/// `CommandLineParser`.
enum Subcommands {
  /// What the whole help and `help <name>` show of a subcommand, whatever it parses into.
  typealias Page = (name: String, abstract: String, usage: [String], help: String)

  /// The subcommands' pages, in the order the whole help lists them.
  static let pages: [Page] = [
    page(explain), page(bench), page(merge), page(compare), page(schema), page(selfTest),
    page(executor), page(costs),
  ]

  private static func page<Parsed>(_ command: Subcommand<Parsed>) -> Page {
    (command.name ?? "", command.abstract, command.synopsis, command.help)
  }

  /// The sweep: `conformance [<options>]`.
  static let run = Subcommand<RunCommandLine>(
    name: nil, abstract: "", overview: Help.overview, arguments: [], options: RunOptions.commandLine,
    sections: Help.sections
  ) { _, argument in
    throw InputError("unexpected argument '\(argument)'"
      + Suggestion.didYouMean(argument, among: Help.topics))
  }

  /// `explain <case-id>` (its table is the Conformance module's: a team's worker explains
  /// with it too).
  static let explain = ExplainCommandLine.table

  struct BenchLine {
    var quick = false
    var jobs = ProcessInfoCores.count
    var out: URL?
    var corpora: URL
    var shards: [Int]?
    var passes: Int?
    var pairKind: Benchmark.PairKind?
    var breakdown = false

    init(corpora: URL) { self.corpora = corpora }

    /// `--holes` or `--reference`: one of the two at a time.
    mutating func pair(_ kind: Benchmark.PairKind) throws(InputError) {
      if let pairKind, pairKind != kind {
        throw InputError("bench: --holes and --reference are two benches; run one at a time")
      }
      pairKind = kind
    }
  }

  static let bench = Subcommand<BenchLine>(
    name: "bench",
    abstract: "Measure the core corpus, the full sweep, a subject-only loop over the same cases and "
      + "the direct oracle on a fixed sample; write Reports/bench.json (--quick: the core corpus only).",
    overview: """
      Measures the core corpus, the full sweep, a subject-only loop over the same cases
      and the direct oracle on a fixed sample, and the full sweep's archive read back as a
      baseline; writes Reports/bench.json and, run from the package, appends its target rows
      to Documentation/bench-history.jsonl (with --holes, --reference, --shards and
      --breakdown too).
      """,
    arguments: [],
    options: [
      .flag("--quick", help: "the core corpus only") { $0.quick = true },
      .flag("--holes", help: "instead: the full sweep (--quick: the core corpus) as a user runs it, in "
        + "worker processes, with and without what issue 30 added (the month grid, the month cycles, "
        + "the week-year edges), alternating, --passes pairs (default 1; 3 with --quick): the least "
        + "CPU of each and the growth (Reports/bench-holes.json)") { try $0.pair(.holes) },
      .flag("--reference", help: "the same, with and without Corpora/reference (triage by the "
        + "published releases): its share of the sweep's CPU (Reports/bench-reference.json)") {
        try $0.pair(.reference)
      },
      .flag("--breakdown", help: "instead: where the full sweep's CPU goes (--quick: the core corpus's), "
        + "by check and by side (the subject's calls, libicu and the checks' logic, triage, review, step "
        + "records, the workers' transport, the parent's delivery and reports), from one run in worker "
        + "processes that time the subject's calls (Reports/bench-breakdown.json)") { $0.breakdown = true },
      .init("--shards", "<N,...>",
            help: "instead: the full sweep once whole, then each shard of each split alone, one after "
              + "another, and their merge, then the full sweep whole again: each shard's wall, CPU and "
              + "peak RSS, the imbalance, the night on N runners and the shards' CPU against the two "
              + "single runs' mean (Reports/bench-shards.json); before each run, a fixed reference "
              + "workload (Foundation's Chinese calendar at Asia/Chita) is timed and shown beside it: "
              + "how fast the CPU ran") {
        let counts = $1.text.split(separator: ",").map { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ ($0 ?? 0) >= 2 }) else {
          throw InputError("--shards '\($1.text)': expected shard counts of 2 or more, e.g. 4,8")
        }
        guard Set(counts).count == counts.count else {
          throw InputError("--shards '\($1.text)': a shard count is named twice (use --passes to "
            + "repeat a split)")
        }
        $0.shards = counts.compactMap { $0 }
      },
      .init("--passes", "<p>", default: "1",
            help: "with --holes or --reference: how many pairs; with --shards: run each split's shards "
              + "p times, each pass merged, every other pass backwards (splits and shards, N…1); "
              + "figures are each shard's median over the passes, each pass also shown") {
        guard let count = Int($1.text), (1...9).contains(count) else {
          throw InputError("--passes '\($1.text)': expected how many times to run each shard (or "
            + "pair), 1 to 9")
        }
        $0.passes = count
      },
      .init("--jobs", "<n>", default: "the number of cores", help: "threads") { $0.jobs = try $1.jobs() },
      .init("--out", "<file>", default: "Reports/bench.json", help: "where the JSON goes") {
        $0.out = $1.file()
      },
      .corpora { $0.corpora = $1 },
    ],
    sections: "", argument: unexpected("bench"))

  struct MergeLine {
    var shards: [URL] = []
    var out = URL(fileURLWithPath: "Reports/latest")
  }

  static let merge = Subcommand<MergeLine>(
    name: "merge",
    abstract: "Combine the reports of --shard 1/N … N/N runs into one run's results.json, junit.xml "
      + "and index.html.",
    overview: """
      Combines the reports of --shard 1/N … N/N runs into one run's results.json,
      cases.jsonl.gz, steps.jsonl.gz, junit.xml and index.html.
      """,
    arguments: [.init(placeholder: "<shard-dir>", help: "the report directory of each shard's run",
                      repeats: true)],
    options: [
      .init("--out", "<dir>", default: "Reports/latest", help: "where the merged reports go") {
        $0.out = $1.file()
      },
    ],
    sections: ""
  ) { line, argument in
    line.shards.append(URL(fileURLWithPath: argument))
  }

  struct CompareLine {
    var runs: [URL] = []
    var show = 3
    var lines = false
    var except: Set<String> = []
  }

  static let compare = Subcommand<CompareLine>(
    name: "compare",
    abstract: "Compare two runs case by case; exit 0 only if they say the same (a redesign's proof).",
    overview: """
      Compares two runs of the same selection case by case: the summaries, and every
      case that did not pass in either run (status, expected and actual values, pattern,
      triage, baseline class), each run's cases added up against its own summary. What a
      redesign shows to prove it changed how results are written, not what they say.
      """,
    arguments: [.init(placeholder: "<before-dir> <after-dir>",
                      help: "two report directories (or their results.json)")],
    options: [
      .init("--show", "<n>", default: "3", help: "examples shown of each difference") {
        guard let count = Int($1.text), count >= 0 else {
          throw InputError("--show '\($1.text)' is not a count of examples (0 or more)")
        }
        $0.show = count
      },
      .flag("--lines", help: """
        also the cases files line by line: every byte of every case line, in plan order (each \
        explain command's binary and --corpora read as CONFORMANCE and CORPORA)
        """) { $0.lines = true },
      .init("--except", "<member,...>", help: """
        with --lines: members of a case line (or of its review) left out of both sides, \
        e.g. detail
        """) {
        $0.except = Set($1.text.split(separator: ",").map(String.init))
        $0.lines = true
      },
    ],
    sections: """
      EXIT CODES:
        0 the same · 1 different (the last line says how) · 2 a run cannot be read
      """
  ) { line, argument in
    line.runs.append(URL(fileURLWithPath: argument))
  }

  /// `schema`'s arguments: the record names given.
  static let schema = Subcommand<[String]>(
    name: "schema",
    abstract: "Print the JSON Schema of a line of cases.jsonl.gz.",
    overview: """
      Prints a record's JSON Schema, generated from the keys its writer and readers
      use (Schemas/case-record.schema.json is this output; CI fails when they differ).
      """,
    arguments: [.init(placeholder: "<record>",
                      help: "the record: " + Help.schemaRecords.joined(separator: ", "))],
    options: [],
    sections: """
      EXIT CODES:
        0 printed · 2 no such record
      """
  ) { records, argument in
    records.append(argument)
  }

  struct SelfTestLine {
    var jobs = ProcessInfoCores.count
    var corpora: URL
    var mutants = Mutant.all
    var realRun: URL?

    init(corpora: URL) { self.corpora = corpora }
  }

  static let selfTest = Subcommand<SelfTestLine>(
    name: "self-test",
    abstract: "Run the core corpus against deliberately wrong subjects: exit 0 only if every one is "
      + "caught and the real subject is clean.",
    overview: """
      Runs the core corpus against deliberately wrong subjects; exits 0 only if every
      one is caught and the real subject is clean.

      Every run uses the shipped waivers; each mutant's run is compared with the real subject's
      as its baseline, as a nightly compares with last night: a mutant is caught by a new
      failure or an unexpected pass, and a waiver whose scope does not list a newly failing
      case does not hide it.
      """,
    arguments: [],
    options: [
      .init("--jobs", "<n>", default: "the number of cores", help: "worker processes") {
        $0.jobs = try $1.jobs()
      },
      .corpora { $0.corpora = $1 },
      .init("--mutants", "<name>,...", default: "all",
            help: "only these mutants (the real subject always runs first)") {
        $0.mutants = []
        for name in $1.text.split(separator: ",").map(String.init) {
          guard let mutant = Mutant.all.first(where: { $0.name == name }) else {
            throw InputError("--mutants: no mutant '\(name)' (known: "
              + Mutant.all.map(\.name).joined(separator: ", ") + ")")
          }
          $0.mutants.append(mutant)
        }
      },
      .init("--real-run", "<results-dir>",
            help: "the real subject's row from this finished run instead of a sweep of its own: a run "
              + "of the core corpus with the built-in subject, the corpus's waivers, no baseline and "
              + "no fault (the quick start's run; anything else exits 2 saying what differs)") {
        $0.realRun = $1.file()
      },
    ],
    sections: "", argument: unexpected("self-test"))

  struct ExecutorLine {
    var misbehaviours: [ExecutorServer.Misbehaviour] = []
    var slowReads: URL?
    var contract = false
  }

  static let executor = Subcommand<ExecutorLine>(
    name: "executor",
    abstract: "Answer the executor protocol on stdin/stdout with the seeds' logic (the reference for "
      + "an executor in another language).",
    overview: """
      Answers the executor protocol (Schemas/executor-protocol.schema.json) on stdin and
      stdout with the seeds' logic, PickerLogic: what --subject exec: expects of a process in
      any language. A sweep through it reads as an in-process one. With --contract it answers
      by Documentation/ExecutorProtocol.md's rules instead: what a team that follows the
      contract, not the seeds, answers on Foundation.
      """,
    arguments: [],
    options: [
      .flag("--contract", help: "answer by the contract's rules (local dates), not the seeds' logic") {
        $0.contract = true
      },
      .init("--misbehave", "<kind>:<function>[:<text>]",
            help: "for tests, repeatable: misbehave on the questions to <function> whose line holds "
              + "<text>; kind: crash, exit, hang, garbage, wrong-type, error, unsupported, hostile "
              + "(text that tries to escape the reports), invalid-utf8, off-by-one (an integer answer "
              + "one too many: a wrong value, not a fault), slow (the right answer, 0.25 s late)") {
        $0.misbehaviours.append(try ExecutorServer.Misbehaviour($1.text))
      },
      .init("--slow-reads", "<file>",
            help: "at the end, append to <file> how many questions its fast reader left to "
              + "JSONDecoder (bench sums them); without it, any are counted on stderr") {
        $0.slowReads = $1.file()
      },
    ],
    sections: "", argument: unexpected("executor"))

  struct CostsLine {
    var corpora: URL
    var results: URL?
  }

  static let costs = Subcommand<CostsLine>(
    name: "costs",
    abstract: "Fit the step cost model --shard balances by from a run's step records; write "
      + "Corpora/step-costs.json.",
    overview: """
      Fits the step cost model that --shard balances slices by (CPU per case by check,
      calendar and zone class) from a finished run's step records, and writes it to
      <corpora>/step-costs.json. Refit from a full sweep when checks or the machine change;
      every shard of a night must use the same file.
      """,
    arguments: [.init(placeholder: "<results-dir>", help: "a finished run's report directory (its --out)")],
    options: [
      .corpora(help: "the corpus files, where the model is written") { $0.corpora = $1 },
    ],
    sections: ""
  ) { line, argument in
    guard line.results == nil else {
      throw InputError("costs takes one results directory, got '\(argument)' too")
    }
    line.results = URL(fileURLWithPath: argument)
  }

  /// A subcommand that takes no arguments besides its options.
  private static func unexpected<Parsed>(_ name: String)
    -> @Sendable (inout Parsed, String) throws -> Void
  {
    { _, argument in throw InputError("unexpected argument '\(argument)' for \(name)") }
  }
}
