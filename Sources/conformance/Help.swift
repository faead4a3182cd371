import Conformance

/// `conformance --help`, in swift-argument-parser's layout; each subcommand's from its table.
enum Help {
  /// The subcommands `help <subcommand>` knows.
  static let topics = Subcommands.pages.map(\.name)

  /// The records `schema` generates a JSON Schema for.
  static let schemaRecords = ["case-record"]

  /// The help for a subcommand, or the whole help.
  static func text(topic: String?) -> String {
    Subcommands.pages.first { $0.name == topic }?.help ?? text
  }

  /// The sweep's help, with every subcommand's usage and what it does.
  static var text: String {
    let run = Subcommands.run
    let indent = String(repeating: " ", count: "USAGE: ".count)
    let usage = HelpLayout.usage("USAGE: ", words: run.synopsis)
      + Subcommands.pages.flatMap { HelpLayout.usage(indent, words: $0.usage) }
      + HelpLayout.usage(indent, words: ["conformance", "help", "[<subcommand>]"])
    let subcommands = Subcommands.pages.flatMap { page in
      HelpLayout.entry(([page.name] + page.usage.dropFirst(2).prefix { !$0.hasPrefix("[") })
        .joined(separator: " "), page.abstract)
    }
    return (["OVERVIEW: " + overview, ""] + usage + ["", "OPTIONS:"] + run.optionLines
      + ["", "SUBCOMMANDS (conformance help <subcommand> for its options):"] + subcommands
      + ["", sections]).joined(separator: "\n")
  }

  static let overview = """
    Sweeps the date-picker logic of the seeds (PickerLogic, on Foundation) across
    locales, calendars, first weekdays and time zones, and checks every answer against the
    system ICU (libicu). Writes results.json (with cases.jsonl.gz and steps.jsonl.gz),
    junit.xml and index.html.
    """

  static let sections = """
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
