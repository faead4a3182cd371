import Conformance
import Foundation
import ICUOracle
import Testing

/// Baselines, waivers and exit rules, through whole runs written to temporary directories.
@Suite("Review: baseline classes, waivers, exit rules")
struct ReviewTests {
  func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-review-\(getpid())-\(name)-\(UUID().uuidString)")
  }

  func options(out: URL, zones: [String], years: ClosedRange<Int>) -> RunOptions {
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US"])
    request.calendars = .list(["gregorian"])
    request.zones = .list(zones)
    request.years = years
    var options = RunOptions(request: request, out: out)
    options.checks = ["leading-blanks", "weekday-symbols"]
    options.jobs = 2
    return options
  }

  /// Blanks that ignore the first weekday for the given settings, off by one for `offByOne`.
  func blanks(ignoring weekdays: Set<Int>, offByOne: Set<Int> = []) -> Subject {
    var subject = Subject.pickerLogic
    subject.leadingBlanks = { month, calendar in
      let right = Subject.pickerLogic.leadingBlanks(month, calendar)
      if offByOne.contains(calendar.firstWeekday) { return (right + 1) % 7 }
      guard weekdays.contains(calendar.firstWeekday),
        let first = calendar.dateInterval(of: .month, for: month)?.start
      else { return right }
      return calendar.component(.weekday, from: first) - 1
    }
    return subject
  }

  func failures(_ url: URL) throws -> [[String: Any]] {
    let data = try Data(contentsOf: url.appendingPathComponent("results.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(root["failures"] as? [[String: Any]])
  }

  @Test("every baseline class, and removed cases come from coverage, not fixes")
  func baselineClasses() throws {
    let first = temporary("a")
    let second = temporary("b")
    defer { try? FileManager.default.removeItem(at: first); try? FileManager.default.removeItem(at: second) }
    // Baseline: UTC and Tehran, 2021; blanks ignore first weekdays 2…7.
    _ = try ConformanceRun.run(options(out: first, zones: ["UTC", "Asia/Tehran"], years: 2021...2021),
                               subject: blanks(ignoring: Set(2...7)))
    // Now: UTC only, 2021…2022; 2 and 3 still wrong, 4 wrong differently, 5…7 fixed; the
    // symbols are no longer rotated.
    var now = options(out: second, zones: ["UTC"], years: 2021...2022)
    now.baseline = first.appendingPathComponent("results.json")
    var subject = blanks(ignoring: [2, 3], offByOne: [4])
    subject.weekdaySymbols = { $0.veryShortStandaloneWeekdaySymbols }
    let result = try ConformanceRun.run(now, subject: subject)
    #expect(result.status == .unexpected)

    var classes: [String: Set<String>] = [:]
    for failure in try failures(second) {
      let id = failure["id"] as? String ?? ""
      let key = id.hasPrefix("weekday-symbols") ? "symbols"
        : (id.contains("month=2022") ? "2022" : "fw=" + (failure["dimensions"] as? [String: String] ?? [:])["fw", default: "?"])
      classes[key, default: []].insert(failure["baseline"] as? String ?? "none")
    }
    #expect(classes["fw=2"] == ["still-failing"])
    #expect(classes["fw=3"] == ["still-failing"])
    #expect(classes["fw=4"] == ["changed"])
    #expect(classes["symbols"] == ["new-failure"])
    #expect(classes["2022"] == ["new-case"])

    let data = try Data(contentsOf: second.appendingPathComponent("results.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let review = try #require(root["review"] as? [String: Any])
    let baseline = try #require(review["baseline"] as? [String: Any])
    let counts = try #require(baseline["classes"] as? [String: Int])
    // fw 5…7 in the 12 months of 2021 in UTC: fixed only where the baseline failed there.
    #expect((counts["fixed"] ?? 0) > 0)
    // Tehran's failures are not swept now: removed, never fixed.
    let removed = try #require(baseline["removed"] as? [String])
    #expect(!removed.isEmpty && removed.allSatisfy { $0.contains("zone=Asia/Tehran") })
  }

  @Test("waived cases past their cluster's examples are abridged, and still classify as a baseline")
  func abridgedBaseline() throws {
    let first = temporary("abridged-a")
    let second = temporary("abridged-b")
    defer { try? FileManager.default.removeItem(at: first); try? FileManager.default.removeItem(at: second) }
    let waivers = try waiverFile("""
      {"id": "known", "check": "leading-blanks", "match": {"fw": ["2", "3", "4"]},
       "reason": "test", "link": "none"}
      """)
    // Four years, so every cluster (one per signed difference) outgrows its examples.
    var before = options(out: first, zones: ["UTC"], years: 2019...2022)
    before.waivers = waivers
    _ = try ConformanceRun.run(before, subject: blanks(ignoring: [2, 3, 4]))
    let waived = try failures(first).filter { $0["status"] as? String == "waived" }
    let clusters = Dictionary(grouping: waived) {
      "\($0["triage"] ?? "-") \($0["pattern"] ?? "-")"
    }
    for (cluster, cases) in clusters {
      // The first eight in plan order are whole (the reports' examples), the rest abridged.
      let whole = cases.map { $0["actual"] != nil }
      #expect(whole == (0..<cases.count).map { $0 < FailureCluster.examplesKept }, "\(cluster)")
      for abridged in cases.dropFirst(FailureCluster.examplesKept) {
        #expect(abridged["expected"] == nil && abridged["detail"] == nil)
        #expect((abridged["actualDigest"] as? String)?.count == 16)
        #expect(abridged["waiver"] as? String == "known")
      }
    }
    let abridgedWeekdays = Set(waived.filter { $0["actualDigest"] != nil }.compactMap {
      ($0["id"] as? String)?.split(separator: "|").first { $0.hasPrefix("fw=") }.map(String.init)
    })
    try #require(abridgedWeekdays == ["fw=2", "fw=3", "fw=4"], "\(clusters.mapValues(\.count))")

    // Now fw 2 and 3 fail as before and fw 4 differently: the baseline tells them apart
    // for abridged cases too.
    var after = options(out: second, zones: ["UTC"], years: 2019...2022)
    after.waivers = waivers
    after.baseline = first.appendingPathComponent("results.json")
    _ = try ConformanceRun.run(after, subject: blanks(ignoring: [2, 3], offByOne: [4]))
    var classes: [String: Set<String>] = [:]
    for failure in try failures(second) {
      let weekday = (failure["id"] as? String)?.split(separator: "|").first { $0.hasPrefix("fw=") }
      classes[weekday.map(String.init) ?? "?", default: []].insert(failure["baseline"] as? String ?? "none")
    }
    #expect(classes["fw=2"] == ["still-failing"])
    #expect(classes["fw=3"] == ["still-failing"])
    #expect(classes["fw=4"] == ["changed"])
  }

  @Test("a value's digest is 64-bit FNV-1a (the specification's test vectors)")
  func digest() {
    #expect(Value.digest(of: "") == 0xcbf2_9ce4_8422_2325)
    #expect(Value.digest(of: "a") == 0xaf63_dc4c_8601_ec8c)
    #expect(Value.digest(of: "foobar") == 0x8594_4171_f739_67e8)
    #expect(Value.int(7).digest == Value.digest(of: "7"))
  }

  func waiverFile(_ waivers: String) throws -> URL {
    let url = temporary("waivers").appendingPathExtension("json")
    try Data("{\"schema\": \"conformance-waivers/1\", \"waivers\": [\(waivers)]}".utf8).write(to: url)
    return url
  }

  @Test("waivers: matched, expired, stale, unexpected pass")
  func waiverOutcomes() throws {
    let out = temporary("w")
    defer { try? FileManager.default.removeItem(at: out) }
    let file = try waiverFile("""
      {"id": "fw2", "check": "leading-blanks", "match": {"fw": "2"}, "pattern": "blank count*",
       "reason": "test", "link": "none"},
      {"id": "old", "check": "leading-blanks", "match": {"fw": "3"}, "reason": "test",
       "link": "none", "expires": "2000-01-01"},
      {"id": "nothing", "check": "leading-blanks", "match": {"calendar": "hebrew"},
       "reason": "test", "link": "none"},
      {"id": "gone", "check": "weekday-symbols", "match": {"locale": "en_US", "fw": "1"},
       "reason": "test", "link": "none"}
      """)
    var run = options(out: out, zones: ["UTC"], years: 2021...2021)
    run.waivers = file
    let result = try ConformanceRun.run(run, subject: blanks(ignoring: [2, 3]))
    let byID = Dictionary(grouping: try failures(out), by: { $0["waiver"] as? String ?? "none" })
    #expect(byID["fw2"]?.allSatisfy { $0["status"] as? String == "waived" } == true)
    #expect(byID["gone"]?.map { $0["status"] as? String } == ["unexpected-pass"])
    // The expired waiver explains nothing: fw 3 failures are plain failures.
    #expect(byID["none"]?.contains { ($0["id"] as? String)?.contains("fw=3") == true } == true)
    let data = try Data(contentsOf: out.appendingPathComponent("results.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let stale = ((root["review"] as? [String: Any])?["waivers"] as? [String: Any])?["stale"]
      as? [[String: String]]
    #expect(Set(stale?.compactMap { $0["id"] } ?? []) == ["old", "nothing"])
    #expect(result.status == .unexpected)  // fw 3 failures and one unexpected pass
  }

  @Test("malformed waiver files name the file and the entry", arguments: [
    ("{\"id\": \"a\", \"check\": \"no-such-check\", \"reason\": \"r\", \"link\": \"l\"}", "waiver 1 (a): unknown check"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\"}", "waiver 1 (a): missing \"link\""),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"expires\": \"soon\"}", "expires 'soon'"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"match\": {\"planet\": \"x\"}}", "unknown dimension"),
  ])
  func malformedWaivers(entry: String, message: String) throws {
    let file = try waiverFile(entry)
    #expect {
      _ = try WaiverFile.load(file)
    } throws: { error in
      let text = (error as? InputError)?.message ?? ""
      return text.hasPrefix(file.path) && text.contains(message)
    }
  }

  @Test("a truncated or foreign baseline is refused with the file and line")
  func badBaseline() throws {
    let out = temporary("base")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try ConformanceRun.run(options(out: out, zones: ["UTC"], years: 2021...2021),
                               subject: blanks(ignoring: [2]))
    let text = try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)
    let truncated = temporary("truncated.json")
    try Data(text.prefix(text.count / 2).utf8).write(to: truncated)
    #expect(throws: InputError.self) { _ = try Baseline.load(truncated) }
    // Schema 1 (values never abridged) is still a baseline.
    let older = temporary("schema1.json")
    try Data(text.replacingOccurrences(of: ResultsJSON.schema, with: "conformance-results/1").utf8)
      .write(to: older)
    #expect(try Baseline.load(older).failureCount > 0)
    let foreign = temporary("foreign.json")
    try Data(text.replacingOccurrences(of: ResultsJSON.schema, with: "other/9").utf8).write(to: foreign)
    #expect {
      _ = try Baseline.load(foreign)
    } throws: { ($0 as? InputError)?.message.contains("schema other/9") == true }
  }

  @Test("each --fail-on rule", arguments: FailOn.allCases)
  func failOn(rule: FailOn) {
    var counts = StatusCounts()
    counts.waived = 3
    #expect((rule.reason(counts, newFailures: 0) != nil) == (rule == .any))
    counts.unexpectedPass = 1
    #expect((rule.reason(counts, newFailures: 0) != nil) == (rule == .any || rule == .unexpected))
    counts.failed = 2
    #expect((rule.reason(counts, newFailures: 2) != nil) == (rule != .none))
  }
}

@Suite("Globs")
struct GlobTests {
  @Test("globs match as in a shell, with ! negating", arguments: [
    ("*_CN", "zh_CN", true), ("*_CN", "zh_TW", false), ("ar_??", "ar_AE", true),
    ("!iso8601", "iso8601", false), ("!iso8601", "gregorian", true), ("a*b*c", "aXbYc", true),
    ("a*b*c", "aXbY", false), ("*", "", true),
  ])
  func glob(pattern: String, value: String, matches: Bool) {
    #expect(Glob(pattern).matches(value) == matches)
  }
}
