import Foundation
import Synchronization

/// Shows progress on stderr while a run sweeps: on a terminal, one line redrawn in place; in a
/// log (a CI job's stderr, a `swift test` run), a line when the sweep starts, then one at
/// most every `logInterval` as steps finish, and at least every `logInterval` while none
/// does (a step held by slow or looping cases), so a sweep is never silent until its end.
/// Its counters sit behind a mutex, so the `@Sendable` event handler may call it from any
/// thread.
package final class ConsoleRecorder: Sendable {
  private struct Progress {
    var done = 0
    var failed = 0
    var errored = 0
    /// Expected cost of the steps done (`expectedCost`), for the time left.
    var doneCost = 0.0
    var started: ContinuousClock.Instant
    var lastDraw: ContinuousClock.Instant
    var ended = false
  }

  private let total: Int
  /// Each step's expected CPU by its index (the committed step cost model), so the time
  /// left follows the plan's cost, not its case count: the first steps of a sweep are cheap
  /// ones, and a rate of cases said "48 s left" at 39 % of a 257 s run.
  private let expectedCost: [Int: Double]
  private let totalCost: Double
  private let interactive: Bool
  private let logInterval: Duration
  private let write: @Sendable (String) -> Void
  private let now: @Sendable () -> ContinuousClock.Instant
  private let progress: Mutex<Progress>

  /// - Parameters:
  ///   - interactive: redraw one line (a terminal), else log lines.
  ///   - logInterval: the least time between two logged lines.
  ///   - expectedCost: each step's expected CPU by its index, for the time left.
  ///   - write: where the text goes (stderr; tests pass their own).
  ///   - now: the clock (tests pass their own).
  package init(totalCases: Int, expectedCost: [Int: Double] = [:],
              interactive: Bool = isatty(STDERR_FILENO) != 0,
              logInterval: Duration = .seconds(30),
              write: @escaping @Sendable (String) -> Void = {
                FileHandle.standardError.write(Data($0.utf8))
              },
              now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
    self.total = totalCases
    self.now = now
    progress = Mutex(Progress(started: now(), lastDraw: now()))
    self.expectedCost = expectedCost
    totalCost = expectedCost.values.reduce(0, +)
    self.interactive = interactive
    self.logInterval = logInterval
    self.write = write
  }

  /// `text` with control characters (C0, DEL, C1) and bidirectional overrides shown as
  /// `⟨U+001B⟩`: a subject's text (an executor's error message, its stderr) must not move
  /// the cursor, recolour or reorder a terminal or a CI log.
  package static func visible(_ text: String) -> String {
    CodePoints.annotate(text) { scalar in
      [.control, .format].contains(scalar.properties.generalCategory)
    }
  }

  package func record(_ event: Event) {
    switch event.kind {
    case .runStarted:
      let start = now()
      progress.withLock { $0.started = start; $0.lastDraw = start; $0.ended = false }
      guard !interactive else { return }
      write("progress: 0/\(CountText.number(total)) cases, sweeping\n")
      if logInterval > .zero { startHeartbeat() }
    case .stepEnded(let step):
      let line: String? = progress.withLock { progress in
        progress.done += step.counts.total
        progress.failed += step.counts.failed
        progress.errored += step.counts.errored
        progress.doneCost += expectedCost[step.index] ?? 0
        let now = self.now()
        guard now - progress.lastDraw >= (interactive ? .milliseconds(200) : logInterval) else {
          return nil
        }
        progress.lastDraw = now
        let percent = total > 0 ? progress.done * 100 / total : 100
        let counts = "\(CountText.number(progress.done))/\(CountText.number(total)) cases"
        let outcomes = "\(CountText.number(progress.failed)) failed, \(CountText.number(progress.errored)) errored"
        if interactive {
          return "\r\u{1B}[K[\(percent)%] \(counts), \(outcomes) · \(step.check) \(step.name)"
        }
        let seconds = (now - progress.started).seconds
        let rate = seconds > 0 ? Double(progress.done) / seconds : 0
        // By the plan's expected cost when there is one, else by cases.
        let (done, whole) = totalCost > 0 && progress.doneCost > 0
          ? (progress.doneCost, totalCost) : (Double(progress.done), Double(total))
        let left = done > 0 ? seconds * (whole - done) / done : 0
        return "progress: \(counts) (\(percent)%), \(outcomes), "
          + String(format: "%@ cases/s, about %.0f s left", CountText.number(Int(rate.rounded())), left)
          + " · \(step.check) \(step.name)\n"
      }
      if let line { write(line) }
    case .runEnded:
      progress.withLock { $0.ended = true }
      if interactive { write("\r\u{1B}[K") }
    }
  }

  /// In a log, a line every `logInterval` in which no step finished, until the run ends.
  private func startHeartbeat() {
    let interval = logInterval
    Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: interval.seconds / 2)
        let line: String?? = progress.withLock { progress in
          if progress.ended { return .some(nil) }
          let now = self.now()
          guard now - progress.lastDraw >= interval else { return nil }
          progress.lastDraw = now
          let percent = total > 0 ? progress.done * 100 / total : 100
          return "progress: \(CountText.number(progress.done))/\(CountText.number(total)) cases (\(percent)%), "
            + "\(CountText.number(progress.failed)) failed, \(CountText.number(progress.errored)) errored; "
            + "no step finished in the last \(Int(interval.seconds.rounded())) s\n"
        }
        switch line {
        case .some(nil): return
        case .some(let text?): write(text)
        case nil: continue
        }
      }
    }.start()
  }
}
