@testable import Conformance
import Foundation
#if canImport(FoundationXML)
  import FoundationXML
#endif
import Testing

/// A run of the `conformance` executable whose subject is an executor, into a temporary
/// directory that lives as long as this value.
final class ExecutorRun {
  let out: URL
  let status: Int32
  let stdout: String
  let stderr: String

  init(_ arguments: [String], subject: String?, environment: [String: String] = [:]) throws {
    out = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-exec-\(getpid())-\(UUID().uuidString)")
    let result = try Executable.run(arguments + ["--out", out.path] + (subject.map { ["--subject", $0] } ?? []),
                                    environment: environment)
    (status, stdout, stderr) = (result.status, result.out, result.error)
  }

  deinit { try? FileManager.default.removeItem(at: out) }

  var cases: [CaseRecord] { get throws { try recordedCases(out) } }
  var record: RunRecord { get throws { try runRecord(out) } }
}

/// The reference executor as a `--subject` value, with faults on purpose.
func referenceExecutor(_ misbehaviours: String...) -> String {
  "exec:'\(Executable.url.path)' executor" + misbehaviours.map { " --misbehave '\($0)'" }.joined()
}

/// Every check over calendars and zones with every kind of day boundary (Sao Paulo's skipped
/// midnight, Apia's skipped day, Havana's repeated midnight is outside 2011…2012 but its
/// other transitions are in), small enough for a debug build.
let executorSample = [
  "--checks", "all", "--locales", "en_US,fa_IR", "--calendars", "gregorian,hebrew,chinese",
  "--time-zones", "UTC,America/Sao_Paulo,Pacific/Apia,America/Havana", "--years", "2011...2012",
]

