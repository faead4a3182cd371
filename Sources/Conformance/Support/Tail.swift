import Foundation
import Synchronization

/// What a child wrote to stderr, appended from the pipe's reading thread: its first 32 KB
/// (where Swift's backtracer puts the message and the crashed thread's frames) and its
/// last 4 KB (for anything else).
final class Tail: Sendable {
  private struct Kept {
    var head: [UInt8] = []
    var tail: [UInt8] = []
  }

  private let kept = Mutex(Kept())
  static let headLimit = 32 * 1024
  static let tailLimit = 4096

  func append(_ data: Data) {
    kept.withLock { kept in
      let room = max(0, Self.headLimit - kept.head.count)
      kept.head.append(contentsOf: data.prefix(room))
      kept.tail.append(contentsOf: data.dropFirst(room))
      if kept.tail.count > Self.tailLimit { kept.tail.removeFirst(kept.tail.count - Self.tailLimit) }
    }
  }

  /// Everything kept, head then tail.
  var text: String {
    kept.withLock { String(decoding: $0.head + $0.tail, as: UTF8.self) }
  }

  /// Everything kept, which is then forgotten: what comes next starts a new head.
  func take() -> String {
    kept.withLock { kept in
      defer { kept = Kept() }
      return String(decoding: kept.head + kept.tail, as: UTF8.self)
    }
  }
}
