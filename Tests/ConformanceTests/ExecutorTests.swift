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

@Suite("Executor protocol")
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
    // Inside them every case is errored with its function's fault as its pattern: asked, or,
    // once the breaker tripped, not asked (its detail says so).
    let errored = after.filter { affected($0.id) != nil }
    for (function, pattern) in [("days", "in days"), ("closes", "executor silent for 0.50 s in closes"),
                                ("leadingBlanks", "malformed answer to leadingBlanks")] {
      let mine = errored.filter { affected($0.id) == function }
      #expect(!mine.isEmpty, "\(function)")
      #expect(mine.allSatisfy { $0.outcome.verdict == .errored }, "\(function)")
      #expect(mine.allSatisfy { $0.outcome.pattern.hasPrefix("executor") || $0.outcome.pattern.hasPrefix("malformed") })
      #expect(mine.allSatisfy { $0.outcome.pattern.contains(pattern) }, "\(function): \(Set(mine.map(\.outcome.pattern)))")
    }
    // The crash's detail carries the executor's own message; the garbage is quoted.
    let asked = { (record: CaseRecord) in !(record.outcome.detail.first ?? "").hasPrefix("not asked") }
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

@Suite("Executors end with their run")
struct ExecutorLifetimeTests {
  /// The pids of processes whose command line holds `marker`.
  static func processes(holding marker: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let pid = Int32(entry),
        let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline"))
      else { return nil }
      return String(decoding: line, as: UTF8.self).contains(marker) ? pid : nil
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
    process.arguments = ["--checks", "same-day-closing", "--calendars", "gregorian", "--time-zones", "UTC",
                         "--out", out.path, "--subject", referenceExecutor("hang:closes", "error:days:\(marker)")]
      + (inProcess ? ["--no-isolation"] : [])
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["CONFORMANCE_EXECUTOR_TIMEOUT": "600"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.currentDirectoryURL = corpora.deletingLastPathComponent()
    try process.run()
    // Wait until both workers' executors are asked (the parent's greeting one has ended).
    let start = Date()
    while Self.processes(holding: marker).count < 2 && Date().timeIntervalSince(start) < 60 { usleep(100_000) }
    usleep(500_000)
    #expect(Self.processes(holding: marker).count >= 2)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 143)
    usleep(200_000)
    #expect(Self.processes(holding: marker).isEmpty, "executors left: \(Self.processes(holding: marker))")
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }
}
