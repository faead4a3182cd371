import Conformance
import Foundation
import ICUOracle
#if canImport(FoundationXML)
  import FoundationXML
#endif
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
    subject.leadingBlanks = .init { month, calendar in
      let right = Subject.pickerLogic.leadingBlanks(month, calendar)
      if offByOne.contains(calendar.firstWeekday) { return (right + 1) % 7 }
      guard weekdays.contains(calendar.firstWeekday),
        let first = calendar.dateInterval(of: .month, for: month)?.start
      else { return right }
      return calendar.component(.weekday, from: first) - 1
    }
    return subject
  }

  /// The cases that did not pass, as the results record them.
  func failures(_ url: URL) throws -> [CaseRecord] {
    try recordedCases(url).filter { $0.status != .passed && $0.status != .skipped }
  }

  /// A case's first-weekday dimension as its id writes it (`fw=2`).
  func weekday(_ record: CaseRecord) -> String {
    record.id.firstWeekday.map { "fw=\($0)" } ?? "?"
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
    subject.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols }
    let result = try ConformanceRun.run(now, subject: subject)
    #expect(result.status == .unexpected)

    var classes: [String: Set<String>] = [:]
    for failure in try failures(second) {
      let key = failure.id.check == "weekday-symbols" ? "symbols"
        : (failure.id.month?.gregorian.year == 2022 ? "2022" : weekday(failure))
      classes[key, default: []].insert(failure.review.baseline?.rawValue ?? "none")
    }
    #expect(classes["fw=2"] == ["still-failing"])
    #expect(classes["fw=3"] == ["still-failing"])
    #expect(classes["fw=4"] == ["changed"])
    #expect(classes["symbols"] == ["new-failure"])
    #expect(classes["2022"] == ["new-case"])

    let record = try runRecord(second)
    // fw 5…7 in the 12 months of 2021 in UTC: fixed only where the baseline failed there.
    #expect((record.baselineClasses["fixed"] ?? 0) > 0)
    // Tehran's failures are not swept now: removed, never fixed.
    let removed = record.run.review.removed
    #expect(!removed.isEmpty && removed.allSatisfy { $0.contains("zone=Asia/Tehran") })
    #expect(record.baselineClasses["removed"] == removed.count)
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
    let waived = try failures(first).filter { $0.status == .waived }
    let clusters = Dictionary(grouping: waived) {
      "\($0.review.triage?.rawValue ?? "-") \($0.outcome.pattern)"
    }
    for (cluster, cases) in clusters {
      // Whole (the reports' examples): the first eight in plan order, and the first case of
      // each first weekday (the only dimension but the month that varies here); the rest
      // abridged.
      var seenWeekdays: Set<String> = []
      let expected = cases.enumerated().map { index, record in
        seenWeekdays.insert(weekday(record)).inserted || index < FailureCluster.examplesKept
      }
      #expect(cases.map { !$0.isAbridged } == expected, "\(cluster)")
      for abridged in cases.dropFirst(FailureCluster.examplesKept) where abridged.isAbridged {
        #expect(abridged.outcome.expected == .null && abridged.outcome.detail.isEmpty)
        #expect(abridged.actualDigest?.count == 16)
        #expect(abridged.review.waiver == "known")
      }
    }
    let abridgedWeekdays = Set(waived.filter(\.isAbridged).map(weekday))
    try #require(abridgedWeekdays == ["fw=2", "fw=3", "fw=4"], "\(clusters.mapValues(\.count))")

    // Now fw 2 and 3 fail as before and fw 4 differently: the baseline tells them apart
    // for abridged cases too.
    var after = options(out: second, zones: ["UTC"], years: 2019...2022)
    after.waivers = waivers
    after.baseline = first.appendingPathComponent("results.json")
    _ = try ConformanceRun.run(after, subject: blanks(ignoring: [2, 3], offByOne: [4]))
    var classes: [String: Set<String>] = [:]
    for failure in try failures(second) {
      classes[weekday(failure), default: []].insert(failure.review.baseline?.rawValue ?? "none")
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
       "reason": "test", "link": "none"},
      {"id": "fixed", "check": "weekday-symbols", "match": {"locale": "en_US", "calendar": "gregorian", "fw": "3"},
       "pattern": "*", "reason": "test", "link": "none"}
      """)
    var run = options(out: out, zones: ["UTC"], years: 2021...2021)
    run.waivers = file
    let result = try ConformanceRun.run(run, subject: blanks(ignoring: [2, 3]))
    let byID = Dictionary(grouping: try failures(out), by: { $0.review.waiver ?? "none" })
    #expect(byID["fw2"]?.allSatisfy { $0.status == .waived } == true)
    #expect(byID["gone"]?.map(\.status) == [.unexpectedPass])
    // The expired waiver explains nothing: fw 3 failures are plain failures.
    #expect(byID["none"]?.contains { $0.id.firstWeekday == .fixed(3) } == true)
    // Stale: expired, or matched nothing of a selection swept whole ("fixed" names every
    // dimension weekday-symbols has, each with a value this run swept). "nothing" names a
    // calendar this run did not sweep: it matched nothing here, and is not stale.
    let review = try runRecord(out).run.review
    #expect(Set(review.stale.map(\.id)) == ["old", "fixed"])
    #expect(review.unmatchedPartly == ["nothing"])
    #expect(result.status == .unexpected)  // fw 3 failures and one unexpected pass
  }

  @Test("new is news: a case that newly fails is waived only by a waiver whose scope lists it")
  func newFailuresOutsideScope() throws {
    let (night, base, plain) = (temporary("scope-night"), temporary("scope-base"), temporary("scope-plain"))
    defer { for url in [night, base, plain] { try? FileManager.default.removeItem(at: url) } }
    // Written for Monday starts (fw 2); the broad one states no scope at all.
    let file = try waiverFile("""
      {"id": "monday", "check": "leading-blanks", "pattern": "blank count*",
       "scope": {"fw": "2"}, "reason": "test", "link": "none"},
      {"id": "broad", "check": "leading-blanks", "pattern": "blank count*",
       "reason": "test", "link": "none"}
      """)
    // Baseline: only Tuesday starts (fw 3) are wrong.
    var first = options(out: base, zones: ["UTC"], years: 2021...2021)
    first.waivers = file
    _ = try ConformanceRun.run(first, subject: blanks(ignoring: [3]))
    // Tonight fw 2, 3 and 4 are wrong: 3 still fails, 2 is new but in "monday"'s scope,
    // 4 is new and no scope lists it.
    var run = options(out: night, zones: ["UTC"], years: 2021...2021)
    run.waivers = file
    run.baseline = base.appendingPathComponent("results.json")
    let result = try ConformanceRun.run(run, subject: blanks(ignoring: [2, 3, 4]))
    #expect(result.status == .unexpected)
    let byWeekday = Dictionary(grouping: try failures(night), by: weekday)
    #expect(byWeekday["fw=2"]?.allSatisfy { $0.status == .waived && $0.review.waiver == "monday" } == true)
    #expect(byWeekday["fw=3"]?.allSatisfy { $0.status == .waived && $0.review.baseline == .stillFailing } == true)
    let fourth = try #require(byWeekday["fw=4"])
    #expect(fourth.count == 12)
    #expect(fourth.allSatisfy {
      $0.status == .failed && $0.isNewFailure && $0.review.outOfScope == "monday" && $0.review.waiver == nil
    })
    #expect(fourth.allSatisfy { $0.outcome.detail.contains { $0.contains("'monday'") && $0.contains("scope (fw 2)") } })
    let review = try runRecord(night).run.review
    #expect(review.outOfScope?.map(\.id) == ["monday"])
    #expect(review.outOfScope?.first?.why.contains("12 new failures") == true)
    let junit = try String(contentsOf: night.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("waiver &apos;monday&apos; matches this case") || junit.contains("waiver 'monday' matches this case"))
    let page = try String(contentsOf: night.appendingPathComponent("index.html"), encoding: .utf8)
    // Outside the page's script (which holds the heading's words whatever the night): the
    // static section names the waiver and its cases.
    let withoutScripts = page.replacing(/<script[^>]*>.*?<\/script>/.dotMatchesNewlines(), with: "")
    #expect(withoutScripts.contains("<h2>New failures outside a waiver's scope</h2>\n<ul><li><code>monday</code>"))

    // A waiver whose only matches are new failures outside its scope matched something:
    // it is listed with them, and neither stale nor "matched nothing".
    var other = options(out: night, zones: ["UTC"], years: 2021...2021)
    other.waivers = try waiverFile("""
      {"id": "sunday", "check": "leading-blanks", "pattern": "blank count*",
       "scope": {"fw": "1"}, "reason": "test", "link": "none"}
      """)
    other.baseline = base.appendingPathComponent("results.json")
    #expect(try ConformanceRun.run(other, subject: blanks(ignoring: [4])).status == .unexpected)
    let otherReview = try runRecord(night).run.review
    #expect(otherReview.outOfScope?.map(\.id) == ["sunday"])
    #expect(!otherReview.stale.contains { $0.id == "sunday" } && !otherReview.unmatchedPartly.contains("sunday"))

    // Without a baseline, waivers work as before: every failure is waived.
    var alone = options(out: plain, zones: ["UTC"], years: 2021...2021)
    alone.waivers = file
    #expect(try ConformanceRun.run(alone, subject: blanks(ignoring: [2, 3, 4])).status == .clean)
  }

  @Test("malformed waiver files name the file and the entry", arguments: [
    ("{\"id\": \"a\", \"check\": \"no-such-check\", \"reason\": \"r\", \"link\": \"l\"}", "waiver 1 (a): unknown check"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\"}", "waiver 1 (a): missing \"link\""),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"expires\": \"soon\"}", "expires 'soon'"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"match\": {\"planet\": \"x\"}}", "unknown dimension"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"scope\": {}}", "waiver 1 (a): \"scope\" must name at least one dimension"),
    ("{\"id\": \"a\", \"check\": \"leading-blanks\", \"reason\": \"r\", \"link\": \"l\", \"scope\": {\"zone\": 3}}", "scope.zone must be a string or a list of strings"),
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

  @Test("a waiver file's wrong values are shown as a person wrote them", arguments: [
    (#"{"schema": 3, "waivers": []}"#, #"schema must be "conformance-waivers/1", found 3"#),
    (#"{"schema": ["a", 2.5, true, null], "waivers": []}"#, #"found [a, 2.5, true, null]"#),
    (#"{"schema": {"x": 1}, "waivers": []}"#, "found {…}"),
    (#"{"schema": "conformance-waivers/1", "waivers": {}}"#, #""waivers" must be an array of objects"#),
  ])
  func waiverFileValues(text: String, message: String) throws {
    #expect {
      _ = try WaiverFile.parse(Data(text.utf8), name: "w.json")
    } throws: { error in
      ((error as? InputError)?.message ?? "") == "w.json: " + message
        || ((error as? InputError)?.message ?? "").hasSuffix(message)
    }
  }

  @Test("a truncated or foreign baseline is refused with the file and line")
  func badBaseline() throws {
    let out = temporary("base")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try ConformanceRun.run(options(out: out, zones: ["UTC"], years: 2021...2021),
                               subject: blanks(ignoring: [2]))
    let text = try String(contentsOf: out.appendingPathComponent("results.json"), encoding: .utf8)
    let truncated = temporary("truncated")
    try FileManager.default.copyItem(at: out, to: truncated)
    defer { try? FileManager.default.removeItem(at: truncated) }
    try Data(text.prefix(text.count / 2).utf8).write(to: truncated.appendingPathComponent("results.json"))
    #expect(throws: InputError.self) { _ = try Baseline.load(truncated) }
    // A cases file cut inside a record names the file and the line the record starts on.
    let cases = try recordedCases(out)
    #expect(cases.count > 2)
    let lines = try cases.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    try FileManager.default.removeItem(at: truncated.appendingPathComponent("results.json"))
    try Data(text.utf8).write(to: truncated.appendingPathComponent("results.json"))
    try FileManager.default.removeItem(at: truncated.appendingPathComponent("cases.jsonl.gz"))
    let cut = lines[0] + "\n" + lines[1] + "\n" + lines[2].prefix(lines[2].count / 2)
    try Data(cut.utf8).write(to: truncated.appendingPathComponent("cases.jsonl"))
    #expect {
      _ = try Baseline.load(truncated)
    } throws: { ($0 as? InputError)?.message.contains("cases.jsonl:3: truncated") == true }
    let foreign = temporary("foreign.json")
    try Data(text.replacingOccurrences(of: RunRecord.schema, with: "other/9").utf8).write(to: foreign)
    #expect {
      _ = try Baseline.load(foreign)
    } throws: { ($0 as? InputError)?.message.contains("schema other/9") == true }
  }

  @Test("a schema-2 results.json (one document) is read once more as a baseline")
  func legacyBaseline() throws {
    // Written as conformance 0.2 wrote it: the plan's encoded steps and the failures inline,
    // one whole (its actual value) and one abridged (its digest).
    let whole = "leading-blanks|calendar=gregorian|fw=2|zone=UTC|month=2021-03-01"
    let abridged = "leading-blanks|calendar=gregorian|fw=2|zone=UTC|month=2021-04-01"
    let legacy = temporary("schema2.json")
    try Data("""
      {"schema": "conformance-results/2", "run": {"started": "2026-11-29T23:55:00Z"},
       "versions": {"oracle": {"icu": "72.1.0"}, "subject": {"icu": "76.1.0"}},
       "plan": ["leading-blanks|calendar=gregorian|zone=UTC\\t2\\t\\t"],
       "failures": [
        {"id": "\(whole)", "status": "failed", "actual": 3, "expected": 1},
        {"id": "\(abridged)", "status": "waived", "actualDigest": "\(Value.int(5).digestText)"},
        {"id": "weekday-symbols|locale=en_US|calendar=gregorian|fw=1", "status": "unexpected-pass"}
       ]}
      """.utf8).write(to: legacy)
    let baseline = try Baseline.load(legacy)
    #expect(baseline.failureCount == 2)
    #expect(baseline.started == "2026-11-29T23:55:00Z")
    func record(_ text: String, actual: Value) throws -> CaseRecord {
      CaseRecord(id: try CaseID(parsing: text), step: 0,
                 outcome: Outcome(verdict: .failed, expected: .int(1), actual: actual))
    }
    #expect(baseline.classify(try record(whole, actual: .int(3))) == .stillFailing)
    #expect(baseline.classify(try record(whole, actual: .int(4))) == .changed)
    #expect(baseline.classify(try record(abridged, actual: .int(5))) == .stillFailing)
    #expect(baseline.classify(try record(abridged, actual: .int(6))) == .changed)
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

/// A results directory is data for any JSON tool: re-serialized, pretty-printed, its keys
/// reordered or filtered by `jq`, it must still be the same baseline.
@Suite("Results files through other JSON tools", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ResultsSerializationTests {
  /// Runs `command` with `arguments`, its stdin from `input` and stdout into `output`.
  func shell(_ script: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "set -e; " + script]
    let errors = Spawn.serially { Pipe() }
    process.standardError = errors
    try Spawn.serially { try process.run() }
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    try #require(process.terminationStatus == 0, "\(script): \(message)")
  }

  @Test("compact, pretty-printed, key-reordered and jq-filtered copies classify as the original")
  func reserializedBaselines() throws {
    let review = ReviewTests()
    let scratch = review.temporary("serialized")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let original = scratch.appendingPathComponent("original")
    // UTC and Tehran in 2021, first weekdays 2…7 wrong: failures the next run fixes, keeps,
    // changes, and no longer sweeps.
    _ = try ConformanceRun.run(review.options(out: original, zones: ["UTC", "Asia/Tehran"], years: 2021...2021),
                               subject: review.blanks(ignoring: Set(2...7)))
    let (results, cases, steps) = ("results.json", "cases.jsonl.gz", "steps.jsonl.gz")
    func copy(_ name: String, results resultsFilter: String, lines linesFilter: String) throws -> URL {
      let directory = scratch.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let (from, to) = (original.path, directory.path)
      try shell("\(resultsFilter) < '\(from)/\(results)' > '\(to)/\(results)'")
      // Decompressed, under the name without .gz, which a reader must find as well.
      try shell("gzip -dc '\(from)/\(cases)' | \(linesFilter) > '\(to)/cases.jsonl'")
      try shell("gzip -dc '\(from)/\(steps)' | \(linesFilter) > '\(to)/steps.jsonl'")
      return directory
    }
    let escaper = corpora.deletingLastPathComponent().appendingPathComponent("Scripts/json-escape-all.py").path
    let reordered = #"python3 -c 'import json,sys; [print(json.dumps(dict(reversed(list(json.loads(l).items()))), separators=(",",":"))) for l in sys.stdin]'"#
    let copies = [
      try copy("compact", results: #"python3 -c 'import json,sys; json.dump(json.load(sys.stdin), sys.stdout)'"#,
               lines: reordered),
      try copy("pretty", results: "python3 -m json.tool", lines: "jq ."),
      try copy("filtered", results: "jq 'del(.run.coverage, .matrices) | .run.options |= sort_by(.name)'",
               lines: "jq -c 'del(.detail, .explain, .dimensions, .months)'"),
      // Every character of every key and string as a \u escape (a surrogate pair beyond the BMP).
      try copy("escaped", results: "python3 '\(escaper)' --document", lines: "python3 '\(escaper)'"),
    ]
    // Each copy differs from the original in its bytes.
    for copy in copies {
      #expect(try Data(contentsOf: copy.appendingPathComponent(results))
        != Data(contentsOf: original.appendingPathComponent(results)), "\(copy.lastPathComponent)")
    }
    func classes(against baseline: URL) throws -> [String: String] {
      let out = scratch.appendingPathComponent("against-\(baseline.lastPathComponent)")
      var run = review.options(out: out, zones: ["UTC"], years: 2021...2022)
      run.baseline = baseline.appendingPathComponent(results)
      _ = try ConformanceRun.run(run, subject: review.blanks(ignoring: [2, 3], offByOne: [4]))
      var classes: [String: String] = [:]
      for record in try recordedCases(out) {
        classes[record.id.description] = record.review.baseline?.rawValue ?? "none"
      }
      let record = try runRecord(out)
      classes["removed"] = String(record.run.review.removed.count)
      classes["counts"] = record.baselineClasses.sorted { $0.key < $1.key }.description
      return classes
    }
    let expected = try classes(against: original)
    // The original's own classes span what a night can see.
    #expect(Set(expected.values).isSuperset(of: ["still-failing", "changed", "new-case"]))
    #expect(expected["removed"] != "0")
    for copy in copies {
      #expect(try classes(against: copy) == expected, "\(copy.lastPathComponent)")
    }
  }
}

/// `--record all` keeps both sides' full answers, so a script outside the harness can check
/// each verdict.
@Suite("Recorded values")
struct RecordedValuesTests {
  func record(checks: [String], zones: [String], years: ClosedRange<Int>,
              calendars: [String] = ["gregorian"]) throws -> [CaseRecord] {
    let review = ReviewTests()
    let out = review.temporary("values")
    defer { try? FileManager.default.removeItem(at: out) }
    var options = review.options(out: out, zones: zones, years: years)
    options.request.calendars = .list(calendars)
    options.checks = checks
    options.record = .all
    _ = try ConformanceRun.run(options)
    return try recordedCases(out)
  }

  @Test("month-days in Sao Paulo, November 2018: 30 cells a side, the 4th at 01:00 (midnight skipped)")
  func saoPauloCells() throws {
    let cases = try record(checks: ["month-days"], zones: ["America/Sao_Paulo"], years: 2018...2018)
    // A zone with transitions is swept in its transition months: Sao Paulo's DST ended on
    // 18 February 2018 and began on 4 November. Both cases are recorded, passing or not, each
    // with both sides.
    #expect(cases.map { $0.id.month?.description } == ["2018-02-01", "2018-11-01"])
    #expect(cases.allSatisfy { $0.outcome.values != nil })
    let november = try #require(cases.first { $0.id.month?.description == "2018-11-01" })
    guard case .list(let oracle)? = november.outcome.values?.oracle,
      case .list(let subject)? = november.outcome.values?.subject
    else { Issue.record("no cell lists"); return }
    #expect(oracle.count == 30 && subject.count == 30)
    // The cells are judged by their dates: Brazil's DST began at 00:00 on 4 November 2018
    // (tz: Rule Brazil 2018 Nov Sun>=1 0:00), and the 4th, which starts at 01:00, is a date.
    #expect(oracle[2] == .string("2018-11-03"))
    #expect(oracle[3] == .string("2018-11-04"))
    #expect(subject[3] == .string("2018-11-04"))
  }

  @Test("same-day-closing records every pair with both instants and each side's verdict")
  func closingPairs() throws {
    let cases = try record(checks: ["same-day-closing", "weekday-symbols"], zones: ["UTC"],
                           years: 2021...2021)
    let closing = try #require(cases.first { $0.id.check == "same-day-closing" })
    guard case .list(let pairs)? = closing.outcome.values?.oracle else {
      Issue.record("no pairs"); return
    }
    // UTC, January 2021 (the control month): 31 midnights and the month's end, three
    // instants around each, pairs at most three hours apart.
    #expect(pairs.count > 31)
    let first = try #require(pairs.first)
    #expect(first == .strings(["2020-12-31T23:59:59+00:00", "2021-01-01T00:00:00+00:00", "closes"]))
    // weekday-symbols records the first weekday each side used: en_US's own is Sunday (1).
    let own = try #require(cases.first { $0.id.check == "weekday-symbols" && $0.id.firstWeekday == .own })
    guard case .list(let parts)? = own.outcome.values?.oracle else { Issue.record("no symbols"); return }
    #expect(parts.first == .int(1))
  }
}

/// What a CI server reads in junit.xml must be the run's verdict: red exactly for what
/// `--fail-on` counts, every other known difference skipped with the reason a person needs.
@Suite("JUnit agrees with the run's verdict")
struct JUnitVerdictTests {
  /// One testcase's name and its result elements (failure, error, skipped).
  struct Testcase {
    var name: String
    var results: [(element: String, message: String?)] = []
  }

  final class Reader: NSObject, XMLParserDelegate {
    var testcases: [Testcase] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
      if name == "testcase" { testcases.append(Testcase(name: attributes["name"] ?? "")) }
      if ["failure", "error", "skipped"].contains(name) {
        testcases[testcases.count - 1].results.append((name, attributes["message"]))
      }
    }
  }

  func testcases(_ out: URL) throws -> [Testcase] {
    let reader = Reader()
    let parser = XMLParser(data: try Data(contentsOf: out.appendingPathComponent("junit.xml")))
    parser.delegate = reader
    try #require(parser.parse())
    return reader.testcases
  }

  func red(_ testcases: [Testcase]) -> Int {
    testcases.reduce(0) { $0 + $1.results.filter { $0.element != "skipped" }.count }
  }

  let review = ReviewTests()

  /// Leading blanks that ignore a Monday start: in 2021 every month's Monday-based count
  /// differs from the Sunday-based one, so 12 of the step's 84 cases (12 months × first
  /// weekdays 1…7) fail, all with fw=2.
  var mondayBlind: Subject { review.blanks(ignoring: [2]) }

  @Test("a waiver is one skipped testcase of its check with its whole reason and link; the step's testcase passes, named as every night")
  func waived() throws {
    let out = review.temporary("junit-waived")
    defer { try? FileManager.default.removeItem(at: out) }
    var run = review.options(out: out, zones: ["UTC"], years: 2021...2021)
    run.waivers = try review.waiverFile("""
      {"id": "monday", "check": "leading-blanks", "match": {"fw": "2"},
       "reason": "Blank cells ignore Monday starts", "link": "https://example.org/issue/2"}
      """)
    #expect(try ConformanceRun.run(run, subject: mondayBlind).status == .clean)
    let cases = try testcases(out)
    #expect(red(cases) == 0)
    let known = try #require(cases.first { $0.name == "known differences · waived by monday" })
    #expect(known.results.map(\.element) == ["skipped"])
    #expect(known.results.first?.message
      == "12 cases in 1 step waived by monday: Blank cells ignore Monday starts (https://example.org/issue/2)")
    // The step itself is a passing testcase, with the name it has on a night without waivers.
    #expect(cases.contains { $0.name == "gregorian · UTC" && $0.results.isEmpty })
    #expect(!cases.contains { $0.name.hasPrefix("gregorian · UTC ·") })
    for testcase in cases {
      for result in testcase.results { #expect(result.message?.isEmpty == false, "\(testcase.name)") }
    }

    // --fail-on any counts waived cases: the same step is red, and says why.
    run.failOn = .any
    #expect(try ConformanceRun.run(run, subject: mondayBlind).status == .unexpected)
    let counted = try testcases(out)
    let step = try #require(counted.first { $0.name == "gregorian · UTC" })
    #expect(step.results.map(\.element) == ["failure"])
    #expect(step.results.first?.message?.hasPrefix("12 of 84 cases waived (counted by --fail-on any)") == true)
    // Its known differences keep their testcases, with no case in them: the names hold.
    let knownNow = counted.filter { $0.name.hasPrefix("known differences") }
    #expect(Set(knownNow.map(\.name)) == Set(cases.filter { $0.name.hasPrefix("known differences") }.map(\.name)))
    #expect(knownNow.allSatisfy { $0.results.first?.message?.hasPrefix("0 cases in 0 steps") == true })
  }

  @Test("a night with nothing new: still-failing cases are skipped since the baseline's date, and nothing is red")
  func stillFailing() throws {
    let (first, second) = (review.temporary("junit-night-1"), review.temporary("junit-night-2"))
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    #expect(try ConformanceRun.run(review.options(out: first, zones: ["UTC"], years: 2021...2021),
                                   subject: mondayBlind).status == .unexpected)
    #expect(red(try testcases(first)) == 1)
    var night = review.options(out: second, zones: ["UTC"], years: 2021...2021)
    night.baseline = first
    #expect(try ConformanceRun.run(night, subject: mondayBlind).status == .clean)
    let cases = try testcases(second)
    #expect(red(cases) == 0)
    let started = ISO8601DateFormatter().string(from: try runRecord(first).run.started)
    let known = try #require(cases.first { $0.name == "known differences · still failing" })
    #expect(known.results.first?.message
      == "12 cases in 1 step still failing since \(started) (not counted by --fail-on unexpected)")
    // The same names as the night before: a check's known differences have a testcase each
    // every night, with cases or without.
    let before = try testcases(first)
    #expect(Set(cases.map(\.name)) == Set(before.map(\.name)))
    let none = try #require(before.first { $0.name == "known differences · still failing" })
    #expect(none.results.first?.message == "0 cases in 0 steps still failing: no baseline given (--baseline)")
  }
}

@Suite("explain")
struct ExplainTests {
  /// Column headers never rotated to the first weekday: en_US's narrow standalone symbols
  /// (CLDR: S M T W T F S) where a Monday start wants M T W T F S S.
  var unrotated: Subject {
    var subject = Subject.pickerLogic
    subject.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols }
    return subject
  }

  let id = "weekday-symbols|locale=en_US|calendar=gregorian|fw=2"

  @Test("lists that differ are shown item by item, the differing items marked")
  func itemByItem() throws {
    let (status, lines) = try Explanation.run(id, corporaDirectory: corpora, waivers: nil,
                                              subject: unrotated)
    #expect(status == .unexpected)
    #expect(lines.contains("values:   6 of 7 items differ (≠); expected [libicu 72.1.0] | actual [PickerLogic]"
      + " | expected [Foundation's ICU 76.1.0]"))
    let items = lines.filter { $0.hasPrefix("  ≠ [") || $0.hasPrefix("    [") }
    #expect(items.count == 7)
    #expect(items.first == #"  ≠ [0] "M" | "S" | "M""#)
    // Saturday then Sunday ends a Monday week; unrotated, Saturday ends it too.
    #expect(items.last == #"    [6] "S" | "S" | "S""#)
    #expect(lines.last == "exit 1: this case would fail a run (--fail-on unexpected)")
  }

  @Test("a waived case says which waiver explains it and why, and exits 0")
  func waived() throws {
    let waivers = FileManager.default.temporaryDirectory.appendingPathComponent("explain-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: waivers) }
    try Data(#"""
      {"schema": "conformance-waivers/1", "waivers": [
        {"id": "unrotated", "check": "weekday-symbols", "match": {"fw": "2"},
         "reason": "Headers are not rotated yet", "link": "https://example.org/issue/7"}]}
      """#.utf8).write(to: waivers)
    let (status, lines) = try Explanation.run(id, corporaDirectory: corpora, waivers: waivers,
                                              subject: unrotated)
    #expect(status == .clean)
    #expect(lines.contains { $0.hasPrefix("status:   waived") })
    #expect(lines.contains { $0.hasPrefix("waiver:   unrotated (") })
    #expect(lines.contains("  reason: Headers are not rotated yet"))
    #expect(lines.contains("  link:   https://example.org/issue/7"))
    #expect(lines.last == "exit 0: a known difference, explained by its waiver")
  }
}
