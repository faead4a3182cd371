import Conformance
import Foundation
import Synchronization
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("Reports")
struct ReportTests {
  func finishedTally() throws -> RunTally {
    let corpus = try smallCorpus(locales: ["zh_CN", "en_US"], calendars: ["gregorian", "hebrew"],
                                 zones: ["UTC", "America/St_Johns"], years: 1987...1987)
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let recorder = RunRecorder()
    let info = RunInfo(
      arguments: ["--years", "1987...1987"], options: [.init("years", "1987...1987")],
      versions: try RunVersions.current(), coverage: plan.coverage, transitionsByKind: [:],
      checks: plan.checks.map { .init(id: $0.id, summary: $0.summary) }, started: Date(),
      subject: "PickerLogic")
    recorder.record(Event(.runStarted(info)))
    Runner(plan: plan, corpus: corpus, subject: .pickerLogic, workers: 2).run { recorder.record($0) }
    recorder.record(Event(.runEnded(elapsed: 1.5)))
    return recorder.tally
  }

  @Test("results.json reads back, and its counts add up")
  func resultsJSON() throws {
    let tally = try finishedTally()
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-results-\(getpid())-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try ResultsJSON.write(tally, files: .init(steps: "s", cases: "c", casesHold: "not-passing"),
                          to: url)
    let record = try ResultsDirectory(url, role: "test", as: RunRecord.self).record
    #expect(record.schema == RunRecord.schema)
    let summary = record.summary
    #expect(summary.total == summary.passed + summary.failed + summary.errored + summary.skipped)
    #expect(record.checks.map(\.counts.total).reduce(0, +) == summary.total)
    #expect(tally.problems.count == summary.failed + summary.errored)
    // zh_CN's first day differs (CLDR 42 vs 46), so there is at least that failure.
    #expect(tally.problems.contains { $0.id.locale == "zh_CN" })
    #expect(record.run.versions.oracle.cldr.hasPrefix("42"))
  }

  @Test("junit.xml parses, and its totals match results.json's testcase grouping")
  func junitXML() throws {
    let tally = try finishedTally()
    let xml = JUnitXML.document(tally)
    let counter = ElementCounter()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = counter
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let grouped = CheckCatalog.all.map { tally.testcaseCounts(check: $0.id) }
    #expect(counter.counts["testcase"] == grouped.map(\.tests).reduce(0, +))
    #expect(counter.counts["failure", default: 0] == grouped.map(\.failures).reduce(0, +))
    #expect(counter.counts["testsuite"] == CheckCatalog.all.count)
  }

  @Test("junit.xml written in pieces side by side is the file one thread writes")
  func junitPieces() throws {
    let tally = try finishedTally()
    let whole = JUnitXML.document(tally, testcasesPerRun: .max)
    #expect(tally.steps.count > 20, "pieces of 1 and 7 steps cut every check")
    for size in [1, 7] {
      #expect(JUnitXML.document(tally, testcasesPerRun: size) == whole)
    }
  }

  @Test("XML escaping drops C0 controls and escapes markup")
  func escaping() {
    #expect(JUnitXML.escape("a<b>&\"'\u{1}\u{8}") == "a&lt;b&gt;&amp;&quot;&apos;\u{FFFD}\u{FFFD}")
    #expect(JUnitXML.escape("x\ny", attribute: true) == "x&#10;y")
    #expect(JUnitXML.escape("x\ny", attribute: false) == "x\ny")
    // XML 1.0 forbids U+FFFE and U+FFFF too; other code points from U+F000 pass as they are
    // (U+FF0C, the fullwidth comma, shares their lead byte).
    #expect(JUnitXML.escape("a\u{FFFE}b\u{FFFF}c\u{FF0C}\u{FFFD}\u{EFFF}") == "a\u{FFFD}b\u{FFFD}c\u{FF0C}\u{FFFD}\u{EFFF}")
    #expect(JUnitXML.escape("gregorian · Asia/Tokyo") == "gregorian · Asia/Tokyo")
    #expect(JUnitXML.escape("\t\r\n\u{7F}", attribute: true) == "&#9;&#13;&#10;\u{7F}")
    #expect(JUnitXML.escape("\t\r\n<", attribute: false) == "\t&#13;\n&lt;")
    #expect(JUnitXML.escape("😀 «é» \u{1B}[0m") == "😀 «é» \u{FFFD}[0m")
  }

  @Test("invisible code points are named")
  func codePoints() {
    #expect(CodePoints.annotate("1\u{202F}Jan") == "1⟨U+202F⟩Jan")
    #expect(CodePoints.annotate("a b") == "a b")
  }

