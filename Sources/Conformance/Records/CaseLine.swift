import Foundation

/// One case as another process wrote its line: a shard's `cases.jsonl.gz` (read back by
/// `merge`) or a worker process's reply (read by its parent). What the tally counts is read
/// from a few members; the line itself goes to the results' cases file as it was written.
///
/// Both used to decode every line whole and encode it again, most of what a merge cost.
/// Now a line is read by `CaseRecord`'s own `init(from:)` with its values left unread
/// (`MemberDecoder`, `unread`); only the cases the tally keeps as examples (a few thousand)
/// are decoded whole, and only a case kept whole that the run abridges is encoded anew. A
/// member not read is checked to be JSON, not to be a case's value; the case's reader
/// judges it when the case is read whole.
///
/// A class: a merge hands each of ~600,000 lines from its shard's batch to the step that
/// takes it, and a copy of the struct retained and released every member (a tenth of a
/// merge's main thread).
final class CaseLine: TalliedCase, Sendable, Equatable {
  /// The case without the members `unread`, unless it is read whole.
  let summary: CaseRecord
  /// The line as it was written; `nil` when it spans lines (then it is written anew).
  let line: Data?
  private let text: Data
  private let isWhole: Bool
  /// Where the actual value lies in `text`, which an abridged copy digests.
  private let actual: Range<Int>?
  /// Where the line came from, for an error: a file (or a worker's reply) and a line in it.
  private let path: String
  private let lineNumber: Int
  /// The actual value's digest, when the process that wrote the line said it (a worker does
  /// for each waived case it writes whole): abridging the case then decodes no value.
  private let toldDigest: String?

  /// What the tally needs of a case is all but its values and detail: those are read as
  /// absent (wherever they are), and `actual` is found where it lies.
  static let unread = [CaseRecord.CodingKeys.expected, .actual, .values, .months, .detail].map(\.stringValue)
    + [CaseReview.CodingKeys.triageExpected.stringValue]

  /// The case in `bytes` (line `lineNumber` of `path`): from its members when they are what
  /// a case's should be, else decoded whole, which names the fault.
  ///
  /// - Parameter actualDigest: the digest of the case's actual value, if its writer said it.
  init(_ bytes: UnsafeBufferPointer<UInt8>, path: String, lineNumber: Int, actualDigest: String? = nil)
    throws(InputError)
  {
    text = Data(bytes)
    line = bytes.contains(0x0A) ? nil : text
    (self.path, self.lineNumber, toldDigest) = (path, lineNumber, actualDigest)
    if let read = MemberDecoder.read(CaseRecord.self, from: bytes, leaving: Self.unread) {
      (summary, isWhole) = (read.value, false)
      actual = read.reading.range(ofRootMember: CaseRecord.CodingKeys.actual.stringValue)
    } else {
      SlowReads.count(.caseLine)
      (summary, isWhole) = (try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber), true)
      actual = nil
    }
  }

  /// A case this process made (a worker's death errored it, or a tripped breaker did not
  /// run it), as the line a results file holds: a step's cases then come as lines in plan
  /// order whichever process made them.
  init(encoding record: CaseRecord, explain: CaseExplainer) {
    text = CaseLineWriter.line(record, explain: explain)
    (summary, line, isWhole, actual) = (record, text, true, nil)
    (path, lineNumber, toldDigest) = ("this process", 1, nil)
  }

  static func == (one: CaseLine, other: CaseLine) -> Bool { one.text == other.text }

  func whole() throws(InputError) -> CaseRecord {
    guard !isWhole else { return summary }
    let read = text.withUnsafeBytes { raw in MemberDecoder.decode(CaseRecord.self, from: raw.bindMemory(to: UInt8.self)) }
    if let read { return read }
    return try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber)
  }

  /// The case as `CaseRecord.abridged()` has it, from the summary and the actual value alone
  /// (a shard's example the merged run abridges holds a month of cells in three members).
  func abridged() throws(InputError) -> CaseRecord {
    guard !isWhole, !summary.isAbridged else { return try whole().abridged() }
    var record = summary
    if let toldDigest {
      record.actualDigest = toldDigest
      return record
    }
    let value = try actual.map { range throws(InputError) in
      let read = text.withUnsafeBytes { raw in
        Value(jsonText: UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[range]))
      }
      if let read { return read }
      return try Self.decode(Value.self, text[range], path: path, lineNumber: lineNumber)
    } ?? .null
    record.actualDigest = value.digestText
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

