import Conformance

/// `conformance --help`, in swift-argument-parser's layout.
enum Help {
  static let usage = """
    USAGE: conformance [--locales <set>] [--calendars <set>] [--first-weekdays <list>]
                       [--time-zones <set>] [--checks <list>] [--years <A...B>] [--out <dir>]
                       [--record <failures|all>] [--jobs <n>] [--shard <K/N>]
           conformance explain <case-id> [--subject exec:<command>] [--waivers <file|none>]
           conformance bench [--quick] [--jobs <n>] [--out <file>]
           conformance merge <shard-dir>... [--out <dir>]
           conformance compare <before-dir> <after-dir> [--show <n>]
           conformance schema case-record
           conformance self-test [--jobs <n>] [--mutants <name>,...]
           conformance executor [--misbehave <spec>] [--slow-reads <file>]
           conformance costs <results-dir> [--corpora <dir>]
           conformance help [<subcommand>]
    """

  /// The subcommands `help <subcommand>` knows.
  /// `--checks`' values, from the catalogue (a hand-written list once left out month-grid).
  static var checkList: String {
    let ids = CheckCatalog.all.map(\.id)
    var lines: [String] = []
    var line = "all, or a comma list of:"
    for (index, id) in ids.enumerated() {
      let word = id + (index < ids.count - 1 ? "," : " (default: all)")
      if line.count + 1 + word.count > 62 {
        lines.append(line)
        line = word
      } else {
        line += " " + word
      }
    }
    lines.append(line)
    return lines.joined(separator: "\n" + String(repeating: " ", count: 30))
  }

  static let topics = ["explain", "bench", "merge", "compare", "schema", "self-test", "executor", "costs"]

  /// The records `schema` generates a JSON Schema for.
  static let schemaRecords = ["case-record"]

  /// The options a subcommand (`nil`: a sweep) takes, for "did you mean".
  static func options(of subcommand: String?) -> [String] {
    switch subcommand {
    case "explain"?: ["--corpora", "--waivers", "--subject", "--help"]
    case "bench"?: ["--quick", "--holes", "--reference", "--shards", "--passes", "--jobs", "--out", "--corpora", "--help"]
    case "merge"?: ["--out", "--help"]
    case "compare"?: ["--show", "--help"]
    case "schema"?: ["--help"]
    case "self-test"?: ["--jobs", "--corpora", "--mutants", "--help"]
    case "executor"?: ["--contract", "--misbehave", "--slow-reads", "--help"]
    case "costs"?: ["--corpora", "--help"]
    default:
      ["--locales", "--calendars", "--first-weekdays", "--time-zones", "--checks", "--years",
       "--transitions", "--out", "--record", "--baseline", "--history", "--waivers", "--fail-on", "--oracle-stale",
       "--jobs", "--no-isolation", "--case-timeout", "--shard", "--month-sweep", "--exhaustive", "--oracle", "--dry-run",
       "--subject", "--subject-log", "--corpora", "--version", "--help"]
    }
  }

  /// The help for a subcommand, or the whole help.
  static func text(topic: String?) -> String {
    switch topic {
    case "explain"?: explain
    case "bench"?: bench
    case "merge"?: merge
    case "compare"?: compare
    case "schema"?: schema
    case "self-test"?: selfTest
    case "executor"?: executor
    case "costs"?: costs
    default: text
    }
  }

  static let explain = """
    OVERVIEW: Re-runs one case and prints its inputs, both sides' values (lists item by item,
    the differing items marked ≠), the intermediate values, and the waiver that explains it.

    USAGE: conformance explain <case-id> [--subject <picker-logic|exec:command>]
                               [--waivers <file|none>] [--corpora <dir>]

    ARGUMENTS:
      <case-id>               as every report writes it, e.g.
                              'leading-blanks|calendar=hebrew|fw=2|zone=UTC|month=2021-09-07'

    OPTIONS:
      --subject <s>           whose values: picker-logic (default) or exec:<command>, the
                              executor a run asked (it is asked again); every explain command
                              a run prints carries the run's subject, waivers and corpora
      --waivers <file|none>   known differences (default: Corpora/known-differences.json;
                              none with an executor)
      --corpora <dir>         the corpus files (default: ./Corpora, else the package's)

    EXIT CODES:
      0 the case would not fail a run (it passes, or a waiver explains it) · 1 it would
      (--fail-on unexpected) · 2 bad input
    """