@Suite("Executor protocol", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ExecutorTests {
  @Test("a sweep through `conformance executor` reads as the in-process one, case by case, values included")
  func sameAsInProcess() throws {
    let inProcess = try ExecutorRun(executorSample + ["--record", "all"], subject: nil)
    // An executor's run takes no waivers unless given; this one takes the shipped ones too.
    let executor = try ExecutorRun(executorSample + ["--record", "all", "--waivers", "Corpora/known-differences.json"],
                                   subject: referenceExecutor())
    #expect(inProcess.status == executor.status, "\(executor.stderr)")
    let (before, after) = (try inProcess.cases, try executor.cases)
    #expect(before.count > 1000)
    #expect(before.count == after.count)
    // Failures and passes both: the comparison is not of empty records.
    #expect(before.contains { $0.outcome.verdict == .failed || $0.review.waiver != nil })
    var differing: [String] = []
    for (one, other) in zip(before, after) where one != other {
      differing.append("\(one.id): \(one.outcome.verdict) \(one.outcome.actual) vs \(other.outcome.verdict) \(other.outcome.actual)")
    }
    #expect(differing.isEmpty, "\(differing.count) cases differ, first: \(differing.prefix(3))")
    #expect(try executor.record.run.subject.hasPrefix("PickerLogic"))
  }

  @Test("an executor that crashes, goes silent or writes garbage costs only the cases that asked it")
  func faultsCostOnlyTheirCases() throws {
    let selection = ["--checks", "month-days,leading-blanks,same-day-closing,stay-nights",
                     "--calendars", "gregorian,hebrew", "--time-zones", "UTC,America/Sao_Paulo,Pacific/Apia",
                     "--years", "2011...2012", "--waivers", "none", "--record", "all"]
    let clean = try ExecutorRun(selection, subject: referenceExecutor())
    let faulty = try ExecutorRun(
      selection,
      subject: referenceExecutor("crash:days:\"hebrew\"", "hang:closes:Pacific/Apia",
                                 "garbage:leadingBlanks:America/Sao_Paulo"),
      environment: ["CONFORMANCE_EXECUTOR_TIMEOUT": "0.5"])
    #expect(faulty.status == 1, "\(faulty.stderr)")
    let (before, after) = (try clean.cases, try faulty.cases)
    #expect(before.map(\.id) == after.map(\.id))
    let affected = { (id: CaseID) -> String? in
      switch (id.check, id.calendar, id.zone) {
      case ("month-days", "hebrew", _): "days"
      case ("same-day-closing", _, "Pacific/Apia"): "closes"
      case ("leading-blanks", _, "America/Sao_Paulo"): "leadingBlanks"
      default: nil
      }
    }
    // Outside the faults every case reads as in the clean run.
    let cleanByID = Dictionary(before.map { ($0.id.description, $0) }, uniquingKeysWith: { a, _ in a })
    let untouched = after.filter { affected($0.id) == nil }
    #expect(untouched.count == before.filter { affected($0.id) == nil }.count)
    for record in untouched {
      #expect(cleanByID[record.id.description] == record, "\(record.id)")
    }
    // Inside them every case has its function's fault as its pattern: errored where it was
    // asked, `not-run` where the breaker had tripped and it was not (its detail says so).
    let errored = after.filter { affected($0.id) != nil }
    let asked = { (record: CaseRecord) in !(record.outcome.detail.first ?? "").hasPrefix("not asked") }
    for (function, pattern) in [("days", "in days"), ("closes", "executor silent for 0.50 s in closes"),
                                ("leadingBlanks", "malformed answer to leadingBlanks")] {
      let mine = errored.filter { affected($0.id) == function }
      #expect(!mine.isEmpty, "\(function)")
      #expect(mine.allSatisfy { $0.outcome.verdict == (asked($0) ? .errored : .notRun) }, "\(function)")
      #expect(mine.contains { $0.outcome.verdict == .errored }, "\(function)")
      #expect(mine.allSatisfy { $0.outcome.pattern.hasPrefix("executor") || $0.outcome.pattern.hasPrefix("malformed") })
      #expect(mine.allSatisfy { $0.outcome.pattern.contains(pattern) }, "\(function): \(Set(mine.map(\.outcome.pattern)))")
    }
    // The crash's detail carries the executor's own message; the garbage is quoted.
    let crash = try #require(errored.first { affected($0.id) == "days" && asked($0) })
    #expect(crash.outcome.detail.joined().contains("crashing on purpose"), "\(crash.outcome.detail)")
    let garbage = try #require(errored.first { affected($0.id) == "leadingBlanks" && asked($0) })
    #expect(garbage.outcome.detail.joined().contains("this is not JSON"))
  }
}

@Suite("An executor's answers are untrusted text")
struct UntrustedTextTests {
  @Test("markup, CDATA's end, control characters and invalid UTF-8 reach every report as text")
  func hostileText() throws {
    let hostile = ExecutorServer.Misbehaviour.hostileText
    let run = try ExecutorRun(
      ["--checks", "date-text,weekday-symbols,month-days", "--locales", "en_US,de_DE", "--calendars", "gregorian",
       "--time-zones", "UTC", "--years", "2020...2020"],
      subject: referenceExecutor("hostile:text:en_US", "hostile:weekdaySymbols", "invalid-utf8:text:de_DE",
                                 "hostile:days"))
    #expect(run.status == 1, "\(run.stderr)")
    let cases = try run.cases
    // The results keep the text exactly (JSON escapes it).
    #expect(cases.contains { $0.outcome.actual.description.contains(hostile) })
    #expect(cases.contains { $0.outcome.pattern == "malformed answer to text" })
    let crash = try #require(cases.first { $0.id.check == "month-days" })
    #expect(crash.outcome.verdict == .errored)
    #expect(crash.outcome.pattern.contains(hostile), "\(crash.outcome.pattern)")
    // JUnit: well-formed XML, no control character a parser refuses, the text escaped.
    let junit = try String(contentsOf: run.out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.unicodeScalars.allSatisfy { $0.value >= 0x20 || [0x09, 0x0A, 0x0D].contains($0.value) })
    #expect(junit.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;]]&gt;"))
    #expect(!junit.contains("<img"))
    let parser = XMLParser(data: Data(junit.utf8))
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    // The page: the data block holds no `<` at all, so only the page's own two scripts end.
    let page = try String(contentsOf: run.out.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(page.components(separatedBy: "</script>").count - 1 == 2)
    #expect(!page.contains("<img"))
    // The console: no raw escape reaches a terminal or a log; the pattern names it instead.
    #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"))
    #expect(run.stdout.contains("⟨U+001B⟩[31mred"), "\(run.stdout)")
  }
}

@Suite("The reference executor reads questions")
struct QuestionReadingTests {
  /// What `JSONDecoder` makes of a line, and what the fast reader does (`nil`: not sure).
  static func both(_ line: String) -> (decoded: ExecutorServer.Question?, fast: ExecutorServer.Question?) {
    let bytes = Array(line.utf8)
    return (try? JSONDecoder().decode(ExecutorServer.Question.self, from: Data(bytes)),
            bytes.withUnsafeBufferPointer { MemberDecoder.decode(ExecutorServer.Question.self, from: $0) })
  }

  @Test("the fast reader reads what JSONDecoder reads, or leaves the line to it", arguments: [
    // As the harness writes them (ExecutorProtocol.md's examples).
    #"{"id":1,"function":"leadingBlanks","month":1541300400,"calendar":{"identifier":"gregorian","timeZone":"America/Sao_Paulo","firstWeekday":1,"minimumDaysInFirstWeek":1,"locale":""}}"#,
    #"{"id":2,"function":"role","day":-86400.5,"selection":{"start":0,"end":null},"calendar":{"identifier":"hebrew","timeZone":"UTC","firstWeekday":2,"minimumDaysInFirstWeek":4,"locale":"he_IL"}}"#,
    #"{"id":3,"function":"paging","month":0,"offset":-1,"calendar":{"identifier":"chinese","timeZone":"Asia/Tehran","firstWeekday":7,"minimumDaysInFirstWeek":1,"locale":"zh_CN"}}"#,
    #"{"id":4,"function":"text","kind":"header","date":1e9,"locale":"sr_Cyrl_ME","calendar":{"identifier":"gregorian","timeZone":"UTC","firstWeekday":1,"minimumDaysInFirstWeek":1,"locale":""}}"#,
    #"{"id":0,"function":"hello","protocol":"conformance-executor/1"}"#,
    // Escapes, white space, another member order, members unknown or null.
    #" { "function" : "fieldDate", "text":"2018-11-04 ", "id":5, "extra":[1,{"a":2}], "locale":"en_US", "calendar":{"locale":"","minimumDaysInFirstWeek":1,"firstWeekday":1,"timeZone":"UTC","identifier":"gregorian"}} "#,
    #"{"id":6,"function":"nights","start":1,"end":2,"calendar":null,"selection":null}"#,
    // What JSONDecoder judges: a wrong type, a fraction where an integer goes, a calendar
    // without a member, a disclosure's actions, not JSON.
    #"{"id":7,"function":"closes","old":"1","new":2}"#,
    #"{"id":8.0,"function":"closes","old":1,"new":2}"#,
    #"{"id":9,"function":"paging","month":0,"offset":1.5}"#,
    #"{"id":10,"function":"days","month":0,"calendar":{"identifier":"gregorian","timeZone":"UTC","firstWeekday":1,"locale":""}}"#,
    #"{"id":11,"function":"disclosure","kind":"dates","start":0,"actions":[{"action":"tap"},{"action":"select","date":86400}],"locale":"en_US"}"#,
    #"{"id":11,"function":"disclosure","actions":[{"action":"select","date":"x"}]}"#,
    #"{"id":11,"function":"disclosure","actions":[{"date":1}]}"#,
    #"{"id":11,"function":"disclosure","actions":[{"action":"tap","date":null,"x":[]}, 1]}"#,
    #"{"id":11,"function":"disclosure","actions":{"action":"tap"}}"#,
    #"{"id":12,"function":"role","day":0,"selection":{"start":"x"}}"#,
    #"{"id":13,"function":"closes""#,
  ])
  func sameAsJSONDecoder(line: String) {
    let (decoded, fast) = Self.both(line)
    if let fast { #expect(fast == decoded, "\(line)") }
  }

  @Test("every question the harness writes is read by the fast reader")
  func harnessQuestionsAreFast() {
    for line in [
      #"{"id":1,"function":"leadingBlanks","month":1541300400,"calendar":{"identifier":"gregorian","timeZone":"America/Sao_Paulo","firstWeekday":1,"minimumDaysInFirstWeek":1,"locale":""}}"#,
      #"{"id":2,"function":"role","day":-86400.5,"selection":{"start":0,"end":null},"calendar":{"identifier":"hebrew","timeZone":"UTC","firstWeekday":2,"minimumDaysInFirstWeek":4,"locale":"he_IL"}}"#,
      disclosureQuestion,
    ] {
      let (decoded, fast) = Self.both(line)
      #expect(fast != nil && fast == decoded, "\(line)")
    }
    // By hand: a tap, then a pick of 1970-01-02 00:00 UTC.
    #expect(Self.both(disclosureQuestion).fast?.actions
      == [.init(action: "tap", date: nil), .init(action: "select", date: 86400)])
    // By hand: the second's selection has a start and no end, its day is half a second past
    // 1969-12-30 00:00 UTC.
    let role = Self.both(#"{"id":2,"function":"role","day":-86400.5,"selection":{"start":0,"end":null},"calendar":{"identifier":"hebrew","timeZone":"UTC","firstWeekday":2,"minimumDaysInFirstWeek":4,"locale":"he_IL"}}"#).fast
    #expect(role?.day == -86400.5 && role?.selection == ExecutorServer.SelectionFields(start: 0, end: nil))
    #expect(role?.calendar?.minimumDaysInFirstWeek == 4 && role?.calendar?.locale == "he_IL")
  }
}

/// A disclosure question as the harness's client writes it (`ExecutorWire`).
let disclosureQuestion: String = {
  var question = ExecutorWire.Writer(function: "disclosure")
  question.string("kind", "dates")
  question.instant("start", Date(timeIntervalSince1970: 0))
  question.raw("actions", ExecutorWire.actions([.tap, .select(Date(timeIntervalSince1970: 86400))]))
  question.raw("calendar", ExecutorWire.calendar(Calendar(identifier: .gregorian)))
  question.string("locale", "en_US")
  return "{\"id\":11," + question.object.dropFirst()
}()

@Suite("The reference executor says what its fast reader left to JSONDecoder")
struct ExecutorSlowReadTests {
  /// A question the fast reader reads, and two it leaves to JSONDecoder: a string where an
  /// instant goes, a fraction where an integer goes.
  static let lines = [
    #"{"id":1,"function":"leadingBlanks","month":1541300400,"calendar":{"identifier":"gregorian","timeZone":"America/Sao_Paulo","firstWeekday":1,"minimumDaysInFirstWeek":1,"locale":""}}"#,
    #"{"id":7,"function":"closes","old":"1","new":2}"#,
    #"{"id":9,"function":"paging","month":0,"offset":1.5}"#,
  ]

  /// `conformance executor` with `arguments`, fed `lines` on stdin: its stdout and stderr.
  func serve(_ arguments: [String]) throws -> (out: String, error: String) {
    let process = Process()
    process.executableURL = Executable.url
    process.arguments = ["executor"] + arguments
    let (input, out, error) = Spawn.serially { (Pipe(), Pipe(), Pipe()) }
    (process.standardInput, process.standardOutput, process.standardError) = (input, out, error)
    try Spawn.serially { try process.run() }
    input.fileHandleForWriting.write(Data((Self.lines.joined(separator: "\n") + "\n").utf8))
    try input.fileHandleForWriting.close()
    let text = out.fileHandleForReading.readDataToEndOfFile()
    let errors = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return (String(decoding: text, as: UTF8.self), String(decoding: errors, as: UTF8.self))
  }

  @Test("--slow-reads appends each run's count; without it, stderr says it")
  func counted() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("slow-reads-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let first = try serve(["--slow-reads", file.path])
    // The first is answered: November 2018 begins on a Thursday, four blanks with Sunday
    // first. The others are not questions JSONDecoder reads either (said on stderr).
    #expect(first.out == #"{"id":1,"answer":4}"# + "\n", "\(first.out)")
    #expect(!first.error.contains("left to JSONDecoder"), "\(first.error)")
    _ = try serve(["--slow-reads", file.path])
    #expect(try String(contentsOf: file, encoding: .utf8) == "2\n2\n")
    let plain = try serve([])
    #expect(plain.error.contains("conformance executor: 2 questions left to JSONDecoder"), "\(plain.error)")
  }
}

@Suite("The harness reads replies")
struct ReplyReadingTests {
  @Test("the fast reader reads what JSONDecoder reads, or leaves the reply to it", arguments: [
    // Every answer type the protocol has.
    #"{"id":1,"answer":3}"#, #"{"id":2,"answer":-0}"#, #"{"id":3,"answer":true}"#, #"{"id":4,"answer":null}"#,
    #"{"id":5,"answer":"middle"}"#, #"{"id":6,"answer":[1541300400,1541386800,-86400]}"#,
    #"{"id":7,"answer":["Su","Mo","Tu","We","Th","Fr","Sa"]}"#,
    #"{"id":8,"answer":"\u00e9t\u00e9 \"quoted\" \ud83d\ude00"}"#,
    #"{"answer":[[1,2],[],[null,"x",false]],"id":9}"#, #"{ "id" : 10 , "unsupported" : "no Chinese" }"#,
    #"{"id":11,"error":"TypeError: x is not a function"}"#,
    // An object, read by key. Left to JSONDecoder: a fraction, an exponent, a lone surrogate,
    // an id that is not an integer, an error that is not a string, a number too long, broken JSON.
    #"{"id":12,"answer":1541300400.5}"#, #"{"id":13,"answer":1e3}"#, #"{"id":14,"answer":{"start":0}}"#,
    #"{"id":15,"answer":"\ud800"}"#, #"{"id":16.5,"answer":1}"#, #"{"id":"17","answer":1}"#,
    #"{"id":18,"error":7}"#, #"{"id":19,"answer":12345678901234567890}"#, #"{"id":20,"answer":"#,
    #"{"id":21}"#, #"[1,2]"#,
  ])
  func sameAsJSONDecoder(line: String) {
    let bytes = Array(line.utf8)
    let decoded = try? JSONDecoder().decode(ExecutorWire.Reply.self, from: Data(bytes))
    if let fast = bytes.withUnsafeBufferPointer { MemberDecoder.decode(ExecutorWire.Reply.self, from: $0) } {
      #expect(fast == decoded, "\(line)")
    }
  }

  @Test("bytes that are not UTF-8 are JSONDecoder's to refuse, never read as text")
  func invalidUTF8() {
    let bytes = Array(#"{"id":1,"answer":"caf"#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)
    #expect(bytes.withUnsafeBufferPointer { MemberDecoder.decode(ExecutorWire.Reply.self, from: $0) } == nil)
  }

  @Test("the usual answers are read by the fast reader, as written by hand")
  func usualAnswers() {
    func fast(_ line: String) -> ExecutorWire.Reply? {
      Array(line.utf8).withUnsafeBufferPointer { MemberDecoder.decode(ExecutorWire.Reply.self, from: $0) }
    }
    #expect(fast(#"{"id":6,"answer":[1541300400,-86400]}"#)?.answer == .array([.int(1541300400), .int(-86400)]))
    let null = fast(#"{"id":4,"answer":null}"#)
    #expect(null?.hasAnswer == true && null?.answer == .null)
    let unsupported = fast(#"{"id":10,"unsupported":"no Chinese"}"#)
    #expect(unsupported?.hasAnswer == false && unsupported?.unsupported == "no Chinese")
  }
}

@Suite("An executor that cannot start is bad input")
struct ExecutorInputTests {
  @Test("exit 2 before any work, naming the command and what went wrong, and nothing written",
        arguments: [("exec:/nonexistent/executor", "exited with status 127 before answering hello"),
                    ("exec:echo hello", "its first line is not an answer to hello"),
                    ("exec:true", "exited with status 0 before answering hello"),
                    ("exec:", "expected picker-logic or exec:<command>")])
  func refused(subject: String, message: String) throws {
    let run = try ExecutorRun(["--checks", "leading-blanks"], subject: subject)
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: run.out.path))
  }
}

@Suite("Executors end with their run", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ExecutorLifetimeTests {
  /// The pids of processes whose command line holds `marker`: the run, its workers and the
  /// executors.
  static func processes(holding marker: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let pid = Int32(entry),
        let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))
      else { return nil }
      return String(decoding: line, as: UTF8.self).contains(marker) ? pid : nil
    }
  }

  /// The executors among them (first argument `executor`) that have spent a second of CPU:
  /// spinning in `hang`, not greeting (each worker greets an executor of its own first).
  static func spinningExecutors(holding marker: String) -> [Int32] {
    processes(holding: marker).filter { pid in
      guard let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      // After "pid (comm)": state is field 3, utime 14 and stime 15, in clock ticks.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard arguments.count > 1, arguments[1] == "executor", fields.count > 12,
        let user = Double(fields[11]), let system = Double(fields[12])
      else { return false }
      return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))) >= 1
    }
  }

  @Test("SIGTERM while every executor spins: the run exits 143 and no executor is left",
        arguments: [false, true])
  func interrupted(inProcess: Bool) throws {
    // A misbehaviour that never matches, as a marker in the executors' command lines.
    let marker = UUID().uuidString
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-exec-term-\(marker)")
    let process = Process()
    process.executableURL = Executable.url
    // Two zones, two steps: one for each worker (or thread), each with an executor of its own.
    process.arguments = ["--checks", "same-day-closing", "--calendars", "gregorian", "--time-zones", "UTC,Asia/Tokyo",
                         "--out", out.path, "--subject", referenceExecutor("hang:closes", "error:days:\(marker)")]
      + (inProcess ? ["--no-isolation"] : [])
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["CONFORMANCE_EXECUTOR_TIMEOUT": "600"]) { $1 }
    let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-exec-term-\(marker).err")
    _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: stderr) }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: stderr)
    process.currentDirectoryURL = corpora.deletingLastPathComponent()
    try Spawn.serially { try process.run() }
    // Wait until two executors spin in the sweep. Counting every process with the marker saw
    // "2" in the run and its greeting executor, and under load 1 once that had gone and no
    // sweep executor had started yet; counting executors, a worker's greeting one and
    // another's sweep one.
    let start = Date()
    while Self.spinningExecutors(holding: marker).count < 2 && Date().timeIntervalSince(start) < 120 {
      usleep(100_000)
    }
    #expect(Self.spinningExecutors(holding: marker).count >= 2)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
    #expect(process.terminationReason == .exit && process.terminationStatus == 143,
            "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus): \(said.suffix(3000))")
    // A killed process shows its command line until the kernel has torn it down, which on a
    // loaded machine can take a moment; an executor left spinning never goes.
    let exited = Date()
    while !Self.processes(holding: marker).isEmpty && Date().timeIntervalSince(exited) < 5 { usleep(50_000) }
    #expect(Self.processes(holding: marker).isEmpty, "executors left: \(Self.processes(holding: marker))")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  /// Found by the test above: it waited 120 s for two executors, then its run exited 3 ("a
  /// worker died outside any case (no answer)"), as any worker whose executor was still
  /// answering a batch when the parent's request limit passed.
  @Test("an executor answering steadily, slower than a worker's request limit, costs no run")
  func slowBatch() throws {
    // 2010–2012 in UTC: a case a year, 285 questions to closes, each at a day's start t: (t − 1, t),
    // (t − 1, t + 1), (t, t + 1). Those whose `new` is a day's start (ends in 00, 96 of them)
    // take 0.25 s each: 24 s, past the request limit of 16 s that 1 s of CPU a case gives
    // (2 × its 3 s of wall time + 10).
    let arguments = ["--checks", "same-day-closing", "--calendars", "gregorian", "--time-zones", "UTC",
                     "--years", "2010...2012"]
    let environment = ["CONFORMANCE_CASE_TIMEOUT": "1", "CONFORMANCE_STEP_TIMEOUT": "1"]
    let started = ContinuousClock.now
    let run = try ExecutorRun(arguments, subject: referenceExecutor("slow:closes:00,\"calendar\""),
                              environment: environment)
    let elapsed = ContinuousClock.now - started
    #expect(elapsed > .seconds(16), "the batch did not outlast the request limit: \(elapsed)")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("harness failed"), "\(run.stderr)")
    #expect(try run.cases.isEmpty, "a slow answer is no fault")
    // As many passed as the seeds in-process pass of the same cases.
    let inProcess = try ExecutorRun(arguments, subject: nil)
    #expect(try run.record.summary == inProcess.record.summary)
    #expect(try inProcess.record.summary.passed > 0)
  }
}

