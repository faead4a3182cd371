import Foundation
import Synchronization

/// Shows progress on stderr while a run sweeps, when stderr is a terminal. Its counters sit
/// behind a mutex, so the `@Sendable` event handler may call it from any thread.
public final class ConsoleRecorder: Sendable {
  private struct Progress {
    var done = 0
    var failed = 0
    var lastDraw = ContinuousClock.now
  }

  private let total: Int
  private let interactive: Bool
  private let progress = Mutex(Progress())

  public init(totalCases: Int, interactive: Bool = isatty(STDERR_FILENO) != 0) {
    self.total = totalCases
    self.interactive = interactive
  }

  public func record(_ event: Event) {
    guard interactive else { return }
    switch event.kind {
    case .stepEnded(let step):
      let line: String? = progress.withLock { progress in
        progress.done += step.counts.total
        progress.failed += step.counts.failed + step.counts.errored
        let now = ContinuousClock.now
        guard now - progress.lastDraw > .milliseconds(200) else { return nil }
        progress.lastDraw = now
        let percent = total > 0 ? progress.done * 100 / total : 100
        return "\r\u{1B}[K[\(percent)%] \(progress.done)/\(total) cases, \(progress.failed) failed"
          + " · \(step.check) \(step.name)"
      }
      if let line { FileHandle.standardError.write(Data(line.utf8)) }
    case .runEnded:
      FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    case .runStarted:
      break
    }
  }
}
