import Foundation
import Synchronization

/// A record read by `MemberDecoder` where it can be, else by `JSONDecoder`, counted as
/// `slowReader`'s slow read.
protocol MemberDecodable: Decodable {
  /// Whose count a record `MemberDecoder` declines adds to.
  static var slowReader: SlowReads.Reader { get }
}

extension MemberDecodable {
  /// The record in `bytes`, by its `init(from:)` either way.
  ///
  /// - Throws: `JSONDecoder`'s error when the text is not JSON or not such a record.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, decoder: JSONDecoder) throws -> Self {
    if let record = MemberDecoder.decode(Self.self, from: bytes) { return record }
    SlowReads.count(slowReader)
    return try decoder.decode(Self.self, from: Data(bytes))
  }
}

/// How often `MemberDecoder` left a record to `JSONDecoder`, by reader.
///
/// `MemberDecoder` declines what it is not sure of, and `JSONDecoder` reads it the same way
/// or names the fault, so a decline is never wrong; but a format change that made it
/// decline every line would make a merge or a baseline several times slower and say
/// nothing. So every decline is counted: a worker sends its counts with each step reply,
/// `results.json` keeps the run's (`run.slowReads`, absent when none), and `bench` says how
/// many its runs and baselines met. The count is the process's: runs in one process at once
/// (a test suite, a host of ConformanceKit's) share it, and whichever writes its results
/// first takes it.
package enum SlowReads {
  /// The readers that fall back, each named as `results.json` names it.
  package enum Reader: String, CaseIterable, Sendable {
    /// A case line a merge or a worker's parent reads (`CaseLine`).
    case caseLine
    /// A step record a merge reads.
    case stepRecord
    /// A worker's reply.
    case workerReply
    /// A case or step record of a `--baseline` (its `FailureLine` and `StepLine`).
    case baselineCase, baselineStep
    /// An executor's answer: fractions and exponents are left to `JSONDecoder` by design.
    case executorReply
  }

  private static let counts = Mutex<[Reader: Int]>([:])

  /// Counts `count` records `reader` left to `JSONDecoder`.
  static func count(_ reader: Reader, _ count: Int = 1) {
    guard count > 0 else { return }
    counts.withLock { $0[reader, default: 0] += count }
  }

  /// Adds counts another process sent (a worker's, named as `results.json` names them).
  static func add(_ other: [String: Int]) {
    for (name, count) in other { Reader(rawValue: name).map { Self.count($0, count) } }
  }

  /// The counts since the last call, named as `results.json` names them (`nil` when none),
  /// and from zero again.
  package static func take() -> [String: Int]? {
    let taken = counts.withLock { counts in
      defer { counts = [:] }
      return counts
    }
    return taken.isEmpty ? nil : Dictionary(uniqueKeysWithValues: taken.map { ($0.key.rawValue, $0.value) })
  }
}
