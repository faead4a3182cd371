@testable import Conformance
import Foundation
import ICUOracle
import Synchronization
import Testing

/// What `MemberDecoder` reads of each record must be what `JSONDecoder` reads, or nothing at
/// all (the value then goes to `JSONDecoder`).
@Suite("Reading records")
struct RecordReadingTests {
  struct Probe: Decodable, Equatable {
    var id: String
    var step: Int
  }

  /// What `MemberDecoder` reads of `text` as a `T`: `nil` when it declines it.
  func fast<T: Decodable>(_ text: String, as type: T.Type = Probe.self) -> T? {
    Array(text.utf8).withUnsafeBufferPointer { MemberDecoder.decode(T.self, from: $0) }
  }

  @Test("JSON strings: plain text goes in whole, escapes where RFC 8259 needs them, and U+2028/9 escaped",
        arguments: [
          ("America/Sao_Paulo", #""America/Sao_Paulo""#),
          ("é€ 月", #""é€ 月""#),  // 0xE2 leads '€' too: the slow path writes it unchanged
          (#"say "hi" \ back"#, #""say \"hi\" \\ back""#),
          ("tab\tline\ncr\r", #""tab\tline\ncr\r""#),
          ("\u{1}\u{1F}", #""\u0001\u001f""#),
          ("\u{8}\u{C}\u{7F}", "\"\\b\\f\u{7F}\""),  // as JSONEncoder writes them; DEL as it is
          ("a\u{2028}b\u{2029}", #""a\u2028b\u2029""#),
        ])
  func jsonStrings(text: String, written: String) throws {
    var output = ""
    JSONValue.writeString(text, into: &output)
    #expect(output == written)
    #expect(try JSONDecoder().decode(String.self, from: Data(output.utf8)) == text)
  }

  /// The page's data and results.json carry one number: rounded to three places, the trap
  /// storm's limit of 9.084999999999999 s became 9.085, and the page showed 9.09 s where
  /// results.json's reads 9.08 s.
  @Test("JSON numbers: written as JSONEncoder writes them, reading back as the same value",
        arguments: [9.084_999_999_999_999, 9.085, 0.1, 2.0, 0.00001, 123_456.789, 1e16])
  func jsonNumbers(value: Double) throws {
    let written = JSONValue.double(value).rendered(indent: nil)
    #expect(written == String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    #expect(try JSONDecoder().decode(Double.self, from: Data(written.utf8)) == value)
  }

  @Test("a bench row's measured seconds go to the millisecond")
  func measuredSeconds() {
    #expect(JSONValue.measured(12.345_678).rendered(indent: nil) == "12.346")
    #expect(JSONValue.measured(0.000_4).rendered(indent: nil) == "0")
  }

  @Test("members read as JSONDecoder reads them, escapes, nesting and white space included",
        arguments: [
          (#"{"id":"a","step":1}"#, Probe(id: "a", step: 1)),
          // Members in any order, nested values skipped, strings holding braces and quotes.
          (#"  {"step" : 12 , "x": {"y": [1, 2.5e-3, -0, true, false, null, "}\"]"]}, "id":"a"}  "#,
           Probe(id: "a", step: 12)),
          // \u escapes (é, then 😀 as a surrogate pair) and a newline, by RFC 8259 §7.
          (#"{"id":"a\u00e9\ud83d\ude00\n\/","step":-3}"#, Probe(id: "a\u{E9}\u{1F600}\n/", step: -3)),
          // A key written with an escape is still the key.
          (#"{"\u0069d":"b","step":7}"#, Probe(id: "b", step: 7)),
          ("{\"id\":\"tab\\there\",\n\"step\":\n0}", Probe(id: "tab\there", step: 0)),
        ])
  func agrees(text: String, expected: Probe) throws {
    #expect(fast(text) == expected)
    #expect(try JSONDecoder().decode(Probe.self, from: Data(text.utf8)) == expected)
  }

  @Test("text that is not one well-formed object, or a member it is not sure of, is left to JSONDecoder",
        arguments: [
          #"{"id":"a","step":1,}"#,  // trailing comma
          #"{"id":"a" "step":1}"#,  // no comma
          #"{"id":"a","step":01}"#,  // leading zero
          "{\"id\":\"a\u{01}\",\"step\":1}",  // raw control character in a string
          #"{"id":"a","step":1} x"#,  // text after the object
          #"[{"id":"a","step":1}]"#,  // not an object
          #"{"id":"a","step":1"#,  // unterminated
          #"{"id":"a\x","step":1}"#,  // unknown escape
          #"{"id":"a","step":1.0}"#,  // an integer with a fraction: JSONDecoder's call
          #"{"id":"\ud800","step":1}"#,  // a lone surrogate
          #"{"id":1,"step":1}"#,  // a number where a string is wanted
          #"{"step":1}"#,  // missing
        ])
  func declines(text: String) {
    #expect(fast(text) == nil)
  }

  /// A record whose every fifth line is written `7.0`, which `MemberDecoder` declines, to
  /// mix both readers.
  struct StepProbe: MemberDecodable, Sendable, Equatable {
    var index: Int
    var plan: String
    static let slowReader = SlowReads.Reader.stepRecord
  }

  @Test("batches come back in file order, from both readers, however many are in flight")
  func order() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let count = 25_000
    let text = (0..<count).map { #"{"plan":"p\#($0)","index":\#($0)\#($0 % 5 == 0 ? ".0" : "")}"# }
      .joined(separator: "\n")
    try Data(text.utf8).write(to: file)
    let reader = try JSONValueReader(path: file.path)
    var seen: [StepProbe] = []
    try reader.forEachBatch(StepProbe.self) { batch in seen += batch }
    #expect(seen.count == count)
    #expect(seen.indices.first { seen[$0].index != $0 } == nil, "the first value out of order")
    #expect(seen.allSatisfy { $0.plan == "p\($0.index)" })
  }

  @Test("a value neither reader can take names its file and line")
  func badLine() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let lines = (0..<3000).map { $0 == 2345 ? #"{"plan":"x","index":"seven"}"# : #"{"plan":"x","index":1}"# }
    try Data(lines.joined(separator: "\n").utf8).write(to: file)
    let reader = try JSONValueReader(path: file.path)
    #expect {
      try reader.forEachBatch(StepProbe.self) { _ in }
    } throws: { error in
      "\(error)".contains("\(file.path):2346") && "\(error)".contains("index")
    }
  }

  static let plan = #"leading-blanks|calendar=coptic|zone=America/Argentina/Ushuaia\t1,2\t1gkun,u\t"#

  @Test("a step record read from its members is the one JSONDecoder reads", arguments: [
    // Every member, an escaped name and reason, members out of order, white space.
    #"{ "waiverMatches": {"w\u00e9": 2}, "index": 854, "check": "leading-blanks", "name": "coptic \u00b7 Ushuaia\"", "plan": "\#(plan)", "counts": {"cases": 14, "passed": 9, "failed": 1, "errored": 0, "skipped": 2, "waived": 2, "unexpectedPasses": 0}, "seconds": 0.003, "cpuSeconds": 1.5e-2, "skipReason": "no \"months\"", "skipReasons": {"a": 2}, "cells": {"fw": {"1": [7, 7], "2": [2, 5]}, "zone class": {"skipped-midnight": [9, 12]}}, "baselineClasses": {"still-failing": 3} }"#,
    // The least a record holds: no times, no cells, no counts of anything.
    #"{"index":0,"check":"c","name":"n","plan":"\#(plan)","counts":{"passed":0,"failed":0,"errored":0,"skipped":0,"waived":0,"unexpectedPasses":0}}"#,
  ])
  func stepMembers(line: String) throws {
    let decoded = try JSONDecoder().decode(StepRecord.self, from: Data(line.utf8))
    #expect(fast(line, as: StepRecord.self) == decoded)
  }

  @Test("a step record unlike what this program writes is left to JSONDecoder", arguments: [
    #"{"index":1,"check":"c","name":"n","plan":"\#(plan)","counts":{"cases":2,"passed":1,"failed":0,"errored":0,"skipped":0,"waived":0,"unexpectedPasses":0}}"#,  // counts that do not add up
    #"{"index":1,"check":"c","name":"n","plan":"\#(plan)","counts":{"passed":1,"failed":0,"errored":0,"skipped":0,"waived":0,"unexpectedPasses":0},"seconds":"1"}"#,  // a time as text
    #"{"index":1,"check":"c","name":"n","plan":"\#(plan)","counts":{"passed":1,"failed":0,"errored":0,"skipped":0,"waived":0,"unexpectedPasses":0},"skipReasons":{"a":1,"a":2}}"#,  // a reason twice
    #"{"index":1,"check":"c","name":"n","plan":"no plan","counts":{"passed":1,"failed":0,"errored":0,"skipped":0,"waived":0,"unexpectedPasses":0}}"#,  // a malformed plan
  ])
  func stepDeclined(line: String) {
    #expect(fast(line, as: StepRecord.self) == nil)
  }

  @Test("a worker's reply is read by key as JSONDecoder reads it; one unlike what a worker writes is left to it")
  func workerReplyMembers() throws {
    let line = #"{"index":854,"check":"leading-blanks","name":"coptic \u00b7 Ushuaia","plan":"\#(Self.plan)","counts":{"cases":14,"passed":9,"failed":1,"errored":0,"skipped":2,"waived":2,"unexpectedPasses":0},"seconds":0.003,"cpuSeconds":0.015,"cells":{"fw":{"1":[7,7]}}}"#
    let step = try JSONDecoder().decode(StepRecord.self, from: Data(line.utf8))
    let replies = [
      WorkerReply(step: step, slowestCaseCPU: 0.25, caseLines: 3, actualDigests: [nil, "0123456789abcdef", "\u{e9}\""]),
      WorkerReply(step: step, caseLines: 0),
      WorkerReply(step: step),
    ]
    for reply in replies {
      let text = RecordCoding.line(reply, encoder: RecordCoding.lineEncoder())
      let decoded = try JSONDecoder().decode(WorkerReply.self, from: text)
      let read = try #require(Array(text).withUnsafeBufferPointer { MemberDecoder.decode(WorkerReply.self, from: $0) })
      #expect(read.step == decoded.step && read.step == step)
      #expect(read.slowestCaseCPU == decoded.slowestCaseCPU && read.caseLines == decoded.caseLines)
      #expect(read.actualDigests == decoded.actualDigests && read.actualDigests == reply.actualDigests)
    }
    let ready = try #require(fast(#"{"ready":true,"forks":true}"#, as: WorkerReply.self))
    #expect(ready.ready == true && ready.forks == true && ready.step == nil)
    for other in [#"{"step":\#(line),"hung":{"case":"x"}}"#, #"{"step":\#(line),"actualDigests":[1]}"#,
                  #"{"step":\#(line),"caseLines":"3"}"#, #"{"step":\#(line),"caseLines":3.0}"#] {
      #expect(fast(other, as: WorkerReply.self) == nil, "\(other)")
    }
  }

  /// Cases as a shard writes them, and hand-written ones with escapes where a merge reads.
  static let caseLines: [String] = {
    let id = try! CaseID(parsing: "month-days|calendar=hebrew|fw=2|zone=Pacific/Apia|month=2011-12-01")
    var waived = CaseRecord(
      id: id, step: 41,
      outcome: Outcome(verdict: .failed, expected: .list([.int(1), .string("a\u{1B}</script>")]),
                       actual: .list([.int(2)]), pattern: "a cell falls outside the month",
                       detail: ["one", "two"]),
      review: CaseReview(waiver: "w", triage: .dataDrift, triageExpected: .int(2), baseline: .stillFailing))
    let encoder = RecordCoding.lineEncoder()
    let line = { (record: CaseRecord) in String(decoding: RecordCoding.line(record, encoder: encoder), as: UTF8.self) }
    let passed = CaseRecord(id: id, step: 3, outcome: Outcome(verdict: .passed, expected: .int(1), actual: .int(1)))
    let abridged = line(waived.abridged())
    waived.review.baseline = nil
    return [
      line(waived), abridged, line(passed),
      // Escaped id, pattern and waiver; a null review member; keys out of order.
      #"{"verdict":"failed","step":7,"pattern":"tab\there \u00e9\ud83d\ude00","id":"date-text|locale=\u0065n_US|zone=UTC","review":{"waiver":"\u0077","triage":null},"actual":1,"expected":2}"#,
      #"{"id":"date-text|locale=en_US","step":7,"verdict":"errored","review":null,"pattern":null}"#,
    ]
  }()

  @Test("a merge reads of a case line what JSONDecoder reads, and abridges it as a run does",
        arguments: caseLines)
  func caseLine(line: String) throws {
    let decoded = try JSONDecoder().decode(CaseRecord.self, from: Data(line.utf8))
    let read = try Array(line.utf8).withUnsafeBufferPointer { bytes in
      try CaseLine(bytes, path: "shard", lineNumber: 1)
    }
    var expected = decoded.abridged()
    (expected.actualDigest, expected.review.triageExpected) = (decoded.actualDigest, nil)
    #expect(read.summary == expected, "the summary holds all but the values")
    #expect(try read.whole() == decoded)
    #expect(try read.abridged() == decoded.abridged())
    #expect(read.line == Data(line.utf8))
  }

  /// Every case (`--record all`) of a sweep with failures, waivers, triage and both sides'
  /// values, and records made up to hold every character class a string can.
  static let writtenRecords: [CaseRecord] = {
    guard let corpus = try? smallCorpus(locales: ["en_US", "ar_SA", "fa_IR"],
                                        calendars: ["gregorian", "islamic", "chinese"],
                                        zones: ["UTC", "Asia/Tehran", "America/Sao_Paulo"], years: 2017...2018)
    else { return [] }
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    var runner = Runner(plan: plan, corpus: corpus, subject: .pickerLogic, workers: 2, recordAll: true)
    runner.review = Review(waivers: (try? WaiverFile.load(corpora.appendingPathComponent(Corpus.Files.waivers))) ?? [],
                           about: .pickerLogic, baseline: nil, versions: try! RunVersions.current(), today: .today)
    let cases = Mutex<[CaseRecord]>([])
    runner.run { event in
      if case .stepEnded(let step) = event.kind { cases.withLock { $0 += step.cases } }
    }
    var every = ""
    for scalar in 0..<0x80 { every.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
    every += "/é\u{202F}😀\u{2028}\u{FEFF}"
    var made = CaseRecord(
      id: CaseID(check: "date-text", locale: every, calendar: "gregorian", firstWeekday: .fixed(7), zone: "Etc/GMT+3",
                 month: LocalDay(year: 2024, month: 2, day: 1), variant: "v'1"),
      step: 12,
      outcome: Outcome(verdict: .failed, expected: .list([.int(-3), .bool(true), .null, .list([]), .string(every)]),
                       actual: .bool(false), pattern: every, detail: [every, ""],
                       months: MonthReadings(oracle: every, subject: "era 1")),
      review: CaseReview(waiver: every, triage: .dataDrift, triageExpected: .string("\u{7}"), baseline: .changed))
    made.outcome.values = CaseValues(oracle: .list([.string(every)]), subject: .null)
    var passed = made
    (passed.outcome.verdict, passed.review) = (.passed, CaseReview(baseline: .fixed))
    let records = cases.withLock { $0 }
    return records + [made, passed, CaseRecord(id: CaseID(check: "leading-blanks"), step: 0, outcome: .errored(""))]
      + records.map { $0.abridged() } + [made.abridged()]
  }()

  @Test("a case's line: its keys are CaseRecord's and CaseReview's, sorted by UTF-8 as JSONEncoder sorts every other record's; it reads back as the case; JSONEncoder writes the same bytes")
  func caseLineWriter() throws {
    let records = Self.writtenRecords
    let statuses = Set(records.map(\.status))
    // The sweep reaches what the writer must handle: failures, waivers, triage, values.
    #expect(records.count > 2000, "\(records.count)")
    try #require(statuses.isSuperset(of: [.passed, .waived, .errored]), "\(statuses)")
    #expect(records.contains { $0.review.triageExpected != nil } && records.contains { $0.outcome.values != nil })
    #expect(records.contains { $0.outcome.months != nil } && records.contains(where: \.isAbridged))
    let encoder = RecordCoding.lineEncoder()
    // A run's explain command with every option it can carry, quoting included.
    let explain = ExplainCommand(subject: "node 'my subject'.js", waivers: "none", corpora: "/tmp/c d",
                                 fault: "trap:*x*")
    encoder.userInfo[CaseExplainer.userInfoKey] = explain.explainer
    // Every key the documentation of cases.jsonl.gz lists (Schemas/case-record.schema.json).
    let caseKeys: Set = ["id", "check", "step", "dimensions", "verdict", "expected", "actual", "values", "months",
                         "pattern", "detail", "explain", "actualDigest", "review"]
    let reviewKeys: Set = ["waiver", "triage", "expectedFoundationICU", "baseline", "contradicts", "outOfScope"]
    /// An object's keys in the order written, and its members.
    func object(_ bytes: UnsafeBufferPointer<UInt8>) -> [(String, JSONValue)] {
      guard case .object(let members)? = MemberDecoder.decode(JSONValue.self, from: bytes) else { return [] }
      return members
    }
    func keys(_ members: [(String, JSONValue)]) -> [String] { members.isEmpty ? ["not an object"] : members.map(\.0) }
    var faults: [String] = []
    for var record in records {
      // The made-up records' ids hold "|" (no id reads back); their values are what matters.
      if (try? CaseID(parsing: record.id.description)) != record.id { record.id = CaseID(check: "date-text", locale: "en_US") }
      let line = CaseLineWriter.line(record, explain: explain.explainer)
      let members = Array(line).withUnsafeBufferPointer(object)
      let top = keys(members)
      let review: [String] = members.first { $0.0 == "review" }.map { member in
        guard case .object(let review) = member.1 else { return ["not an object"] }
        return keys(review)
      } ?? []
      // Sorted by UTF-8 code units, as JSONEncoder's sortedKeys sorts.
      func sorted(_ keys: [String]) -> Bool { zip(keys, keys.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
      if !sorted(top) || !sorted(review) || !Set(top).isSubset(of: caseKeys) || !Set(review).isSubset(of: reviewKeys) {
        faults.append("\(record.id): keys \(top), review \(review)")
      }
      // Read back: what the line holds is the case's (a passing case's pattern and detail,
      // an abridged case's values are not written).
      let read = try JSONDecoder().decode(CaseRecord.self, from: line)
      var kept = record
      if record.outcome.verdict == .passed { (kept.outcome.pattern, kept.outcome.detail) = ("", []) }
      if read != kept { faults.append("\(record.id): reads back as \(read)") }
      if RecordCoding.line(record, encoder: encoder) != line { faults.append("\(record.id): JSONEncoder writes other bytes") }
    }
    #expect(faults.isEmpty, "\(faults.count) of \(records.count): \(faults.prefix(3))")
  }

  @Test("a merge abridges every case of a sweep as the run does: values read from their bytes, as JSONDecoder reads them")
  func caseLineAbridged() throws {
    var read = 0
    for var record in Self.writtenRecords {
      // The made-up records' ids hold "|" (no id reads back); their values are what matters.
      if (try? CaseID(parsing: record.id.description)) != record.id { record.id = CaseID(check: "date-text", locale: "en_US") }
      let line = CaseLineWriter.line(record, explain: .plain)
      let caseLine = try Array(line).withUnsafeBufferPointer { try CaseLine($0, path: "shard", lineNumber: 1) }
      let decoded = try JSONDecoder().decode(CaseRecord.self, from: line)
      #expect(try caseLine.abridged() == decoded.abridged(), "\(record.id)")
      if record.status != .errored, !record.isAbridged { read += 1 }
    }
    #expect(read > 1000)
  }

  @Test("a case value is read from its bytes as JSONDecoder reads it, or left to JSONDecoder", arguments: [
    ("null", Value.null), ("true", .bool(true)), ("false", .bool(false)), ("-17", .int(-17)), ("0", .int(0)),
    (#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00 é""#, .string("a\"\\/\u{8}\u{C}\n\r\té😀 é")),
    (#"[ 1 , "x" , [ ] , [ null , [ true ] ] ]"#, .list([.int(1), .string("x"), .list([]), .list([.null, .list([.bool(true)])])])),
  ] as [(String, Value)])
  func valueBytes(text: String, value: Value) throws {
    let read = Array(text.utf8).withUnsafeBufferPointer { Value(jsonText: $0) }
    #expect(read == value)
    #expect(try JSONDecoder().decode(Value.self, from: Data(text.utf8)) == value)
  }

  @Test("what is not certainly a case value is left to JSONDecoder", arguments: [
    "1.5", "1e3", "12345678901234567890", #"{"a":1}"#, "[1,{}]", #""\ud800""#, #""a"x"#, "[1,]", "nul", "truex", #""a","b""#,
  ])
  func valueBytesDeclined(text: String) {
    #expect(Array(text.utf8).withUnsafeBufferPointer { Value(jsonText: $0) } == nil)
  }

  @Test("a case the parent makes (a worker's death) is the line a run writes for it, read back as it was",
        arguments: caseLines)
  func caseLineEncoded(line: String) throws {
    let record = try JSONDecoder().decode(CaseRecord.self, from: Data(line.utf8))
    let made = CaseLine(encoding: record, explain: .plain)
    #expect(made.line == RecordCoding.line(record, encoder: RecordCoding.lineEncoder()))
    #expect(made.summary == record)
    #expect(try made.whole() == record)
    #expect(try made.abridged() == record.abridged())
  }

  @Test("a case line a merge cannot read names the shard's file and line")
  func caseLineFault() {
    let line = #"{"id":"date-text|locale=en_US","step":7,"verdict":"failed","review":{"triage":"a-guess"}}"#
    #expect {
      try Array(line.utf8).withUnsafeBufferPointer { try CaseLine($0, path: "shard-2/cases.jsonl.gz", lineNumber: 17) }
    } throws: { error in
      "\(error)".contains("shard-2/cases.jsonl.gz:17") && "\(error)".contains("triage")
    }
  }

  @Test("a step is recorded as its group, first weekdays, months as base-36 Julian-day deltas, variants")
  func stepEncoding() throws {
    let group = try CaseID(parsing: "month-days|calendar=gregorian|zone=UTC")
    let step = Plan.Step(checkIndex: 0, index: 3, group: group, firstWeekdays: [.own, .fixed(1)],
                         months: [LocalDay(year: 2018, month: 11, day: 1),
                                  LocalDay(year: 2018, month: 12, day: 1)],
                         variants: ["same-day"])
    // 2018-11-01 is Julian day 2,458,424 = 1·36⁴ + 16·36³ + 24·36² + 33·36 + 20 ("1goxk");
    // December starts 30 days later ("u").
    let encoded = PlanStepSet.encode(step)
    #expect(encoded == "month-days|calendar=gregorian|zone=UTC\town,1\t1goxk,u\tsame-day")
    #expect(PlanStepSet.group(ofEncoded: encoded) == "month-days|calendar=gregorian|zone=UTC")
    let decoded = try #require(PlanStepSet.decode(encoded))
    #expect(decoded.1.months == [2_458_424, 2_458_454])
    #expect(PlanStepSet.group(ofEncoded: "a\tb\tc") == nil)
    #expect(PlanStepSet.group(ofEncoded: "\tb\tc\td") == nil)
  }
}

@Suite("Did you mean")
struct SuggestionTests {
  @Test("edit distance: the textbook pairs")
  func distance() {
    // kitten → sitting: k→s, e→i, +g (Levenshtein's usual example).
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.editDistance("", "abc") == 3)
    #expect(Suggestion.editDistance("flaw", "lawn") == 2)
  }

  @Test("only a close word is suggested")
  func closeOnly() {
    #expect(Suggestion.closest(to: "--locale", among: ["--locales", "--calendars"]) == "--locales")
    #expect(Suggestion.closest(to: "--xyz", among: ["--locales", "--calendars"]) == nil)
    #expect(Suggestion.didYouMean("al", among: ["failures", "all"]) == " (did you mean 'all'?)")
  }
}

@Suite("Crash reports")
struct CrashReportTests {
  /// Swift 6.3's backtracer on this machine, for a fatal error in a worker (abridged: the
  /// other threads' frames and the image list cut).
  let backtrace = """
    Conformance/Fault.swift:46: Fatal error: CONFORMANCE_FAULT trap at leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01

    *** Signal 4: Backtracing from 0x7fe645af9361... done ***

    *** Program crashed: Illegal instruction at 0x00007fe645af9361 ***

    Thread 1 "-qos.overcommit":

      0      0x00007fe642126f36 epoll_wait + 86 in libc.so.6

    Thread 2 crashed:

      0               0x00007fe645af9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
      1 [ra]          0x000055ebd80911f2 Fault.inject(_:) + 753 in conformance at /work/main/Sources/Conformance/Running/Fault.swift:46:7
      2 [ra]          0x000055ebd81831f1 static Runner.evaluate(_:step:check:context:triage:) + 512 in conformance at /work/main/Sources/Conformance/Running/Runner.swift:98:20

    Registers:

    rax 0x0000000000000000  0
    """

  @Test("the fatal error's message and the first frame of the crashed thread outside the runtime")
  func parsed() {
    let report = CrashReport(backtrace)
    #expect(report.message
      == "Conformance/Fault.swift:46: Fatal error: CONFORMANCE_FAULT trap at leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01")
    #expect(report.frame == "Fault.inject(_:) at Fault.swift:46:7")
    // Without the Swift message, the headline names the signal the signature already names.
    let headlineOnly = CrashReport(backtrace.replacingOccurrences(of: "Conformance/Fault.swift:46: Fatal error", with: "fault"))
    #expect(headlineOnly.message == "Program crashed: Illegal instruction")
    #expect(CaseFault(kind: .signal("SIGILL"), crash: headlineOnly).signature
      == "trap (SIGILL) in Fault.inject(_:) at Fault.swift:46")
  }

  @Test("a signal without a Swift message: the backtracer's headline, a null address kept and any other dropped; no backtrace: the last lines")
  func fallbacks() {
    let signal = CrashReport("*** Signal 11: Backtracing from 0x1... done ***\n\n*** Program crashed: Bad pointer dereference at 0x0000000000000000 ***\n")
    #expect(signal.message == "Program crashed: Bad pointer dereference at 0x0000000000000000")
    #expect(signal.frame == nil)
    // The program counter moves with every process (address-space randomization): two
    // workers that trap on one line read the same.
    let first = CrashReport("*** Program crashed: Illegal instruction at 0x00007fe645af9361 ***\n")
    let second = CrashReport("*** Program crashed: Illegal instruction at 0x00007f3a11c02361 ***\n")
    #expect(first.message == "Program crashed: Illegal instruction")
    #expect(second.message == first.message)
    #expect(CaseFault(kind: .signal("SIGILL"), crash: second).signature == "trap (SIGILL): Program crashed: Illegal instruction")
    let quiet = CrashReport("one\ntwo\n\nthree\nfour\n")
    #expect(quiet.message == nil && quiet.frame == nil)
    #expect(quiet.tail == "two | three | four")
  }
}

/// A fast reader that declines a record leaves it to `JSONDecoder`, and says so: the run's
/// `results.json` counts it (`run.slowReads`), whichever process read it.
@Suite("Slow reads are counted", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct SlowReadTests {
  static func slowReads(_ out: URL) throws -> [String: Int]? { try runRecord(out).run.slowReads }

  @Test("a baseline case line whose step is written 7.0: its reader declines it (integers only), JSONDecoder reads it, results.json counts one; the file as written counts none")
  func baselineLine() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("slow-reads-\(UUID())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Apia's skipped day: failures, so the cases file holds lines a baseline reads.
    let selection = ["--checks", "month-days", "--locales", "en_US", "--calendars", "gregorian",
                     "--time-zones", "Pacific/Apia", "--years", "2011...2011", "--waivers", "none", "--no-isolation"]
    let (base, edited) = (scratch.appendingPathComponent("base"), scratch.appendingPathComponent("edited"))
    #expect(try Executable.run(selection + ["--out", base.path]).status == 1)
    try FileManager.default.copyItem(at: base, to: edited)
    // gzip reads a plain file too: the edited lines go back under the same name.
    let gunzip = Process()
    gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
    gunzip.arguments = ["-c", "gzip -dc '\(base.path)/cases.jsonl.gz'"]
    let pipe = Pipe()
    gunzip.standardOutput = pipe
    try Spawn.serially { try gunzip.run() }
    var lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    gunzip.waitUntilExit()
    let failing = try #require(lines.firstIndex { $0.contains(#""verdict":"failed""#) })
    let step = try #require(lines[failing].firstRange(of: #/"step":(\d+)/#))
    lines[failing].replaceSubrange(step, with: "\(lines[failing][step]).0")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: edited.appendingPathComponent("cases.jsonl.gz"))

    let (plain, slow) = (scratch.appendingPathComponent("plain"), scratch.appendingPathComponent("slow"))
    #expect(try Executable.run(selection + ["--out", plain.path, "--baseline", base.path]).status == 0)
    #expect(try Executable.run(selection + ["--out", slow.path, "--baseline", edited.path]).status == 0)
    #expect(try Self.slowReads(plain) == nil)
    #expect(try Self.slowReads(slow) == ["baselineCase": 1])
    // Read the same either way: every case still-failing against its baseline.
    #expect(try runRecord(slow).baselineClasses == runRecord(plain).baselineClasses)
    #expect(try runRecord(plain).baselineClasses["still-failing"] ?? 0 > 0)
  }

  @Test("an executor's answers, objects (selecting's {start, end}) included, are read by key: a sweep through the reference executor leaves none to JSONDecoder, as the built-in subject in-process does not")
  func executorReplies() throws {
    let selection = ["--checks", "range-roles", "--locales", "en_US", "--calendars", "gregorian",
                     "--time-zones", "UTC", "--years", "2020...2020"]
    let executor = try ExecutableRun(selection + ["--subject", referenceExecutor()], environment: [:])
    let builtIn = try ExecutableRun(selection, environment: [:])
    #expect(executor.record.summary.passed > 0, "\(executor.stdout)")
    #expect(executor.record.run.slowReads == nil, "\(executor.stdout)")
    #expect(builtIn.record.run.slowReads == nil)
  }
}

@Suite("Schemas generated from the records")
struct SchemaTests {
  @Test("Schemas/case-record.schema.json is what `conformance schema case-record` prints from CaseRecord's keys")
  func caseRecordSchema() throws {
    let committed = try String(contentsOf: corpora.deletingLastPathComponent()
      .appendingPathComponent("Schemas/case-record.schema.json"), encoding: .utf8)
    let printed = try Executable.run(["schema", "case-record"])
    #expect(printed.status == 0)
    #expect(printed.out == committed, "stale: run `swift run conformance schema case-record > Schemas/case-record.schema.json`")
    // Every key the writer writes is a property; the enumerations are the Swift types'.
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(committed.utf8)) as? [String: Any])
    let properties = try #require(schema["properties"] as? [String: Any])
    #expect(Set(properties.keys) == ["id", "check", "step", "dimensions", "verdict", "expected", "actual", "values",
                                     "months", "pattern", "detail", "explain", "actualDigest", "review"])
    let review = try #require((properties["review"] as? [String: Any])?["properties"] as? [String: Any])
    #expect(((review["triage"] as? [String: Any])?["enum"] as? [String]) == Triage.allCases.map(\.rawValue))
    #expect(((review["baseline"] as? [String: Any])?["enum"] as? [String])?.count == 6)
    #expect(try Executable.run(["schema", "case-recrd"]).status == 2)
  }
}
