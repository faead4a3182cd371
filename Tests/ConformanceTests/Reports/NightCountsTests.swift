import Conformance
import Foundation
import FoundationXML
import Testing

/// Three nights as a release engineer reads them (clean; one injected trap against the clean
/// night; a trap storm on leading-blanks against it), each read on every surface: the console,
/// the tab's title, the banner, the baseline table (without JavaScript, and the data the script
/// draws its own from), JUnit and results.json. Each notion is one number everywhere, or the
/// surface says in words why its number differs.
@Suite("One count per notion: console, title, banner, baseline table, JUnit and results.json", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct NightCountsTests {
  /// Chinese months of 1999 in UTC: libicu 72 and Foundation's ICU 76 start the month of
  /// 1999-01-18 a day apart (waived, `icu76-lunar-month-starts`), so the storm's trap in it is
  /// a failure with another value than the clean night's: a new failure of class `changed`.
  static let selection = ["--corpora", corpora.path, "--locales", "en_US", "--calendars", "gregorian,chinese",
                          "--first-weekdays", "1", "--years", "1999...1999", "--checks", "leading-blanks,month-days"]

  /// A night's surfaces, as files and console lines.
  struct Night {
    var name: String
    var status: Int32
    var console: [String]
    var results: RunRecord
    var html: String
    var junit: XMLDocument

    init(_ name: String, in base: URL, baseline: URL?, fault: String?) throws {
      let out = base.appendingPathComponent(name)
      let run = try Executable.run(
        NightCountsTests.selection + ["--out", out.path] + (baseline.map { ["--baseline", $0.path] } ?? []),
        environment: fault.map { ["CONFORMANCE_FAULT": $0, "CONFORMANCE_CASE_TIMEOUT": "0.5"] } ?? [:])
      self.name = name
      status = run.status
      console = (run.out + run.error).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("progress") }
      results = try runRecord(out)
      html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
      junit = try XMLDocument(contentsOf: out.appendingPathComponent("junit.xml"))
    }

    func line(starting prefix: String) -> String? { console.first { $0.hasPrefix(prefix) } }
  }

  /// Every "1,234 word" in `text`, by the word(s) after the number up to `words` long.
  static func count(_ noun: String, in text: String) -> Int? {
    let pattern = try! Regex("([0-9][0-9,]*) " + NSRegularExpression.escapedPattern(for: noun))
    return text.firstMatch(of: pattern).flatMap { Int(String($0.output[1].substring!).replacingOccurrences(of: ",", with: "")) }
  }

  /// The status counts a line words (console, JUnit's property): each status by its name.
  static func statuses(in text: String) -> StatusCounts {
    var counts = StatusCounts()
    counts.passed = count("passed", in: text) ?? -1
    counts.failed = count("failed", in: text) ?? -1
    counts.errored = count("errored", in: text) ?? -1
    counts.notRun = count("not run", in: text) ?? 0
    counts.waived = count("waived", in: text) ?? -1
    counts.oracleStale = count("oracle-stale", in: text) ?? -1
    counts.unexpectedPass = count("unexpected pass", in: text) ?? -1
    counts.skipped = count("skipped", in: text) ?? -1
    return counts
  }

  static func plain(_ html: String) -> String {
    html.replacing(try! Regex("<[^>]+>"), with: " ").replacingOccurrences(of: "&#39;", with: "'")
  }

  /// Holds the night's surfaces to its results.json; returns the title.
  func agree(_ night: Night) throws -> String {
    let results = night.results
    let summary = results.summary
    let classes = results.baselineClasses
    let newByClass = results.newFailureClasses ?? [:]
    #expect(newByClass.values.reduce(0, +) == (classes.isEmpty ? 0 : results.newFailures), "\(night.name)")

    // Console: the totals, the baseline's classes and the new failures' split, the verdict.
    let totals = try #require(night.console.first { $0.contains(" cases in ") }, "\(night.name)")
    #expect(Self.count("cases in", in: totals) == summary.total, "\(night.name): \(totals)")
    #expect(Self.statuses(in: totals) == summary, "\(night.name): \(totals)")
    let exit = try #require(night.console.last)
    #expect(exit.hasPrefix(night.status == 0 ? "exit 0" : "exit 1: "), "\(night.name): \(exit)")
    #expect((Self.count("new failure", in: exit) ?? 0) == results.newFailures, "\(night.name): \(exit)")
    if classes.isEmpty {
      #expect(night.line(starting: "against ") == nil)
    } else {
      let against = try #require(night.line(starting: "against "), "\(night.name)")
      for (kind, count) in classes { #expect(Self.count(kind, in: against) == count, "\(night.name): \(kind) in \(against)") }
      let split = night.line(starting: "the \(results.newFailures) new failure")
      #expect((split == nil) == (results.newFailures == 0), "\(night.name): \(night.console)")
      for (kind, meaning) in [("new-failure", "passed in the baseline"), ("changed", "failed in the baseline with another value"),
                              ("new-case", "not swept by the baseline")] {
        #expect((split.flatMap { Self.count(meaning, in: $0) } ?? 0) == newByClass[kind], "\(night.name): \(kind) in \(split ?? "")")
      }
    }

    // The tab's title: the verdict first (the console's, without the rule), then when and
    // which run; then the counts.
    let title = try #require(night.html.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.output.1) })
    // Without its parenthesis: the rule (exit 1), or the counts it did not count (exit 0).
    let verdict = exit.replacing(try Regex(#" \([^()]*\)$"#), with: "")
    #expect(title.hasPrefix(night.status == 0 ? "exit 0 · " : verdict + " · "), "\(night.name): \(title)")
    #expect(title.contains(" · \(night.name) — "), "\(night.name): \(title)")
    for (noun, value) in [("errored", summary.errored), ("failed", summary.failed), ("waived", summary.waived),
                          ("cases", summary.total)] {
      #expect(Self.count(noun, in: title.replacingOccurrences(of: "&#39;", with: "'")) == value, "\(night.name): \(noun) in \(title)")
    }

    // The banner, first on the page with JavaScript or without.
    let bannerHTML = try #require(night.html.firstMatch(of: /<div id="verdict"[^>]*>(.*?)<\/div>/).map { String($0.output.1) })
    let banner = Self.plain(bannerHTML)
    #expect(banner.contains(verdict), "\(night.name): \(banner)")
    #expect(Self.count("new failure", in: banner.replacingOccurrences(of: verdict, with: "")) == results.newFailures,
            "\(night.name): \(banner)")
    #expect(Self.count("errored", in: banner) == summary.errored, "\(night.name): \(banner)")
    if !classes.isEmpty {
      #expect(Self.count("fixed", in: banner) == classes["fixed"], "\(night.name): \(banner)")
      for (kind, meaning) in [("new-failure", "passed in the baseline"), ("changed", "failed in the baseline with another value")] {
        #expect((Self.count(meaning, in: banner) ?? 0) == newByClass[kind], "\(night.name): \(kind) in \(banner)")
      }
    }

    // The baseline table without JavaScript: a row of cases per class, a row of new failures,
    // and the legend naming the banner's count; the script's data holds the same.
    if !classes.isEmpty {
      let table = try #require(night.html.firstMatch(of: /Against [^<]*<\/p>\n<div class="scroll"><table>(.*?)<\/table>/)
        .map { String($0.output.1) }, "\(night.name)")
      let rows = table.matches(of: /<tr>(.*?)<\/tr>/).map { row in
        row.output.1.matches(of: /<t[hd][^>]*>([^<]*)<\/t[hd]>/).map { String($0.output.1) }
      }
      try #require(rows.count == 3, "\(night.name): \(table)")
      let header = Array(rows[0].dropFirst())
      #expect(rows[1].first == "cases" && rows[2].first == "new failures", "\(night.name): \(rows)")
      for (index, kind) in header.enumerated() {
        #expect(Int(rows[1][index + 1].replacingOccurrences(of: ",", with: "")) == classes[kind], "\(night.name): \(kind)")
        #expect(Int(rows[2][index + 1].replacingOccurrences(of: ",", with: "")) == newByClass[kind], "\(night.name): \(kind)")
      }
      let legend = "The banner&#39;s \(results.newFailures) new failure" + (results.newFailures == 1 ? "" : "s") + " are the second row"
      #expect(night.html.contains(legend),
              "\(night.name)")
      let data = try #require(night.html.firstMatch(of: /<script id="data" type="application\/json">(.*?)<\/script>/)
        .map { Data(String($0.output.1).utf8) })
      let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let review = try #require(page["review"] as? [String: Any])
      let baseline = try #require(review["baseline"] as? [String: Any])
      #expect(review["exit"] as? String == exit, "\(night.name)")
      #expect(baseline["classes"] as? [String: Int] == classes, "\(night.name)")
      #expect(baseline["newFailures"] as? [String: Int] == newByClass, "\(night.name)")
    }

    // JUnit: its counts are testcases (steps), results.json's per check; each testsuite says
    // so in words, with the check's cases, which add up to the night's.
    let suites = try night.junit.nodes(forXPath: "/testsuites/testsuite")
    #expect(suites.count == results.checks.count, "\(night.name)")
    var cases = StatusCounts()
    var newFailures = 0
    for case let suite as XMLElement in suites {
      let name = try #require(suite.attribute(forName: "name")?.stringValue)
      let check = try #require(results.checks.first { $0.id == name })
      #expect(suite.attribute(forName: "errors")?.stringValue == "\(check.testcases.errors)", "\(night.name): \(name)")
      #expect(suite.attribute(forName: "failures")?.stringValue == "\(check.testcases.failures)", "\(night.name): \(name)")
      let property = try #require(try suite.nodes(forXPath: "properties/property[@name='cases']/@value").first?.stringValue)
      #expect(property.contains("count testcases, one per step"), "\(night.name): \(property)")
      let counts = Self.statuses(in: property)
      #expect(counts == check.counts && Self.count("cases:", in: property) == check.counts.total, "\(night.name): \(property)")
      cases.add(counts)
      newFailures += Self.count("new failure", in: property) ?? -1
    }
    #expect(cases == summary && newFailures == results.newFailures, "\(night.name)")
    return title
  }

  @Test("a clean night, one trap against it, and a trap storm on leading-blanks against it")
  func threeNights() throws {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-counts-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let clean = try Night("clean", in: base, baseline: nil, fault: nil)
    let trap = try Night("one-trap", in: base, baseline: base.appendingPathComponent("clean"),
                         fault: "trap:leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=1999-01-01")
    let storm = try Night("storm", in: base, baseline: base.appendingPathComponent("clean"),
                          fault: "trap:*leading-blanks*chinese*")
    #expect(clean.status == 0 && clean.results.newFailures == 0)
    // One trap: one case errored, which passed in the clean night.
    #expect(trap.status == 1 && trap.results.summary.errored == 1 && trap.results.newFailures == 1)
    #expect(trap.results.newFailureClasses == ["new-failure": 1, "changed": 0, "new-case": 0])
    // The storm: faults in cases that passed, and in the waived month of 1999-01-18, which
    // fails now with another value; the breaker stops the rest.
    #expect(storm.status == 1 && storm.results.summary.notRun > 0)
    #expect((storm.results.newFailureClasses?["changed"] ?? 0) >= 1, "\(storm.results.newFailureClasses ?? [:])")
    #expect((storm.results.newFailureClasses?["new-failure"] ?? 0) >= 1, "\(storm.results.newFailureClasses ?? [:])")
    let titles = try [clean, trap, storm].map { try agree($0) }
    // Three tabs told apart by what they start with: the verdict, then the run.
    let heads = titles.map { $0.components(separatedBy: " — ")[0] }
    #expect(Set(heads.map { $0.prefix(22) }).count == 3, "\(heads)")
  }
}
