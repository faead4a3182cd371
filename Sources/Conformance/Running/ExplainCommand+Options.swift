import Foundation

extension ExplainCommand {
  /// The command for a run made with `options`, in this process's environment: the options
  /// the run's table carries into explain (`RunOptions.commandLine`), and its fault.
  package init(_ options: RunOptions,
              environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.init(fault: environment["CONFORMANCE_FAULT"])
    for carry in RunOptions.commandLine.compactMap(\.explain) {
      self[keyPath: carry.field] = carry.value(options)
    }
    launcher = options.explainLauncher
  }

  /// `<binary> explain '<id>'` (or `swift run conformance explain '<id>'`) and the options
  /// that make it the run's case (a team's worker in place of `conformance`), spelled as the
  /// option table spells them.
  package func text(for id: CaseID) -> String {
    if let inProcess {
      return "# \(inProcess)'s functions ran in its test's own process, which no shell command reaches: "
        + "explain the case there with ConformanceSweep.explain(" + ShellWords.quoted(id.description, always: true)
        + "), or give the sweep a worker (ConformanceWorker) for a command"
    }
    var words = (launcher.map { [ShellWords.quoted($0)] } ?? ["swift", "run", executable ?? "conformance"])
      + ["explain", ShellWords.quoted(id.description, always: true)]
    if let fault { words.insert("CONFORMANCE_FAULT=" + ShellWords.quoted(fault), at: 0) }
    for option in RunOptions.commandLine {
      if let carry = option.explain, let kept = self[keyPath: carry.field] {
        words += [option.name, ShellWords.quoted(carry.prefix + kept)]
      }
    }
    return words.joined(separator: " ")
  }

  /// `text(for:)` as a case line takes it.
  package var explainer: CaseExplainer {
    let command = self
    return CaseExplainer { command.text(for: $0) }
  }
}
