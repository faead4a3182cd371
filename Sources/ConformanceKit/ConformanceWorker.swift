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
  public static func main(_ functions: SubjectFunctions) -> Never {
    guard CommandLine.arguments.dropFirst() == ["__worker"] else {
      FileHandle.standardError.write(Data(("Error: this executable serves the worker processes of a sweep of "
        + "\(functions.name) (ConformanceSweep.worker); a sweep starts it, with __worker\n").utf8))
      exit(ExitStatus.badInput.rawValue)
    }
    do {
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
}
