@testable import Conformance
import Foundation
import ICUOracle
import Testing

/// Every field of every record another process writes comes back through every reader of it:
/// `MemberDecoder` (a merge, a baseline, a worker's parent, the executor's questions and its
/// replies), `JSONDecoder` (what `MemberDecoder` is not sure of), and the paths that read
/// through them (a case line, a batch of a file, a worker's reply).
///
/// A field added to a record must be set in its sample here (the check of unset fields fails
/// until it is), and then fails the round trip if any reader misses it.
@Suite("Every field through every reader")
struct RecordFieldsTests {
  /// The fields of `value` that hold nothing (nil, empty, zero, false), by path. Structs and
  /// classes are looked into; enums and collections are leaves.
  static func unset(_ value: Any, path: String = "", skipping: Set<String> = []) -> Set<String> {
    // A case id is the record's one field; the dimensions a check does not have are not fields.
    if value is CaseID { return [] }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return [path] }
      return unset(wrapped, path: path, skipping: skipping)
    case .struct?, .class?:
      var found: Set<String> = []
      for child in mirror.children {
        guard let label = child.label, !skipping.contains(label) else { continue }
        found.formUnion(unset(child.value, path: path.isEmpty ? label : "\(path).\(label)", skipping: skipping))
      }
      return found
    case .collection?, .dictionary?, .set?:
      return mirror.children.isEmpty ? [path] : []
    default:
      switch value {
      case let number as Int: return number == 0 ? [path] : []
      case let number as Int32: return number == 0 ? [path] : []
      case let number as Double: return number == 0 ? [path] : []
      case let flag as Bool: return flag ? [] : [path]
      case let text as String: return text.isEmpty ? [path] : []
      default: return []
      }
    }
  }

  /// `text` read by `MemberDecoder`, which must be sure of it.
  static func fast<T: Decodable>(_ type: T.Type, _ text: Data) throws -> T {
    try #require(text.withUnsafeBytes { MemberDecoder.decode(T.self, from: $0.bindMemory(to: UInt8.self)) },
                 "MemberDecoder declined \(String(decoding: text, as: UTF8.self))")
  }

  /// A step's plan as written (`PlanStepSet`), tabs and all.
  static let plan = RecordReadingTests.plan.replacingOccurrences(of: "\\t", with: "\t")

  /// A case whole, every field set; and the same case abridged (its digest set).
  static let caseRecord: CaseRecord = {
    var record = CaseRecord(
      id: CaseID(check: "month-days", calendar: "hebrew", firstWeekday: .fixed(2), zone: "Pacific/Apia",
                 month: LocalDay(year: 2011, month: 12, day: 1)),
      step: 41,
      outcome: Outcome(verdict: .failed, expected: .list([.int(1), .string("é\u{1B}")]), actual: .list([.int(2)]),
                       pattern: "a cell falls outside the month", detail: ["one", "two"],
                       months: MonthReadings(oracle: "era 0 year 5772 month 4", subject: "era 0 year 5772 month 5")),
      review: CaseReview(waiver: "w", triage: .dataDrift, triageExpected: .int(2), baseline: .changed))
    record.outcome.values = CaseValues(oracle: .int(1), subject: .bool(true),
                                       reference: ReferenceValue(release: "CLDR 46 (babel 2.17.0)", value: .int(3)))
    (record.review.contradicts, record.review.outOfScope, record.review.oracleStale) = ("c", "o", true)
    return record
  }()

  static let stepRecord: StepRecord = {
    var counts = StatusCounts()
    (counts.passed, counts.failed, counts.errored, counts.skipped) = (9, 1, 2, 3)
    (counts.notRun, counts.waived, counts.oracleStale, counts.unexpectedPass) = (4, 5, 6, 7)
    var step = StepRecord(index: 854, check: "month-days", name: "hebrew · Apia", plan: plan, counts: counts,
                          seconds: 0.003)
    (step.cpuSeconds, step.slowestCaseCPUSeconds, step.skipReason) = (0.015, 0.25, "no \"months\"")
    step.skipReasons = ["no \"months\"": 3]
    step.cells = ["fw": ["1": PassCount(passed: 7, total: 7), "2": PassCount(passed: 2, total: 5)]]
    (step.baselineClasses, step.waiverMatches) = (["still-failing": 3], ["w": 5])
    (step.waiverContradictions, step.waiverOutOfScope) = (["c": 1], ["o": 1])
    step.cases = [caseRecord]
    step.cpuParts = CPUParts(subject: 0.03125, oracle: 0.0125, triage: 0.5, review: 0.25, record: 0.001)
    return step
  }()

  @Test("the samples set every field: a field added to a record fails here until its sample sets it")
  func samplesAreFull() {
    let whole = Self.unset(Self.caseRecord)
    #expect(whole == ["actualDigest"], "only an abridged case has a digest")
    #expect(Self.unset(Self.caseRecord.abridged()).isDisjoint(with: whole))
    // `caseLines` is a worker's parent's copy of `cases`, never written.
    #expect(Self.unset(Self.stepRecord, skipping: ["caseLines", "actualDigest"]).isEmpty)
    #expect(Self.unset(Self.workerReply(), skipping: ["caseLines", "actualDigest"]).isEmpty)
  }

  @Test("a case line: every field back through JSONDecoder, MemberDecoder and a merge's case line; the tally's read leaves the values only")
  func caseFields() throws {
    for record in [Self.caseRecord, Self.caseRecord.abridged()] {
      let line = CaseLineWriter.line(record, explain: .plain)
      #expect(try RecordCoding.decoder().decode(CaseRecord.self, from: line) == record)
      #expect(try Self.fast(CaseRecord.self, line) == record)
      let caseLine = try Array(line).withUnsafeBufferPointer { try CaseLine($0, path: "shard", lineNumber: 1) }
      #expect(try caseLine.whole() == record)
      #expect(try caseLine.abridged() == record.abridged())
      var summary = record.abridged()
      (summary.actualDigest, summary.review.triageExpected) = (record.actualDigest, nil)
      #expect(caseLine.summary == summary)
    }
  }

  @Test("a step record: every field back through JSONDecoder, MemberDecoder and a file read in batches, as a merge reads it")
  func stepFields() throws {
    let line = RecordCoding.line(Self.stepRecord, encoder: RecordCoding.lineEncoder())
    #expect(try RecordCoding.decoder().decode(StepRecord.self, from: line) == Self.stepRecord)
    #expect(try Self.fast(StepRecord.self, line) == Self.stepRecord)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    try (line + Data("\n".utf8) + line).write(to: file)
    var read: [StepRecord] = []
    try JSONValueReader(path: file.path).forEachBatch(StepRecord.self) { read += $0 }
    #expect(read == [Self.stepRecord, Self.stepRecord])
  }

  static func workerReply() -> WorkerReply {
    var reply = WorkerReply()
    (reply.ready, reply.alive, reply.forks) = (true, true, true)
    (reply.step, reply.slowestCaseCPU, reply.caseLines) = (stepRecord, 0.5, 2)
    reply.actualDigests = [nil, "0123456789abcdef"]
    reply.hung = HangNote(step: 3, position: 4, cpuSeconds: 2.5, wallSeconds: 3.5, limit: CaseLimit(cpu: 2, wall: 4),
                          function: "days", diagnosis: true)
    reply.slowReads = ["caseLine": 1]
    reply.childEnded = WorkerChildren.End(signal: 4, exit: 1)
    return reply
  }

  @Test("a worker's reply: every field back through JSONDecoder, MemberDecoder and the parent's read")
  func workerReplyFields() throws {
    let encoder = RecordCoding.lineEncoder()
    let line = RecordCoding.line(Self.workerReply(), encoder: encoder)
    let decoded = try RecordCoding.decoder().decode(WorkerReply.self, from: line)
    let fast = try Self.fast(WorkerReply.self, line)
    let read = try Array(line).withUnsafeBufferPointer { try WorkerReply.read($0, decoder: RecordCoding.decoder()) }
    // The reply is not Equatable: each reading is written again and compared byte for byte.
    for reply in [decoded, fast, read] { #expect(RecordCoding.line(reply, encoder: encoder) == line) }
    #expect(fast.step == Self.stepRecord && fast.hung?.function == "days" && fast.childEnded?.signal == 4)
  }

  @Test("an executor's question: every key the harness writes, read alike by both decoders")
  func questionFields() throws {
    let calendar = #"{"identifier":"hebrew","timeZone":"Pacific/Apia","firstWeekday":2,"minimumDaysInFirstWeek":4,"locale":"he_IL"}"#
    let line = #"{"id":7,"function":"role","protocol":"conformance-executor/1","month":1.5,"old":2,"new":3,"day":4,"start":5,"end":6,"comeback":7,"departure":8,"date":9,"offset":-1,"calendar":\#(calendar),"selection":{"start":1,"end":2},"kind":"header","text":"2011-12-31","locale":"he_IL","actions":[{"action":"select","date":10},{"action":"tap"}]}"#
    let keys = Set(ExecutorServer.Question.CodingKeys.allCases.map(\.stringValue))
    let written = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(Set(written.keys) == keys, "the line holds every key a question has")
    let question = try Self.fast(ExecutorServer.Question.self, Data(line.utf8))
    #expect(try JSONDecoder().decode(ExecutorServer.Question.self, from: Data(line.utf8)) == question)
    #expect(Self.unset(question).isEmpty, "\(Self.unset(question))")
    #expect(question.month == 1.5 && question.offset == -1 && question.calendar?.minimumDaysInFirstWeek == 4)
    #expect(question.actions == [.init(action: "select", date: 10), .init(action: "tap", date: nil)])
  }

  @Test("an executor's reply: every member, read alike by both decoders; an answer that is an object is read by key")
  func replyFields() throws {
    let line = Data(#"{"id":3,"answer":{"start":1,"end":[2,"x",null]},"unsupported":"u","error":"e"}"#.utf8)
    var reply = try Self.fast(ExecutorWire.Reply.self, line)
    #expect(Self.unset(reply).isEmpty, "\(Self.unset(reply))")
    // MemberDecoder keeps an object's members in the order written.
    #expect(reply.answer == .object([("start", .int(1)), ("end", .array([.int(2), .string("x"), .null]))]))
    // JSONDecoder gives them in an order of its own: compared by key.
    func byKey(_ value: JSONValue?) -> [String: String] {
      guard case .object(let members)? = value else { return [:] }
      return Dictionary(uniqueKeysWithValues: members.map { ($0.0, $0.1.rendered(indent: nil)) })
    }
    var decoded = try JSONDecoder().decode(ExecutorWire.Reply.self, from: line)
    #expect(byKey(decoded.answer) == byKey(reply.answer) && byKey(reply.answer).count == 2)
    (decoded.answer, reply.answer) = (nil, nil)
    #expect(decoded == reply)
  }
}