  @Test("the HTML page is self-contained and states the versions")
  func html() throws {
    let tally = try finishedTally()
    var page = HTMLReport.document(tally)
    // The versions the script draws its table from: both sides' ICU, as this process has them
    // (page.js names the columns whatever the data says, so its text proves nothing).
    let data = try #require(page.firstMatch(of: /<script id="data" type="application\/json">(.*?)<\/script>/)
      .map { Data(String($0.output.1).utf8) })
    let versions = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["versions"] as? [String: Any]
    let oracle = try #require(versions?["oracle"] as? [String: Any])
    let subject = try #require(versions?["subject"] as? [String: Any])
    let current = try RunVersions.current()
    #expect(oracle["icu"] as? String == current.oracle.icu && oracle["cldr"] as? String == current.oracle.cldr)
    #expect(subject["icu"] as? String == current.subjectICU?.icu)
    // The one link: the report's own copy of the inline style sheet, for a server whose
    // policy forbids inline style (Jenkins'). The same rules as inline.
    let sidecar = "<link rel=\"stylesheet\" href=\"page.css\">"
    #expect(page.components(separatedBy: sidecar).count == 2)
    #expect(page.contains("<style>\(HTMLReport.styleSheet)</style>"))
    page = page.replacingOccurrences(of: sidecar, with: "")
    // Nothing is fetched: no external script, style, image or font (waivers' links are
    // plain anchors a reader may follow).
    for fetch in ["src=\"http", "<link", "url(http", "@import", "fetch("] {
      #expect(!page.contains(fetch), "\(fetch)")
    }
    // Without the script (a CI server's view), the page still names a failing case's explain
    // command.
    let failing = try #require(tally.clusters.byUrgency.first?.examples.first)
    let command = HTMLReport.escape(ExplainCommand().text(for: failing.id)).replacingOccurrences(of: "|", with: "|<wbr>")
    let withoutScripts = page.replacing(/<script[^>]*>.*?<\/script>/.dotMatchesNewlines(), with: "")
    #expect(withoutScripts.contains(command), "\(command)")
  }
}

final class ElementCounter: NSObject, XMLParserDelegate {
  var counts: [String: Int] = [:]
  func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
              qualifiedName: String?, attributes: [String: String] = [:]) {
    counts[name, default: 0] += 1
  }
}

@Suite("Report bounds and identities")
struct ReportBoundsTests {
  /// A subject whose symbols are never rotated: many failures, with text values.
  func manyFailures() throws -> RunTally {
    let corpus = try smallCorpus(locales: ["de_DE", "fa_IR", "ar_EG", "en_US@fw=mon"],
                                 calendars: ["gregorian", "persian", "hebrew"], zones: ["UTC", "Asia/Tehran"],
                                 years: 2000...2024)
    var mutant = Subject.pickerLogic
    mutant.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols + ["\u{202F}"] }
    mutant.leadingBlanks = .init { _, _ in 0 }
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all.filter {
      ["weekday-symbols", "leading-blanks"].contains($0.id)
    })
    let recorder = RunRecorder(keepProblems: false)
    recorder.record(Event(.runStarted(RunInfo(
      arguments: [], options: [], versions: try RunVersions.current(), coverage: plan.coverage,
      transitionsByKind: [:], checks: plan.checks.map { .init(id: $0.id, summary: $0.summary) },
      started: Date(), subject: "mutant"))))
    Runner(plan: plan, corpus: corpus, subject: mutant, workers: 2).run { recorder.record($0) }
    recorder.record(Event(.runEnded(elapsed: 1)))
    return recorder.tally
  }

  @Test("the HTML page stays small however many cases fail")
  func htmlSize() throws {
    let tally = try manyFailures()
    #expect(tally.totals.failed > 5_000)
    let page = HTMLReport.document(tally)
    // Clusters with eight examples each, not one row per case.
    #expect(page.utf8.count < 400_000, "\(page.utf8.count) bytes for \(tally.totals.failed) failures")
    #expect(page.contains("⟨U+202F⟩"))
  }

  @Test("JUnit testcases are unique per suite and show invisible code points")
  func junitIdentities() throws {
    let tally = try manyFailures()
    let xml = JUnitXML.document(tally)
    var seen: Set<String> = []
    for line in xml.split(separator: "\n") where line.contains("<testcase ") {
      let classname = line.split(separator: "classname=\"")[1].split(separator: "\"")[0]
      let name = line.split(separator: " name=\"")[1].split(separator: "\"")[0]
      #expect(seen.insert("\(classname)|\(name)").inserted, "duplicate \(classname) \(name)")
    }
    // A testcase per step, and one per known difference of each check.
    let known = (tally.info?.checks ?? []).reduce(0) { $0 + tally.knownDifferences(check: $1.id).count }
    #expect(seen.count == tally.steps.count + known)
    #expect(xml.contains("⟨U+202F⟩"))
    #expect(!xml.contains("\u{202F}"))
  }
}

