/// `conformance --help`, in swift-argument-parser's layout.
enum Help {
  static let usage = """
    USAGE: conformance [--locales <set>] [--calendars <set>] [--first-weekdays <list>]
                       [--time-zones <set>] [--checks <list>] [--years <A...B>] [--out <dir>]
                       [--record <failures|all>] [--jobs <n>] [--shard <K/N>]
           conformance explain <case-id>
           conformance bench [--quick] [--jobs <n>] [--out <file>]
           conformance merge <shard-dir>... [--out <dir>]
           conformance self-test [--jobs <n>]
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
      --checks <list>         all, or a comma list of: leading-blanks, weekday-symbols,
                              same-day-closing, range-roles, month-days, month-paging,
                              stay-nights, return-clamp, date-text, disclosure,
                              calendar-invariants (default: all)
      --years <A...B>         the window of Gregorian years swept (default: 1970...2037)
      --transitions <sample>  all, or shapes (first and last of each kind of transition per
                              zone) (default: shapes for core zones, all otherwise)
      --out <dir>             where reports go; replaced only by a run that finishes
                              (default: Reports/latest)
      --record <what>         failures, or all (cases.jsonl.gz holds every case) (default: failures)
      --baseline <file>       a previous results.json (or its directory): classify every case as new-failure,
                              fixed, still-failing, changed, new-case or removed
      --waivers <file|none>   known differences (default: Corpora/known-differences.json)
      --fail-on <rule>        new, unexpected (new failures and unexpected passes), any or
                              none (default: unexpected)
      --jobs <n>              worker processes (default: the number of cores)
      --no-isolation          evaluate in this process (threads) instead of worker processes
                              (faster to debug; a trap or hang in the subject ends the run)
      --shard <K/N>           run the K-th of N deterministic slices of the plan
      --month-sweep <zones>   which zones sweep every month: per-offset (one per standard
                              offset) or transition-free (default: per-offset for
                              --time-zones all, transition-free otherwise)
      --exhaustive            sweep every month in every zone, folding no month into an
                              equivalent zone's (slow; checks the reasoning behind the
                              month selection on a subset)
      --oracle <mode>         tables (zone structure read once per zone) or direct (libicu
                              asked afresh for every case) (default: tables)
      --dry-run               print what the plan covers and stop
      --corpora <dir>         the corpus files (default: ./Corpora, else the package's)
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      explain <case-id>       Re-run one case (ids are in every report) and print its inputs,
                              both sides' values and the intermediate values.
      bench                   Measure the core corpus, the full sweep, a subject-only loop
                              over the same cases and the direct oracle on a fixed sample;
                              write Reports/bench.json (--quick: the core corpus only).
      merge <dir>...          Combine the reports of --shard 1/N … N/N runs into one run's
                              results.json, junit.xml and index.html.
      self-test               Run the core corpus against deliberately wrong subjects: exit 0
                              only if every one is caught and the real subject is clean.

    EXIT CODES:
      0 the --fail-on rule did not fire · 1 it fired (by default: new failures or unexpected
      passes) · 2 bad input or usage (nothing written) · 3 the harness itself failed ·
      130/143 interrupted by SIGINT/SIGTERM (nothing written)

    ENVIRONMENT (for tests):
      CONFORMANCE_FAULT=<kind>:<case-id glob>
                              make the subject fail on matching cases; kind: trap, hang,
                              closed-range, week-of-year, leak
      CONFORMANCE_STEP_TIMEOUT, CONFORMANCE_CASE_TIMEOUT
                              seconds a worker may spend on a step (600) or a retried
                              case (60) before it is killed
    """
}
