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
    case .stepSummarized(let summary):
      done += summary.step.counts.total
      failed += summary.step.counts.failed + summary.step.counts.errored
      draw(summary.step.check, summary.step.name)
    case .stepEnded(let step):
      draw(step.check, step.name)
    case .runEnded:
      FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    case .runStarted:
      break
    }
  }

  private func draw(_ check: String, _ name: String) {
      let now = ContinuousClock.now
      guard now - lastDraw > .milliseconds(200) else { return }
      lastDraw = now
      let percent = total > 0 ? done * 100 / total : 100
      FileHandle.standardError.write(Data(
        "\r\u{1B}[K[\(percent)%] \(done)/\(total) cases, \(failed) failed · \(check) \(name)"
          .utf8))
  }
}

/// Appends cases' JSON lines to a file, buffered: `cases.jsonl` (`--record all`), and the
/// failure log that `results.json` embeds, written with the array's separators in place
/// (`separator` before every line but the first) so it can be copied in byte for byte.
public final class JSONLinesWriter: @unchecked Sendable {
  private let handle: FileHandle
  private var buffer = ""
  private let separator: String?
  private var first = true
  /// How many lines were appended.
  public private(set) var count = 0

  /// - Parameter separator: written between lines instead of a plain newline, e.g.
  ///   `",\n    "` for a JSON array; `nil` for JSON Lines.
  public init(url: URL, separator: String? = nil) throws {
    // A failure here surfaces as the FileHandle error on the next line, naming the path.
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    handle = try FileHandle(forWritingTo: url)
    self.separator = separator
  }

  public func append(_ result: CaseResult) { append(line: result.jsonLine) }

  /// Appends a case already rendered as one line of JSON.
  public func append(line: String) {
    if let separator {
      if !first { buffer += separator }
      buffer += line
    } else {
      buffer += line + "\n"
    }
    first = false
    count += 1
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
