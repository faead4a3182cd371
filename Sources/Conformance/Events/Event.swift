import Foundation

/// Something observable that happened during a run. The runner returns nothing; recorders,
/// reports and the exit code are all built from these.
package struct Event: Sendable {
  package enum Kind: Sendable {
    /// The plan is made and the sweep begins.
    case runStarted(RunInfo)
    /// All cases of one step were evaluated: its counts and its cases that did not pass. The
    /// same event whether the step ran on a thread here, in a worker process or in a shard.
    case stepEnded(StepRecord)
    /// Every step has ended.
    case runEnded(elapsed: Double)
  }

  package var kind: Kind
  package var instant: Date

  package init(_ kind: Kind, instant: Date = Date()) {
    self.kind = kind
    self.instant = instant
  }
}

/// Receives every event of a run, in plan order, one at a time.
package typealias EventHandler = @Sendable (Event) -> Void
