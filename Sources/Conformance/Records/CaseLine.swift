import Foundation

/// One case as another process wrote its line: a shard's `cases.jsonl.gz` (read back by
/// `merge`) or a worker process's reply (read by its parent). What the tally counts is read
/// from a few members; the line itself goes to the results' cases file as it was written.
///
/// Both used to decode every line whole and encode it again. A merge spent ~70 % of its
/// time on that over a full sweep's 600,000 lines, a shard's parent ~6 CPU-s of its ~110 in
/// the replies of its two workers. Only the cases the tally keeps as examples (a few
/// thousand) are decoded whole now, and only a case kept whole that the run abridges is
/// encoded anew. A member not read is checked to be JSON, not to be a case's value;
/// `JSONDecoder` judges it when the case is read whole.
///
/// A class: a merge hands each of ~600,000 lines from its shard's batch to the step that
/// takes it, and a copy of the struct retained and released every member (a tenth of a
/// merge's main thread).
final class CaseLine: TalliedCase, Sendable, Equatable {
  /// The id, step, verdict, pattern, review and digest; values only when read whole.
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

  static let members = JSONMembers.Names(
    [CaseRecord.CodingKeys.id, .step, .verdict, .pattern, .review, .actualDigest, .actual])
  static let reviewMembers = JSONMembers.Names(
    [CaseReview.CodingKeys.waiver, .triage, .baseline, .contradicts, .outOfScope, .oracleStale])

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
    let members = JSONMembers(bytes, wanted: Self.members)
    if let members, let summary = Self.summary(members) {
      (self.summary, isWhole) = (summary, false)
      actual = members.range(6)
    } else {
      SlowReads.count(.caseLine)
      (summary, isWhole) = (try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber), true)
      actual = nil
    }
  }

  /// A case this process made (a worker's death errored it, or a tripped breaker did not
  /// run it), as the line a results file holds: a step's cases then come as lines in plan
  /// order whichever process made them.
  init(encoding record: CaseRecord, explain: ExplainCommand) {
    text = CaseLineWriter.line(record, explain: explain)
    (summary, line, isWhole, actual) = (record, text, true, nil)
    (path, lineNumber, toldDigest) = ("this process", 1, nil)
  }

  static func == (one: CaseLine, other: CaseLine) -> Bool { one.text == other.text }

  func whole() throws(InputError) -> CaseRecord {
    isWhole ? summary : try Self.decode(CaseRecord.self, text, path: path, lineNumber: lineNumber)
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
        JSONMembers.value(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[range]))
      }
      if let read { return read }
      return try Self.decode(Value.self, text[range], path: path, lineNumber: lineNumber)
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
      if read.has(3) {
        guard let waiver = read.string(3) else { return nil }
        review.contradicts = waiver
      }
      if read.has(4) {
        guard let waiver = read.string(4) else { return nil }
        review.outOfScope = waiver
      }
      if read.has(5) {
        // Written only as `true`.
        guard let flag = read.text(5), flag.elementsEqual("true".utf8) else { return nil }
        review.oracleStale = true
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

