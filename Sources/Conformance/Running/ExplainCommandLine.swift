import Foundation

/// `explain <case-id>`'s table, read by `conformance explain` and by a team's worker
/// (`ConformanceWorker.main`, which serves its own functions and so takes no `--subject`).
package enum ExplainCommandLine {
  /// What an explain command line says.
  package struct Line: Sendable {
    package var corpora: URL
    /// `--waivers` as given: a path, `none`, or `nil` (the corpora's shipped file).
    package var waivers: String?
    package var subjectCommand: String?
    package var caseID: String?

    package init(corpora: URL) { self.corpora = corpora }

    /// The waiver file the case is reviewed with: as a run's, the shipped waivers unless
    /// told otherwise, none for an executor (they explain Foundation's differences, not its).
    package var waiverFile: URL? {
      waivers == nil && subjectCommand != nil ? nil : WaiverFile.chosen(waivers, corpora: corpora)
    }
  }

  package static let table = Subcommand<Line>(
    name: "explain",
    abstract: "Re-run one case (ids are in every report) and print its inputs, both sides' values, "
      + "the intermediate values and its waiver.",
    overview: """
      Re-runs one case and prints its inputs, both sides' values (lists item by item,
      the differing items marked ≠), the intermediate values, and the waiver that explains it.
      """,
    arguments: [.init(placeholder: "<case-id>", help: "as every report writes it, e.g. "
      + "'leading-blanks|calendar=hebrew|fw=2|zone=UTC|month=2021-09-07'")],
    options: [
      .init("--subject", "<subject>", default: "picker-logic",
            help: "whose values: picker-logic or exec:<command>, the executor a run asked (it is "
              + "asked again); every explain command a run prints carries the run's subject, "
              + "waivers and corpora") {
        $0.subjectCommand = try $1.subject()
      },
      .init("--waivers", "<file|none>", default: "Corpora/known-differences.json; none with an executor",
            help: "known differences") {
        $0.waivers = $1.text
      },
      .corpora { $0.corpora = $1 },
    ],
    sections: """
      EXIT CODES:
        0 the case would not fail a run (it passes, or a waiver explains it) · 1 it would
        (--fail-on unexpected) · 2 bad input
      """
  ) { line, argument in
    guard line.caseID == nil else { throw InputError("explain takes one case id, got '\(argument)' too") }
    line.caseID = argument
  }

  /// The table as a team's worker `executable` reads it: its subject is the functions it
  /// serves, so `--subject` is not one of its options.
  package static func worker(_ executable: String) -> Subcommand<Line> {
    var table = table
    table.executable = executable
    table.options = table.options.filter { $0.name != "--subject" }
    return table
  }
}
