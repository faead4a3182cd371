import Foundation

/// The command that re-runs one case of a run and prints its inputs and both sides' values,
/// with what decided the run's values: its subject (an executor is asked again), its waivers
/// and corpora when they are not the defaults, and the fault it injected. Without them a case
/// the run showed failed explains as passed (the built-in subject) or waived (other waivers).
///
/// A run's record keeps these values; the command's words come from the option table
/// (`ExplainCommand.text(for:)`, in Running), and a case line takes them as a `CaseExplainer`.
package struct ExplainCommand: Sendable, Codable, Equatable {
  /// `--subject exec:`'s command; `nil`: the built-in subject, PickerLogic.
  package var subject: String?
  /// `--waivers` when the run's file is not the one explain reads by default: a path, or
  /// `none`.
  package var waivers: String?
  /// `--corpora` when the run's is not `Corpora` in the working directory.
  package var corpora: String?
  /// `CONFORMANCE_FAULT` of the run (a test's injected fault).
  package var fault: String?
  /// The executable that explains a case of a team's own functions, `swift run <it>
  /// explain`: the sweep's worker, which serves them (`ConformanceWorker`); `nil`:
  /// `conformance`, which knows the seeds' logic and executors only.
  package var executable: String?
  /// A team's functions swept on its test's own threads: their name. No command outside
  /// that test reaches them, and the command says so and how to explain a case instead.
  package var inProcess: String?
  /// The absolute path of the binary that ran (`RunOptions.explainLauncher`), which starts
  /// the command in place of `swift run conformance`; then `--corpora` is always given, so
  /// the command means the same from any directory.
  package var launcher: String?

  package init(subject: String? = nil, waivers: String? = nil, corpora: String? = nil,
              fault: String? = nil) {
    (self.subject, self.waivers, self.corpora, self.fault) = (subject, waivers, corpora, fault)
  }
}

/// What a failing case's line says to run to explain it: the run's `ExplainCommand` in words.
/// Records write it without knowing the option table that spells those words.
package struct CaseExplainer: Sendable {
  package let text: @Sendable (CaseID) -> String

  package init(_ text: @escaping @Sendable (CaseID) -> String) {
    self.text = text
  }

  /// The command of a run with every option at its default: the built-in subject's
  /// `swift run conformance explain '<id>'` (the same words as `ExplainCommand().text(for:)`).
  package static let plain = CaseExplainer {
    "swift run conformance explain " + ShellWords.quoted($0.description, always: true)
  }

  /// Where an encoder of case records finds the run's explainer (`CaseRecord.encode(to:)`).
  package static let userInfoKey = CodingUserInfoKey(rawValue: "caseExplainer")!
}