  static let bench = """
    OVERVIEW: Measures the core corpus, the full sweep, a subject-only loop over the same cases
    and the direct oracle on a fixed sample, and the full sweep's archive read back as a
    baseline; writes Reports/bench.json and, run from the package, appends its target rows
    to Documentation/bench-history.jsonl (with --holes, --reference and --shards too).

    USAGE: conformance bench [--quick] [--holes | --reference | --shards <N,...>] [--passes <p>]
                             [--jobs <n>] [--out <file>] [--corpora <dir>]

    OPTIONS:
      --quick                 the core corpus only
      --holes                 instead: the full sweep (--quick: the core corpus) as a user runs
                              it, in worker processes, with and without what issue 30 added
                              (the month grid, the month cycles, the week-year edges),
                              alternating, --passes pairs (default 1; 3 with --quick): the
                              least CPU of each and the growth (Reports/bench-holes.json)
      --reference             the same, with and without Corpora/reference (triage by the
                              published releases): its share of the sweep's CPU
                              (Reports/bench-reference.json)
      --shards <N,...>        instead: the full sweep once whole, then each shard of each split
                              alone, one after another, and their merge, then the full sweep
                              whole again: each shard's wall, CPU and peak RSS, the imbalance,
                              the night on N runners and the shards' CPU against the two
                              single runs' mean (Reports/bench-shards.json); before each run,
                              a fixed reference workload (Foundation's Chinese calendar at
                              Asia/Chita) is timed and shown beside it: how fast the CPU ran
      --passes <p>            with --holes or --reference: how many pairs; with --shards: run each split's
                              shards p times, each pass merged, every other pass backwards
                              (splits and shards, N…1); figures are each shard's median over
                              the passes, each pass also shown (default 1)
      --jobs <n>              threads (default: the number of cores)
      --out <file>            where the JSON goes (default: Reports/bench.json)
    """

  static let merge = """
    OVERVIEW: Combines the reports of --shard 1/N … N/N runs into one run's results.json,
    cases.jsonl.gz, steps.jsonl.gz, junit.xml and index.html.

    USAGE: conformance merge <shard-dir>... [--out <dir>]

    OPTIONS:
      --out <dir>             where the merged reports go (default: Reports/latest)
    """

  static let compare = """
    OVERVIEW: Compares two runs of the same selection case by case: the summaries, and every
    case that did not pass in either run (status, expected and actual values, pattern,
    triage, baseline class), each run's cases added up against its own summary. What a
    redesign shows to prove it changed how results are written, not what they say.

    USAGE: conformance compare <before-dir> <after-dir> [--show <n>]

    ARGUMENTS:
      <before-dir> <after-dir>
                              two report directories (or their results.json)

    OPTIONS:
      --show <n>              examples shown of each difference (default: 3)

    EXIT CODES:
      0 the same · 1 different (the last line says how) · 2 a run cannot be read
    """

  static let schema = """
    OVERVIEW: Prints a record's JSON Schema, generated from the keys its writer and readers
    use (Schemas/case-record.schema.json is this output; CI fails when they differ).

    USAGE: conformance schema case-record

    EXIT CODES:
      0 printed · 2 no such record
    """

