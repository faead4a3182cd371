import Foundation

/// A case's line: the one writer of `CaseRecord` (its `encode(to:)` writes through it). Keys
/// come from `CaseRecord.CodingKeys` and `CaseReview.CodingKeys`, sorted by their UTF-8 as
/// `RecordCoding.lineEncoder()` sorts every other record's (a test holds the order); strings
/// escaped by `JSONString`, slashes unescaped.
///
/// Every case that does not pass is written as a line once per run, by the worker that
/// evaluated it, and a waived one again, abridged, by the parent: ~75,000 lines a shard.
/// Through `JSONEncoder` that was ~30 µs a line (4 % of a worker's CPU, 12 % of a parent's);
/// a case's shape is fixed (strings, integers, booleans, lists and nulls under keys known
/// here), so its line is a few appends.
struct CaseLineWriter {
  private var bytes: [UInt8] = []

  /// The line of `record` (no newline); a failing case's `explain` is `explain`'s.
  static func line(_ record: CaseRecord, explain: CaseExplainer) -> Data {
    var writer = CaseLineWriter()
    writer.bytes.reserveCapacity(512)
    writer.write(record, explain: explain)
    return Data(writer.bytes)
  }

  private typealias K = CaseRecord.CodingKeys
  private typealias R = CaseReview.CodingKeys

  /// The members sorted by key (by UTF-8 code units), as `JSONEncoder` sorts them.
  private mutating func write(_ record: CaseRecord, explain: CaseExplainer) {
    let outcome = record.outcome
    var object = ObjectWriter()
    if let digest = record.actualDigest {
      object.member(K.actualDigest, &self) { $0.string(digest) }
    } else {
      object.member(K.actual, &self) { $0.value(outcome.actual) }
    }
    object.member(K.check, &self) { $0.string(record.id.check) }
    let whole = record.actualDigest == nil
    let failing = outcome.verdict != .passed
    if whole && failing {
      object.member(K.detail, &self) { writer in
        writer.list(outcome.detail) { $0.string($1) }
      }
    }
    if whole {
      object.member(K.dimensions, &self) { writer in
        var dimensions = ObjectWriter()
        for dimension in Dimension.byKey {
          if let value = record.id.value(of: dimension) {
            dimensions.member(dimension.rawValue, &writer) { $0.string(value) }
          }
        }
        dimensions.end(&writer)
      }
      object.member(K.expected, &self) { $0.value(outcome.expected) }
      if failing {
        object.member(K.explain, &self) { $0.string(explain.text(record.id)) }
      }
    }
    object.member(K.id, &self) { $0.string(record.id.description) }
    if whole, let months = outcome.months {
      object.member(K.months, &self) { writer in
        var readings = ObjectWriter()
        readings.member(MonthReadings.CodingKeys.oracle, &writer) { $0.string(months.oracle) }
        readings.member(MonthReadings.CodingKeys.subject, &writer) { $0.string(months.subject) }
        readings.end(&writer)
      }
    }
    if failing { object.member(K.pattern, &self) { $0.string(outcome.pattern) } }
    let review = record.review
    if review != CaseReview() {
      object.member(K.review, &self) { writer in
        var members = ObjectWriter()
        if let baseline = review.baseline { members.member(R.baseline, &writer) { $0.string(baseline.rawValue) } }
        if let waiver = review.contradicts { members.member(R.contradicts, &writer) { $0.string(waiver) } }
        if let expected = review.triageExpected {
          members.member(R.triageExpected, &writer) { $0.value(expected) }
        }
        if review.oracleStale == true { members.member(R.oracleStale, &writer) { $0.value(.bool(true)) } }
        if let waiver = review.outOfScope { members.member(R.outOfScope, &writer) { $0.string(waiver) } }
        if let triage = review.triage { members.member(R.triage, &writer) { $0.string(triage.rawValue) } }
        if let waiver = review.waiver { members.member(R.waiver, &writer) { $0.string(waiver) } }
        members.end(&writer)
      }
    }
    object.member(K.step, &self) { $0.int(record.step) }
    if whole, let values = outcome.values {
      object.member(K.values, &self) { writer in
        var sides = ObjectWriter()
        sides.member(CaseValues.CodingKeys.oracle, &writer) { $0.value(values.oracle) }
        if let reference = values.reference {
          sides.member(CaseValues.CodingKeys.reference, &writer) { writer in
            var members = ObjectWriter()
            members.member(ReferenceValue.CodingKeys.release, &writer) { $0.string(reference.release) }
            members.member(ReferenceValue.CodingKeys.value, &writer) { $0.value(reference.value) }
            members.end(&writer)
          }
        }
        sides.member(CaseValues.CodingKeys.subject, &writer) { $0.value(values.subject) }
        sides.end(&writer)
      }
    }
    object.member(K.verdict, &self) { $0.string(outcome.verdict.rawValue) }
    object.end(&self)
  }

  /// Opens an object at its first member and closes it (`{}` when it has none).
  private struct ObjectWriter {
    private var count = 0

    mutating func member(_ key: some CodingKey, _ writer: inout CaseLineWriter,
                         _ value: (inout CaseLineWriter) -> Void) {
      member(key.stringValue, &writer, value)
    }

    mutating func member(_ key: String, _ writer: inout CaseLineWriter, _ value: (inout CaseLineWriter) -> Void) {
      writer.bytes.append(count == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
      count += 1
      JSONString.append(key, to: &writer.bytes)
      writer.bytes.append(UInt8(ascii: ":"))
      value(&writer)
    }

    func end(_ writer: inout CaseLineWriter) {
      if count == 0 { writer.bytes.append(UInt8(ascii: "{")) }
      writer.bytes.append(UInt8(ascii: "}"))
    }
  }

  private mutating func list<T>(_ items: [T], _ item: (inout CaseLineWriter, T) -> Void) {
    bytes.append(UInt8(ascii: "["))
    for (index, element) in items.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      item(&self, element)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  private mutating func value(_ value: Value) {
    switch value {
    case .int(let number): int(number)
    case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .string(let text): string(text)
    case .list(let values): list(values) { $0.value($1) }
    case .null: bytes.append(contentsOf: "null".utf8)
    }
  }

  private mutating func int(_ number: Int) { bytes.append(contentsOf: String(number).utf8) }

  private mutating func string(_ text: String) { JSONString.append(text, to: &bytes) }
}