@Suite("What a run says of an executor's cases is the executor's", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ExecutorTruthTests {
  /// The blanks before day 1 of a Gregorian month in a Sunday-first grid: the weekday of the
  /// 1st, Sunday 0, by Zeller's congruence (not by any calendar code of this repo).
  static func sundayFirstBlanks(year: Int, month: Int) -> Int {
    let (m, y) = month < 3 ? (month + 12, year - 1) : (month, year)
    let saturdayZero = (1 + (13 * (m + 1)) / 5 + y % 100 + (y % 100) / 4 + (y / 100) / 4 + 5 * (y / 100)) % 7
    return (saturdayZero + 6) % 7
  }

  @Test("the explain command a run prints for an executor's failure, run as printed, shows the executor's value")
  func explainAsksTheExecutor() throws {
    #expect(Self.sundayFirstBlanks(year: 2011, month: 5) == 0)  // 1 May 2011 was a Sunday
    #expect(Self.sundayFirstBlanks(year: 2024, month: 2) == 4)  // 1 February 2024, a Thursday
    let run = try ExecutorRun(["--checks", "leading-blanks", "--calendars", "gregorian", "--time-zones", "UTC",
                               "--first-weekdays", "1", "--years", "2011...2011"],
                              subject: referenceExecutor("off-by-one:leadingBlanks"))
    #expect(run.status == 1, "\(run.stderr)")
    // Every case read the executor's blanks, one too many, so every one failed.
    let lines = try ReproductionTests.lines(run.out)
    let first = try #require(lines.first)
    let id = try CaseID(parsing: first.id)
    let month = try #require(id.month?.gregorian)
    let command = try #require(first.explain)
    #expect(command.hasPrefix(ReproductionTests.binary + " explain '\(first.id)' --subject "), "\(command)")
    #expect(command.contains("off-by-one:leadingBlanks"), "\(command)")
    // JUnit and the page print the same command.
    let junit = try String(contentsOf: run.out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains(JUnitXML.escape(command, attribute: false)), "JUnit lacks \(command)")
    // Run as printed (this build for `swift run conformance`), through a shell.
    let (status, _, text) = try ReproductionTests.shell(command)
    let right = Self.sundayFirstBlanks(year: month.year, month: month.month)
    #expect(status == 1, "\(text)")
    #expect(text.contains("status:   failed"), "\(text)")
    #expect(text.contains("expected: \(right)   [libicu"), "\(text)")
    #expect(text.contains("actual:   \(right + 1)   [PickerLogic conformance executor]"), "\(text)")
    // Its footer names the executor it ran, not Foundation.
    #expect(text.contains("subject: PickerLogic conformance executor (exec:"), "\(text)")
    #expect(!text.contains("subject: Foundation on Swift"), "\(text)")
    // Without --subject, explain answers for the built-in subject and says so.
    let builtIn = try Executable.run(["explain", first.id])
    #expect(builtIn.status == 0)
    #expect(builtIn.out.contains("subject:  PickerLogic, built in"), "\(builtIn.out)")
    #expect(builtIn.out.contains("actual:   \(right)   [PickerLogic]"), "\(builtIn.out)")
  }

  @Test("an executor that dies of an uncaught error is named by the error, not by its runtime's last words")
  func faultNamedByTheError() throws {
    // Node's uncaught TypeError: the source line, a caret, the error, its stack, the version.
    let stderr = """
      /work/Examples/NodeSubject/executor.js:41
          const first = calendar.startOf(month);
                                 ^

      TypeError: calendar.startOf is not a function
          at leadingBlanks (/work/Examples/NodeSubject/executor.js:41:28)
          at Interface.<anonymous> (/work/Examples/NodeSubject/executor.js:88:19)

      Node.js v20.20.2
      """
    let fault = ExecutorFault(kind: .exited(1), function: .leadingBlanks, question: "{}", stderr: stderr)
    #expect(fault.signature == "executor exit 1 in leadingBlanks: TypeError: calendar.startOf is not a function")
    #expect(fault.detail.contains("error: TypeError: calendar.startOf is not a function"))
    #expect(fault.detail.contains { $0.hasPrefix("its stderr ended: ") && $0.hasSuffix("Node.js v20.20.2") })
    // Other languages' usual forms.
    for (text, line) in [
      ("Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    1/0\nZeroDivisionError: division by zero",
       "ZeroDivisionError: division by zero"),
      ("Exception in thread \"main\" java.lang.IllegalStateException: no month\n\tat X.main(X.java:3)",
       "Exception in thread \"main\" java.lang.IllegalStateException: no month"),
      ("panic: runtime error: index out of range [7] with length 7\n\ngoroutine 1 [running]:", "panic: runtime error: index out of range [7] with length 7"),
      ("x.rb:3:in 'blanks': undefined method 'wday' for nil (NoMethodError)", "x.rb:3:in 'blanks': undefined method 'wday' for nil (NoMethodError)"),
      ("node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/x.js'", "Error: Cannot find module '/x.js'"),
    ] {
      #expect(ExecutorFault.errorLine(in: text) == line, "\(text)")
    }
    // Warnings are not errors; without an error line the last line stands.
    #expect(ExecutorFault.errorLine(in: "(node:7) ExperimentalWarning: x\nDeprecationWarning: y\nbye") == nil)
  }

  @Test("answers of the wrong type trip the breaker: after it trips, each other calendar and zone is asked once")
  func malformedAnswersTripTheBreaker() throws {
    let zones = "UTC,America/Sao_Paulo,Pacific/Apia,Europe/Berlin,Asia/Tokyo,America/New_York"
    let run = try ExecutorRun(["--checks", "leading-blanks", "--calendars", "gregorian,hebrew", "--time-zones", zones,
                               "--years", "2011...2012", "--jobs", "1"],
                              subject: referenceExecutor("wrong-type:leadingBlanks"))
    #expect(run.status == 1, "\(run.stderr)")
    let cases = try run.cases
    #expect(cases.count > 100)
    #expect(cases.allSatisfy { $0.outcome.pattern == "malformed answer to leadingBlanks" },
            "\(Set(cases.map(\.outcome.pattern)))")
    let asked = cases.filter { !($0.outcome.detail.first ?? "").hasPrefix("not asked") }
    // 12 calendar-zone groups: the first is asked whole, each of the others once (its first
    // answer is malformed again), the rest not at all.
    let groups = Set(cases.map { "\($0.id.calendar ?? "")·\($0.id.zone ?? "")" })
    #expect(groups.count == 12)
    let firstGroup = cases.filter { "\($0.id.calendar ?? "")·\($0.id.zone ?? "")" == "\(cases[0].id.calendar ?? "")·\(cases[0].id.zone ?? "")" }
    #expect(asked.count <= firstGroup.count + groups.count - 1, "\(asked.count) of \(cases.count) asked")
    #expect(cases.count - asked.count > cases.count / 2)
  }
}

