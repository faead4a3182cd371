import Foundation
import Synchronization

/// Shows progress on stderr while a run sweeps: on a terminal, one line redrawn in place; in a
/// log (a CI job's stderr), a plain line at most every `logInterval`, so a long sweep is never
/// silent until its end. Its counters sit behind a mutex, so the `@Sendable` event handler
/// may call it from any thread.
public final class ConsoleRecorder: Sendable {
  private struct Progress {
    var done = 0
    var failed = 0
    var started = ContinuousClock.now
    var lastDraw = ContinuousClock.now
  }

  private let total: Int
  private let interactive: Bool
  private let logInterval: Duration
  private let write: @Sendable (String) -> Void
  private let progress = Mutex(Progress())

  /// - Parameters:
  ///   - interactive: redraw one line (a terminal), else log lines.
  ///   - logInterval: the least time between two logged lines.
  ///   - write: where the text goes (stderr; tests pass their own).
  public init(totalCases: Int, interactive: Bool = isatty(STDERR_FILENO) != 0,
              logInterval: Duration = .seconds(30),
              write: @escaping @Sendable (String) -> Void = {
                FileHandle.standardError.write(Data($0.utf8))
              }) {
    self.total = totalCases
    self.interactive = interactive
    self.logInterval = logInterval
    self.write = write
  }

  /// `text` with control characters (C0, DEL, C1) and bidirectional overrides shown as
  /// `⟨U+001B⟩`: a subject's text (an executor's error message, its stderr) must not move
  /// the cursor, recolour or reorder a terminal or a CI log.
  public static func visible(_ text: String) -> String {
    CodePoints.annotate(text) { scalar in
      [.control, .format].contains(scalar.properties.generalCategory)
    }
  }

  public func record(_ event: Event) {
    switch event.kind {
    case .runStarted:
      progress.withLock { $0.started = ContinuousClock.now; $0.lastDraw = $0.started }
    case .stepEnded(let step):
      let line: String? = progress.withLock { progress in
        progress.done += step.counts.total
        progress.failed += step.counts.failed + step.counts.errored
        let now = ContinuousClock.now
        guard now - progress.lastDraw >= (interactive ? .milliseconds(200) : logInterval) else {
          return nil
        }
        progress.lastDraw = now
        let percent = total > 0 ? progress.done * 100 / total : 100
        if interactive {
          return "\r\u{1B}[K[\(percent)%] \(progress.done)/\(total) cases, \(progress.failed) failed"
            + " · \(step.check) \(step.name)"
        }
        let seconds = (now - progress.started).seconds
        let rate = seconds > 0 ? Double(progress.done) / seconds : 0
        let left = rate > 0 ? Double(total - progress.done) / rate : 0
        return "progress: \(progress.done)/\(total) cases (\(percent)%), \(progress.failed) failed, "
          + String(format: "%.0f cases/s, about %.0f s left", rate, left)
          + " · \(step.check) \(step.name)\n"
      }
      if let line { write(line) }
    case .runEnded:
      if interactive { write("\r\u{1B}[K") }
    }
  }
}