  static let selfTest = """
    OVERVIEW: Runs the core corpus against deliberately wrong subjects; exits 0 only if every
    one is caught and the real subject is clean.

    Every run uses the shipped waivers; each mutant's run is compared with the real subject's
    as its baseline, as a nightly compares with last night: a mutant is caught by a new
    failure or an unexpected pass, and a waiver whose scope does not list a newly failing
    case does not hide it.

    USAGE: conformance self-test [--jobs <n>] [--corpora <dir>] [--mutants <name>,...]
                                 [--real-run <results-dir>]

    OPTIONS:
      --mutants <names>  Only these mutants (the real subject always runs first).
      --real-run <dir>   The real subject's row from this finished run instead of a sweep of
                         its own: a run of the core corpus with the built-in subject, the
                         corpus's waivers, no baseline and no fault (the quick start's run;
                         anything else exits 2 saying what differs).
    """

  static let costs = """
    OVERVIEW: Fits the step cost model that --shard balances slices by (CPU per case by check,
    calendar and zone class) from a finished run's step records, and writes it to
    <corpora>/step-costs.json. Refit from a full sweep when checks or the machine change;
    every shard of a night must use the same file.

    USAGE: conformance costs <results-dir> [--corpora <dir>]
    """

  static let executor = """
    OVERVIEW: Answers the executor protocol (Schemas/executor-protocol.schema.json) on stdin and
    stdout with the seeds' logic, PickerLogic: what --subject exec: expects of a process in
    any language. A sweep through it reads as an in-process one. With --contract it answers
    by Documentation/ExecutorProtocol.md's rules instead: what a team that follows the
    contract, not the seeds, answers on Foundation.

    USAGE: conformance executor [--contract] [--misbehave <kind>:<function>[:<text>]]...
                                [--slow-reads <file>]

    OPTIONS:
      --contract              answer by the contract's rules (local dates), not the seeds' logic
      --misbehave <spec>      for tests: misbehave on the questions to <function> whose line
                              holds <text>; kind: crash, exit, hang, garbage, wrong-type,
                              error, unsupported, hostile (text that tries to escape the
                              reports), invalid-utf8, off-by-one (an integer answer one
                              too many: a wrong value, not a fault), slow (the right
                              answer, 0.25 s late)
      --slow-reads <file>     at the end, append to <file> how many questions its fast
                              reader left to JSONDecoder (bench sums them); without it,
                              any are counted on stderr
      -h, --help              Show help information.
    """

