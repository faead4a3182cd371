import Foundation
import PickerLogic

/// An executor a subject is answered by: the command, what it said of itself, its limit.
struct ExecutorSpec: Sendable, Equatable {
  var command: String
  var hello: ExecutorWire.Hello
  /// Seconds it may write nothing while a question is open (`CONFORMANCE_EXECUTOR_TIMEOUT`).
  var idle: Double
  /// Where every exchange is recorded (`--subject-log`), if anywhere.
  var log: ExecutorLog?

  static let defaultIdle = 5.0

  /// The idle limit from the environment, or the default.
  ///
  /// - Throws: `InputError` for a value that is not a positive number.
  static func idleFromEnvironment() throws(InputError) -> Double {
    guard let text = ProcessInfo.processInfo.environment["CONFORMANCE_EXECUTOR_TIMEOUT"] else {
      return defaultIdle
    }
    guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
      throw InputError("CONFORMANCE_EXECUTOR_TIMEOUT='\(text)' is not a positive number of seconds")
    }
    return seconds
  }
}

extension Subject {
  /// The subject an executor answers (`--subject exec:'<command>'`): started once here to
  /// read its `hello` (a command that does not start or greet is bad input, exit 2), then
  /// once per worker, each with its own process (`EvaluationContext.worker`).
  ///
  /// - Parameters:
  ///   - log: `--subject-log`'s file; the run's parent passes `truncating` (it starts the
  ///     file), its workers append to it.
  package static func executor(command: String, log: URL? = nil, truncating: Bool = true)
    throws(InputError) -> Subject
  {
    let idle = try ExecutorSpec.idleFromEnvironment()
    let log = try log.map { url throws(InputError) in try ExecutorLog(url, truncating: truncating) }
    let (process, hello) = try ExecutorClient.start(command, idle: idle, log: log)
    process.close()
    var subject = Subject.pickerLogic
    subject.name = hello.name + (hello.version.map { " \($0)" } ?? "")
    subject.missing = Set(Function.allCases).subtracting(hello.functions)
    subject.missingReasons = hello.reasons.reduce(into: [:]) { reasons, entry in
      if let function = Function.allCases.first(where: { $0.description == entry.key }) {
        reasons[function] = entry.value
      }
    }
    subject.shares = hello.shares.union([.any])
    subject.declaredReleases = hello.data
    subject.executor = ExecutorSpec(command: command, hello: hello, idle: idle, log: log)
    return subject
  }
}

extension ExecutorClient {
  /// `base` (an executor's subject) with every function answered through this client: each
  /// call a question whose keys and values `Subject.functions` derives.
  func subject(_ base: Subject) -> Subject {
    var subject = base
    for entry in Subject.functions { entry.ask(self, in: &subject) }
    return subject
  }
}

extension JSONValue {
  /// An array of strings (a waiver's list of checks, an executor's weekday symbols).
  var strings: [String]? { [String].read(self) }
}
