import Foundation

/// Why an executor gave no usable answer to one question, in a reader's words: the cases
/// that asked it are `errored`, grouped by `signature` (their pattern), with `detail`.
struct ExecutorFault: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// It ended from a signal while answering (asked again alone, it did again).
    case signal(String)
    /// It exited while answering (asked again alone, it did again).
    case exited(Int32)
    /// It wrote nothing for this long while the question was open, and was killed.
    case silent(seconds: Double)
    /// Its line for this question is not an answer (not JSON, no id, or the wrong type).
    case malformed(String)
    /// It answered `error` with this message.
    case error(String)
    /// It could not be started, or did not answer `hello`.
    case unstartable(String)
    /// Not asked: the breaker tripped for this function and calendar after this signature.
    case notRun(String)
  }

  var kind: Kind
  var function: Subject.Function
  /// The question as it was written, clipped.
  var question: String
  /// The executor's stderr when it ended.
  var stderr: String = ""

  /// What went wrong and in which function: `executor exit 1 in days: ZeroDivisionError:
  /// division by zero`, `executor silent for 5 s in closes`, `malformed answer to role`.
  var signature: String {
    switch kind {
    case .signal(let name): "executor \(name) in \(function)" + lastWords
    case .exited(let status): "executor exit \(status)\(Self.shellSignal(status)) in \(function)" + lastWords
    case .silent(let seconds): "executor silent for \(CaseFault.seconds(seconds)) s in \(function)"
    case .malformed: "malformed answer to \(function)"
    case .error(let message): "executor error in \(function): \(Self.clip(Self.firstLine(message), 80))"
    case .unstartable: "executor did not start"
    // The fault that stopped the questions: whether this one was asked depends on what the
    // run had seen, so only the detail says it was not.
    case .notRun(let signature): signature
    }
  }

  /// The case's detail: what happened, the question, the executor's last words.
  var detail: [String] {
    var lines: [String]
    switch kind {
    case .signal(let name):
      lines = ["the executor died from \(name) while answering this question, and again when it was asked alone"]
    case .exited(let status):
      lines = ["the executor exited with status \(status) while answering this question, and again when it was asked alone"]
    case .silent(let seconds):
      lines = ["the executor wrote nothing for \(CaseFault.seconds(seconds)) s while this question was open (killed; "
        + "CONFORMANCE_EXECUTOR_TIMEOUT sets the limit)"]
    case .malformed(let why): lines = ["the executor's answer is not one: \(why)"]
    case .error(let message): lines = ["the executor answered error: \(Self.clip(message, 2000))"]
    case .unstartable(let why): lines = ["the executor could not be started again: \(why)"]
    case .notRun(let signature):
      lines = ["not asked: the executor failed 3 questions of \(function) in this calendar and zone "
        + "in a row with '\(signature)' (or once, after 3 elsewhere), so the rest were not sent"]
    }
    lines.append("question: \(Self.clip(question, 400))")
    // A Swift executor's backtrace names its message and frame; anything else (a Python
    // traceback) is shown by its last lines.
    let crash = CrashReport(stderr)
    if let message = crash.message { lines.append("message: \(Self.clip(message, 400))") }
    if let frame = crash.frame { lines.append("crashed in: \(frame)") }
    if crash.message == nil, let error = Self.errorLine(in: stderr) { lines.append("error: \(Self.clip(error, 400))") }
    let words = stderr.split(separator: "\n").suffix(8).joined(separator: "\n")
    if crash.message == nil && !words.isEmpty { lines.append("its stderr ended: \(Self.clip(words, 2000))") }
    return lines
  }

  /// For the signature: the runtime's message of a Swift executor, else the first line of
  /// stderr that reads as an error (`errorLine`), else its last line.
  private var lastWords: String {
    if let message = CrashReport(stderr).message { return ": " + Self.clip(message, 80) }
    if let error = Self.errorLine(in: stderr) { return ": " + Self.clip(error, 80) }
    guard let last = stderr.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }) else {
      return ""
    }
    return ": " + Self.clip(String(last).trimmingCharacters(in: .whitespaces), 80)
  }

  /// The first line of `stderr` in one of the usual forms of an uncaught error: `TypeError:
  /// x is not a function` (JavaScript, whose runtime then prints a stack and its version),
  /// `ZeroDivisionError: division by zero` (Python, after its traceback),
  /// `Exception in thread "main" java.lang.…`, `panic: …` (Go), `thread 'main' panicked at …`
  /// (Rust), `x.rb:3:in 'f': … (NoMethodError)` (Ruby), `Error: Cannot find module …`.
  static func errorLine(in stderr: String) -> String? {
    for raw in stderr.split(whereSeparator: \.isNewline) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.wholeMatch(of: errorForms) != nil { return line }
    }
    return nil
  }

  nonisolated(unsafe) private static let errorForms = #/
    (?:Uncaught\ )?[\w$.]*(?:Error|Exception)(?:\ \[[^\]]*\])?(?::.*)?
    | Exception\ in\ thread\ .*
    | (?:panic|fatal\ error|Fatal\ error|FATAL\ ERROR):.*
    | thread\ '.*'\ panicked\ at.*
    | .*\((?:[\w:]*(?:Error|Exception))\)
    /#

  /// A shell reports a child killed by signal n as exit 128 + n (`sh -c` does not always
  /// replace itself with the command).
  static func shellSignal(_ status: Int32) -> String {
    (129...159).contains(status) ? " (\(ChildProcess.signalName(status - 128)) in the shell's child)" : ""
  }

  static func firstLine(_ text: String) -> String {
    String(text.prefix { $0 != "\n" && $0 != "\r" })
  }

  static func clip(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }
}
