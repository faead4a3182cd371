import Foundation

/// Shows progress on stderr while a run sweeps, when stderr is a terminal.
public final class ConsoleRecorder: @unchecked Sendable {
  private let total: Int
  private let interactive: Bool
  private var done = 0
  private var failed = 0
  private var lastDraw = ContinuousClock.now

  public init(totalCases: Int, interactive: Bool = isatty(STDERR_FILENO) != 0) {
    self.total = totalCases
    self.interactive = interactive
  }

  public func record(_ event: Event) {
    guard interactive else { return }
    switch event.kind {
    case .caseEnded(let result):
      done += 1
      if result.outcome.status == .failed || result.outcome.status == .errored { failed += 1 }
    case .stepEnded(let step):
      let now = ContinuousClock.now
      guard now - lastDraw > .milliseconds(200) else { return }
      lastDraw = now
      let percent = total > 0 ? done * 100 / total : 100
      FileHandle.standardError.write(Data(
        "\r\u{1B}[K[\(percent)%] \(done)/\(total) cases, \(failed) failed · \(step.check) \(step.name)"
          .utf8))
    case .runEnded:
      FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    case .runStarted:
      break
    }
  }
}

/// Appends cases as JSON lines to a file, buffered: `cases.jsonl` (`--record all`) and the
/// failure log that `results.json` is assembled from.
public final class JSONLinesWriter: @unchecked Sendable {
  private let handle: FileHandle
  private var buffer = ""

  public init(url: URL) throws {
    FileManager.default.createFile(atPath: url.path, contents: nil)
    handle = try FileHandle(forWritingTo: url)
  }

  public func append(_ result: CaseResult) {
    buffer += ResultsJSON.caseJSON(result).rendered(indent: nil) + "\n"
    if buffer.utf8.count > 1 << 20 { flush() }
  }

  /// Writes what is buffered and closes the file.
  public func close() {
    flush()
    try? handle.close()
  }

  private func flush() {
    handle.write(Data(buffer.utf8))
    buffer = ""
  }
}
