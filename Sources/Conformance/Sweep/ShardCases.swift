import Foundation

/// A shard's case lines, read a batch ahead on another thread: inflating and reading the
/// lines run on the second core while the merge counts and writes on this one.
///
/// `@unchecked Sendable`: the reader is touched by one batch's task at a time (the next is
/// asked for only once the last was taken), and the batches pass through the monitor.
final class ShardCaseFeed: @unchecked Sendable {
  private let reader: JSONValueReader
  private let ahead = Monitor<Result<[CaseLine], InputError>?>(nil)
  /// Whether the end of the file was taken (nothing more is read ahead).
  private var ended = false
  static let batchSize = 4096

  init(_ reader: JSONValueReader) {
    self.reader = reader
    readAhead()
  }

  /// The next batch in file order; empty at the end of the file.
  func next() throws(InputError) -> [CaseLine] {
    guard !ended else { return [] }
    let result = ahead.wait(until: { $0 != nil }, then: { state in
      defer { state = nil }
      return state!
    })
    let batch = try result.get()
    if batch.isEmpty { ended = true } else { readAhead() }
    return batch
  }

  private func readAhead() {
    DispatchQueue.global().async {
      let result = Result { () throws(InputError) -> [CaseLine] in
        guard let batch = try self.reader.nextBatch(upTo: Self.batchSize) else { return [] }
        let path = self.reader.path
        return try batch.map { bytes, line throws(InputError) in
          try CaseLine(bytes, path: path, lineNumber: line)
        }
      }
      self.ahead.update { $0 = result }
    }
  }
}