@Suite("A diagnosis labelled subject is the subject's")
struct SubjectDiagnosisTests {
  /// An executor whose months start half an hour early (UTC, Gregorian), as a JavaScript
  /// picker's do when it builds day 1 in a zone half an hour west of the one it is given: its
  /// day cells start at 23:30 of the month's eve and its blanks are counted from that day.
  static let earlyMonths = #"""
    import datetime as dt, json, sys
    utc = dt.timezone.utc
    for line in sys.stdin:
        q = json.loads(line)
        if q["function"] == "hello":
            functions = ["leadingBlanks", "days"] if "days" in sys.argv else ["leadingBlanks"]
            a = {"name": "early-months", "functions": functions}
        else:
            t = dt.datetime.fromtimestamp(q["month"], utc)
            day1 = dt.datetime(t.year, t.month, 1, tzinfo=utc)
            after = dt.datetime(t.year + t.month // 12, t.month % 12 + 1, 1, tzinfo=utc)
            start = day1 - dt.timedelta(minutes=30)
            if q["function"] == "days":
                a = [start.timestamp() + 86400 * i for i in range((after - day1).days)]
            else:
                sunday_one = start.isoweekday() % 7 + 1
                a = (sunday_one - q["calendar"]["firstWeekday"] + 7) % 7
        print(json.dumps({"id": q["id"], "answer": a}), flush=True)
    """#

  @Test("leading-blanks: where the subject's month starts is its own answer, 23:30 of the eve")
  func monthStartFromTheAnswers() throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("early-months-\(UUID().uuidString).py")
    try Data(Self.earlyMonths.utf8).write(to: script)
    defer { try? FileManager.default.removeItem(at: script) }
    let selection = ["--checks", "leading-blanks", "--calendars", "gregorian", "--time-zones", "UTC",
                     "--first-weekdays", "1", "--years", "2011...2011", "--record", "all"]
    let run = try ExecutorRun(selection, subject: "exec:python3 '\(script.path)' days")
    #expect(run.status == 1, "\(run.stderr)")
    let cases = try run.cases
    let failing = cases.filter { $0.outcome.verdict == .failed }
    // Blanks counted from the eve are one fewer (Sunday-first: the eve's weekday is one
    // before day 1's), so every month fails, and each one's day 1 in the subject's cells is
    // the eve at 23:30.
    #expect(failing.count == cases.count && !cases.isEmpty, "\(cases.count) cases, \(failing.count) failed")
    for record in failing {
      let month = try #require(record.id.month?.gregorian)
      let eve = Calendar(identifier: .gregorian).date(from: DateComponents(
        timeZone: TimeZone(identifier: "UTC"), year: month.year, month: month.month, day: 1))!
        .addingTimeInterval(-86400)
      let day = eve.formatted(.iso8601.year().month().day())
      #expect(record.outcome.pattern == "subject's month starts earlier than libicu's", "\(record.id)")
      #expect(record.outcome.detail.contains { $0.hasPrefix("subject: month starts \(day) 23:30") && $0.contains("(-1 days)") },
              "\(record.id): \(record.outcome.detail)")
    }
    // Without `days`, the start is the harness's own reading, and says so.
    let without = try ExecutorRun(selection, subject: "exec:python3 '\(script.path)'")
    let blind = try #require(try without.cases.first { $0.outcome.verdict == .failed })
    #expect(blind.outcome.detail.contains { $0.hasPrefix("Foundation (the harness's reading; the subject has no days function): month starts") },
            "\(blind.outcome.detail)")
  }

  @Test("weekday-symbols: the diagnosis reads the subject's headers, not Foundation's symbols",
        arguments: [
          // Headers rotated from Monday under a Sunday-first setting: the rotation is wrong.
          (["M", "T", "W", "T", "F", "S", "S"], 1, "rotation differs from the first weekday"),
          // Other symbols: changed, with the first weekday it was given.
          (["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"], 1, "narrow symbols changed"),
        ] as [([String], Int, String)])
  func symbolsFromTheAnswers(headers: [String], firstWeekday: Int, pattern: String) {
    // en's narrow symbols, Sunday first (CLDR: S M T W T F S).
    let sundayFirst = ["S", "M", "T", "W", "T", "F", "S"]
    #expect(WeekdaySymbolsCheck.pattern(sundayFirst: sundayFirst, expectedFirst: firstWeekday,
                                        actual: headers, given: firstWeekday) == pattern)
    #expect(WeekdaySymbolsCheck.rotation(of: ["M", "T", "W", "T", "F", "S", "S"], from: sundayFirst, preferring: 1) == 2)
    #expect(WeekdaySymbolsCheck.rotation(of: headers, from: ["X", "Y", "Z", "A", "B", "C", "D"], preferring: 1) == nil)
  }
}

@Suite("One list of the subject's functions")
struct SubjectFunctionListTests {
  @Test("every function once, in Function's order (entry(_:) looks them up by it)")
  func everyFunctionOnce() {
    #expect(Subject.functions.map(\.function) == Subject.Function.allCases)
  }

  @Test("a team that gives no function has every one missing; a function it gives is the one called")
  func derived() throws {
    #expect(SubjectFunctions(name: "none").subject.missing == Set(Subject.Function.allCases))
    var mine = SubjectFunctions(name: "two")
    mine.nights = { _, _, _ in 3 }
    mine.clampedReturn = { comeback, _ in comeback }
    let subject = mine.subject
    #expect(subject.missing == Set(Subject.Function.allCases).subtracting([.nights, .clampedReturn]))
    let (start, end) = (Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400))
    #expect(subject.nights(start, end, Calendar(identifier: .gregorian)) == 3)
    #expect(subject.clampedReturn(end, start) == end)
  }
}
