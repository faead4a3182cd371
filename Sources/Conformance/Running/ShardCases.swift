import Foundation

/// One case line of a shard as a merge needs it: what the tally counts, read from a few
/// members, and the line itself, which the merged file takes as the shard wrote it.
///
/// A merge used to decode every line whole and encode it again: ~70 % of its time on a full
/// sweep's 600,000 lines. Only the cases the tally keeps as examples (a few thousand) are
/// decoded whole now, and only a case its shard kept whole that the merged run abridges is
/// encoded anew. A member the merge does not read is checked to be JSON, not to be a case's
/// value; `JSONDecoder` judges it when the case is read whole.
struct ShardCaseLine: TalliedCase, Sendable {
  /// The id, step, verdict, pattern, review and digest; values only when read whole.
  let summary: CaseRecord
  /// The line as the shard wrote it; `nil` when it spans lines (then it is written anew).
  let line: Data?
  private let text: Data
  private let isWhole: Bool
  /// Where the actual value lies in `text`, which an abridged copy digests.
  private let actual: Range<Int>?
  private let path: String
  private let lineNumber: Int

  static let members: [StaticString] = ["id", "step", "verdict", "pattern", "review", "actualDigest", "actual"]
  static let reviewMembers: [StaticString] = ["waiver", "triage", "baseline"]

  /// The case in `bytes` (line `lineNumber` of `path`): from its members when they are what
  /// a case's should be, else decoded whole, which names the fault.
  init(_ bytes: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int) throws(InputError) {
    text = Data(bytes)
    line = bytes.contains(0x0A) ? nil : text
    (self.path, self.lineNumber) = (path, lineNumber)
    let members = JSONMembers(bytes, wanted: Self.members)
    if let members, let summary = Self.summary(members) {
      (self.summary, isWhole) = (summary, false)
      actual = members.range(6)
    } else {
      (summary, isWhole) = (try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber), true)
      actual = nil
    }
  }

  func whole() throws(InputError) -> CaseRecord {
    isWhole ? summary : try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber)
  }

  /// The case as `CaseRecord.abridged()` has it, from the summary and the actual value alone
  /// (a shard's example the merged run abridges holds a month of cells in three members).
  func abridged() throws(InputError) -> CaseRecord {
    guard !isWhole, !summary.isAbridged else { return try whole().abridged() }
    var record = summary
    let value = try actual.map { range throws(InputError) in
      try Self.decode(Value.self, text[range], path: path, lineNumber: lineNumber)
    } ?? .null
    record.actualDigest = value.digestText
    return record
  }

  /// What the tally reads of a case, or `nil` for anything not certainly a case's.
  private static func summary(_ members: JSONMembers) -> CaseRecord? {
    guard let idText = members.string(0), let id = try? CaseID(parsing: idText),
      let step = members.int(1),
      let verdict = members.string(2).flatMap(Outcome.Verdict.init(rawValue:))
    else { return nil }
    let pattern: String
    if members.has(3) {
      guard let text = members.string(3) else { return nil }
      pattern = text
    } else {
      pattern = ""
    }
    var review = CaseReview()
    if members.has(4) {
      guard let text = members.text(4), let read = JSONMembers(text, wanted: reviewMembers) else { return nil }
      if read.has(0) {
        guard let waiver = read.string(0) else { return nil }
        review.waiver = waiver
      }
      if read.has(1) {
        guard let triage = read.string(1).flatMap(Triage.init(rawValue:)) else { return nil }
        review.triage = triage
      }
      if read.has(2) {
        guard let baseline = read.string(2).flatMap(Baseline.Class.init(rawValue:)) else { return nil }
        review.baseline = baseline
      }
    }
    var record = CaseRecord(
      id: id, step: step,
      outcome: Outcome(verdict: verdict, expected: .null, actual: .null, pattern: pattern),
      review: review)
    if members.has(5) {
      guard let digest = members.string(5), digest.utf8.count == 16, UInt64(digest, radix: 16) != nil
      else { return nil }
      record.actualDigest = digest
    }
    return record
  }

  private static func decode<T: Decodable>(_ type: T.Type, _ text: Data, path: String, lineNumber: Int)
    throws(InputError) -> T
  {
    do {
      return try RecordCoding.decoder().decode(T.self, from: text)
    } catch {
      throw InputError("\(path):\(lineNumber): \(JSONValueReader.describe(error))")
    }
  }
}

/// A shard's case lines, read a batch ahead on another thread: inflating and reading the
/// lines run on the second core while the merge counts and writes on this one.
///
/// `@unchecked Sendable`: the reader is touched by one batch's task at a time (the next is
/// asked for only once the last was taken), and the batches pass through the monitor.
final class ShardCaseFeed: @unchecked Sendable {
  private let reader: JSONValueReader
  private let ahead = Monitor<Result<[ShardCaseLine], InputError>?>(nil)
  /// Whether the end of the file was taken (nothing more is read ahead).
  private var ended = false
  static let batchSize = 4096

  init(_ reader: JSONValueReader) {
    self.reader = reader
    readAhead()
  }

  /// The next batch in file order; empty at the end of the file.
  func next() throws(InputError) -> [ShardCaseLine] {
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
      let result = Result { () throws(InputError) -> [ShardCaseLine] in
        guard let batch = try self.reader.nextBatch(upTo: Self.batchSize) else { return [] }
        let path = self.reader.path
        return try batch.map { bytes, line throws(InputError) in
          try ShardCaseLine(bytes, path: path, lineNumber: line)
        }
      }
      self.ahead.update { $0 = result }
    }
  }
}