  static let text = """
    OVERVIEW: Sweeps the date-picker logic of the seeds (PickerLogic, on Foundation) across
    locales, calendars, first weekdays and time zones, and checks every answer against the
    system ICU (libicu). Writes results.json (with cases.jsonl.gz and steps.jsonl.gz),
    junit.xml and index.html.

    \(usage)

    OPTIONS:
      --locales <set>         core, all (every libicu locale and Corpora/locale-variants.txt),
                              a comma list, or @file (default: core)
      --calendars <set>       core (the 17 both sides know), all (adds the calendars only
                              Foundation has, checked by invariants), a comma list, or @file
                              (default: core)
      --first-weekdays <list> all, or a comma list of own and 1…7 (1 = Sunday)
                              (default: all = own,1,2,3,4,5,6,7)
      --time-zones <set>      core, all (every libicu zone; aliases with their canonical
                              zone's rules are folded into it), a comma list, or @file
                              (default: core)
      --checks <list>         \(checkList)
      --years <A...B>         the window of Gregorian years swept (default: 1970...2037)
      --transitions <sample>  all, or shapes (first and last of each kind of transition per
                              zone) (default: shapes for core zones, all otherwise)
      --out <dir>             where reports go; replaced only by a run that finishes
                              (default: Reports/latest)
      --record <what>         failures, or all (cases.jsonl.gz holds every case) (default: failures)
      --baseline <file>       a previous results.json (or its directory): classify every case as new-failure,
                              fixed, still-failing, changed, new-case or removed
      --waivers <file|none>   known differences (default: Corpora/known-differences.json)
      --history <dir>         earlier nights' results (a results directory or results.json
                              each), for the page's trend of new, fixed and still failing
      --fail-on <rule>        new, unexpected (new failures and unexpected passes), any or
                              none (default: unexpected)
      --oracle-stale <how>    apart: a failure that is only libicu's older data (the published
                              reference shows the subject following the release it declares)
                              is counted apart as oracle-stale, which no rule counts; fail: a
                              failure like any other (default: apart)
      --jobs <n>              worker processes (default: the number of cores)
      --no-isolation          evaluate in this process (threads) instead of worker processes
                              (faster to debug; a trap or hang in the subject ends the run)
      --case-timeout <s>      the CPU seconds a case may spend in a worker before it is
                              stopped as hung (3 × that in wall time). Default: 5 × the
                              slowest case of its check, 2 to 10 s: from the cost model for
                              the seeds' logic, from the cases run so far for an executor
      --shard <K/N|auto>      run the K-th of N slices of the plan, balanced by expected cost
                              (Corpora/step-costs.json); auto reads CONFORMANCE_SHARD=K/N or
                              the CI's own variables (GitLab, CircleCI, Buildkite)
      --month-sweep <zones>   which zones sweep every month: per-offset (one per standard
                              offset) or transition-free (default: per-offset for
                              --time-zones all, transition-free otherwise)
      --exhaustive            sweep every month in every zone, folding no month into an
                              equivalent zone's (slow; checks the reasoning behind the
                              month selection on a subset)
      --oracle <mode>         tables (zone structure read once per zone) or direct (libicu
                              asked afresh for every case) (default: tables)
      --dry-run               print what the plan covers and stop
      --subject <subject>     picker-logic (the seeds' logic, in Swift), or exec:<command>: a
                              process that answers the subject's questions as JSON Lines
                              (Schemas/executor-protocol.schema.json; the contract in words:
                              Documentation/ExecutorProtocol.md) (default: picker-logic)
      --subject-log <file>    with exec:, record every question and its answer (or fault),
                              a JSON line each (Schemas/executor-transcript.schema.json)
      --corpora <dir>         the corpus files (default: ./Corpora, else the package's)
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS (conformance help <subcommand> for its options):
      explain <case-id>       Re-run one case (ids are in every report) and print its inputs,
                              both sides' values, the intermediate values and its waiver.
      bench                   Measure the core corpus, the full sweep, a subject-only loop
                              over the same cases and the direct oracle on a fixed sample;
                              write Reports/bench.json (--quick: the core corpus only).
      merge <dir>...          Combine the reports of --shard 1/N … N/N runs into one run's
                              results.json, junit.xml and index.html.
      compare <before> <after>
                              Compare two runs case by case; exit 0 only if they say the
                              same (a redesign's proof).
      schema case-record      Print the JSON Schema of a line of cases.jsonl.gz.
      self-test               Run the core corpus against deliberately wrong subjects: exit 0
                              only if every one is caught and the real subject is clean.
      executor                Answer the executor protocol on stdin/stdout with the seeds'
                              logic (the reference for an executor in another language).
      costs <results-dir>     Fit the step cost model --shard balances by from a run's step
                              records; write Corpora/step-costs.json.

    EXIT CODES:
      0 the --fail-on rule did not fire · 1 it fired (by default: new failures or unexpected
      passes) · 2 bad input or usage (nothing written) · 3 the harness itself failed ·
      130/143 interrupted by SIGINT/SIGTERM (what ran in <out>.partial, marked incomplete;
      <out> as it was)

    ENVIRONMENT (for tests):
      CONFORMANCE_FAULT=<kind>:<case-id glob>
                              make the subject fail on matching cases; kind: trap, hang,
                              closed-range, week-of-year, leak
      CONFORMANCE_CASE_TIMEOUT
                              --case-timeout, for a run whose command line a test cannot set
      CONFORMANCE_STEP_TIMEOUT
                              the least seconds a worker may leave a request unanswered (60)
      CONFORMANCE_EXECUTOR_TIMEOUT
                              seconds an executor may write nothing while a question is
                              open, before it counts as hung (5)
    """
}