@Suite("Console")
struct ConsoleTests {
  func step(_ index: Int, cases: Int, failed: Int) -> StepRecord {
    var counts = StatusCounts()
    counts.passed = cases - failed
    counts.failed = failed
    return StepRecord(index: index, check: "leading-blanks", name: "gregorian · UTC",
                      plan: "leading-blanks|calendar=gregorian|zone=UTC\t\t\t", counts: counts,
                      seconds: 0)
  }

  @Test("in a log, progress is a plain line with counts and an estimate, at most once an interval")
  func logProgress() {
    let lines = Mutex<[String]>([])
    let console = ConsoleRecorder(totalCases: 40, interactive: false, logInterval: .zero) { text in
      lines.withLock { $0.append(text) }
    }
    console.record(Event(.stepEnded(step(0, cases: 10, failed: 1))))
    console.record(Event(.stepEnded(step(1, cases: 30, failed: 2))))
    console.record(Event(.runEnded(elapsed: 1)))
    let written = lines.withLock { $0 }
    #expect(written.count == 2)
    #expect(written.allSatisfy { $0.hasPrefix("progress: ") && $0.hasSuffix("\n") && !$0.contains("\u{1B}") })
    #expect(written.first?.contains("10/40 cases (25%), 1 failed, 0 errored") == true)
    #expect(written.last?.contains("40/40 cases (100%), 3 failed, 0 errored") == true)
    #expect(written.last?.contains("about 0 s left") == true)

    let quiet = Mutex<[String]>([])
    let hourly = ConsoleRecorder(totalCases: 40, interactive: false, logInterval: .seconds(3600)) { text in
      quiet.withLock { $0.append(text) }
    }
    hourly.record(Event(.stepEnded(step(0, cases: 10, failed: 1))))
    #expect(quiet.withLock { $0 }.isEmpty)
  }

  @Test("in a log, a line when the sweep starts, and one every interval while no step finishes (a looping case), until it ends")
  func heartbeat() {
    let lines = Mutex<[String]>([])
    let console = ConsoleRecorder(totalCases: 40, interactive: false, logInterval: .milliseconds(40)) { text in
      lines.withLock { $0.append(text) }
    }
    console.record(Event(.runStarted(RunInfo(arguments: [], options: [], versions: try! RunVersions.current(),
                                             coverage: [], transitionsByKind: [:], checks: [], started: Date(),
                                             subject: "s"))))
    #expect(lines.withLock { $0 } == ["progress: 0/40 cases, sweeping\n"])
    console.record(Event(.stepEnded(step(0, cases: 10, failed: 1))))
    // No step finishes from here on: the heartbeat says where the run stands.
    let deadline = Date().addingTimeInterval(10)
    while lines.withLock({ $0.count }) < 3 && Date() < deadline { usleep(10_000) }
    let beats = lines.withLock { $0 }.filter { $0.contains("no step finished in the last") }
    #expect(beats.count >= 1)
    #expect(beats.first?.hasPrefix("progress: 10/40 cases (25%), 1 failed, 0 errored; ") == true, "\(beats)")
    console.record(Event(.runEnded(elapsed: 1)))
    usleep(200_000)
    let ended = lines.withLock { $0.count }
    usleep(200_000)
    #expect(lines.withLock { $0.count } == ended, "a line after the run ended")
  }

  @Test("the time left follows the plan's expected cost, counts have separators, errored apart from failed")
  func estimateByCost() {
    let lines = Mutex<[String]>([])
    let clock = Mutex(ContinuousClock.now)
    let start = clock.withLock { $0 }
    // Step 0 holds a quarter of the cases and 90 % of the expected cost, and took 90 s: 10 s
    // are left (by cases it would say 270 s).
    let console = ConsoleRecorder(totalCases: 40_000, expectedCost: [0: 90, 1: 10], interactive: false,
                                  logInterval: .zero, write: { text in lines.withLock { $0.append(text) } },
                                  now: { clock.withLock { $0 } })
    clock.withLock { $0 = start + .seconds(90) }
    var first = step(0, cases: 10_000, failed: 1)
    (first.counts.errored, first.counts.passed) = (2, first.counts.passed - 2)
    console.record(Event(.stepEnded(first)))
    let line = lines.withLock { $0 }.first ?? ""
    #expect(line.contains("10,000/40,000 cases (25%), 1 failed, 2 errored"), "\(line)")
    #expect(line.contains("about 10 s left"), "\(line)")
  }
}
