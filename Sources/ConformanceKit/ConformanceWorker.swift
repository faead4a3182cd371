import Conformance
import Foundation

/// The worker processes of a sweep of your own functions: an executable of yours whose
/// `main.swift` is one call, with the functions your test sweeps.
///
///     // Sources/MyPickerWorker/main.swift
///     import ConformanceKit
///     import MyPickerConformance
///     ConformanceWorker.main(MyPickerConformance.functions)
///
/// A sweep whose `worker` is that executable (`ConformanceSweep.executable(named:)` finds it
/// among the products `swift build` made) runs each case in such a process, as
/// `conformance` does: a trap or a hang in your logic costs the cases it touches (errored,
/// with its signature), not the test run. The worker checks that it serves the subject the
/// sweep names.
public enum ConformanceWorker {
  /// Serves the sweep that started this process (as `conformance __worker`), then exits:
  /// 0 when its input ends, 3 when the run is not one it serves or the harness fails, 2
  /// when started by hand.
  ///
  /// `explain '<case-id>' [--waivers <file|none>] [--corpora <dir>]` explains one case with
  /// these functions, as `conformance explain` does for the seeds' logic (`conformance
  /// explain`'s table, less `--subject`): the command a sweep through this worker prints for
  /// each case (`swift run MyPickerWorker explain …`).
  public static func main(_ functions: SubjectFunctions) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      if arguments.first == "explain" {
        let (status, lines) = try explain(Array(arguments.dropFirst()), functions)
        print(lines.joined(separator: "\n"))
        exit(status.rawValue)
      }
      guard arguments == ["__worker"] else {
        throw InputError("this executable serves the worker processes of a sweep of \(functions.name) "
          + "(ConformanceSweep.worker), which starts it with __worker; explain '<case-id>' explains a case")
      }
      try Worker.run(serving: functions.subject)
      exit(ExitStatus.clean.rawValue)
    } catch let error as InputError {
      FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
      exit(ExitStatus.badInput.rawValue)
    } catch let error as HarnessError {
      FileHandle.standardError.write(Data("Error: the harness failed: \(error.message) (exit 3)\n".utf8))
      exit(ExitStatus.harnessFailure.rawValue)
    } catch {
      FileHandle.standardError.write(Data("Error: the harness failed: \(error) (exit 3)\n".utf8))
      exit(ExitStatus.harnessFailure.rawValue)
    }
  }

  /// Serves the sweep that started this test binary again as its worker
  /// (`ConformanceSweep.run`), then ends the process: 0 when the sweep closes its input, 3
  /// when the sweep is of another subject or the harness fails. The test library has written
  /// to stdout, and may again: the replies keep the pipe, and stdout goes to stderr.
  static func serveSweep(_ functions: SubjectFunctions, startedFor name: String) -> Never {
    let replies = dup(STDOUT_FILENO)
    dup2(STDERR_FILENO, STDOUT_FILENO)
    do {
      guard name == functions.name else {
        throw HarnessError("this test sweeps \(functions.name); the worker was started for \(name) "
          + "(one Swift Testing test, one subject: the filter selects the test, not the sweep)")
      }
      try Worker.run(serving: functions.subject, replies: replies)
      exit(ExitStatus.clean.rawValue)
    } catch {
      let message = (error as? HarnessError)?.message ?? "\(error)"
      FileHandle.standardError.write(Data("Error: the harness failed: \(message) (exit 3)\n".utf8))
      exit(ExitStatus.harnessFailure.rawValue)
    }
  }

  /// `explain`'s arguments read with explain's table (less `--subject`: the subject is
  /// `functions`) and the case explained with `functions`; `--help`: the table's help.
  static func explain(_ arguments: [String], _ functions: SubjectFunctions) throws
    -> (status: ExitStatus, lines: [String])
  {
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "worker").lastPathComponent
    let table = ExplainCommandLine.worker(executable)
    guard case .parsed(let line) = try table.parse(arguments[...], into: .init(corpora: ConformanceSweep.corpora))
    else { return (.clean, [table.help]) }
    guard let id = line.caseID else { throw InputError("explain needs a case id") }
    return try Explanation.isolated(id, corporaDirectory: line.corpora, waivers: line.waiverFile,
                                    subject: functions.subject)
  }
}
