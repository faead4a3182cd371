@testable import Conformance
import Foundation
import Testing

/// A subject declares the data releases it carries, and is judged by them: where the
/// published reference shows it following its release and libicu 72 its own older one, the
/// case is `oracle-stale`, counted apart and never a failure (issue 47, items 1 and 2).
@Suite("Declared releases and oracle-stale")
struct DeclaredReleasesTests {
  /// Catalan's stand-alone narrow weekday names, Sunday first: CLDR 42 writes them without a
  /// full stop, CLDR 46 with one (ca.xml, dayWidth narrow, in each release; the reference's
  /// babel 2.12.1 and 2.17.0 files hold the same).
  static let catalan42 = ["dg", "dl", "dt", "dc", "dj", "dv", "ds"]
  static let catalan46 = ["dg.", "dl.", "dt.", "dc.", "dj.", "dv.", "ds."]

  /// Catalan's weekday headers (Monday first, as ca_ES's week starts) from a team's subject
  /// that answers CLDR 46's names and declares `releases`, reviewed as a run does.
  func catalanHeaders(declaring releases: DataReleases?, policy: OracleStalePolicy = .apart,
                      waivers: [Waiver] = []) throws -> CaseRecord {
    var mine = SubjectFunctions(name: "MyPicker", releases: releases)
    mine.weekdaySymbols = { _ in Array(Self.catalan46[1...]) + [Self.catalan46[0]] }
    let subject = mine.subject
    let corpus = try smallCorpus(locales: ["ca_ES"], calendars: ["gregorian"], zones: ["UTC"], years: 2020...2020)
    let id = try CaseID(parsing: "weekday-symbols|locale=ca_ES|calendar=gregorian|fw=own")
    let review = try Review.ofRun(subject, waivers: waivers, baseline: nil, oracleStale: policy).review
    return CaseEvaluator(corpus: corpus, subject: subject, review: review).reviewed(id, check: WeekdaySymbolsCheck())
  }

  @Test("a subject that follows the CLDR release it declares, where libicu follows its older one: oracle-stale, no waiver, no rule counts it, the deciding releases named")
  func followsItsRelease() throws {
    let record = try catalanHeaders(declaring: DataReleases(cldr: "46"))
    #expect(record.outcome.verdict == .failed)
    #expect(record.outcome.expected == .strings(Array(Self.catalan42[1...]) + [Self.catalan42[0]]))
    #expect(record.review.triage == .oracleStale)
    #expect(record.status == .oracleStale)
    #expect(!record.isNewFailure)
    for rule in FailOn.allCases { #expect(!rule.counts(record), "\(rule)") }
    #expect(record.outcome.detail.contains {
      $0.hasPrefix("oracle-stale: the subject follows CLDR 46 (babel 2.17.0), the release it declares; "
        + "libicu follows CLDR 42 (babel 2.12.1)")
    }, "\(record.outcome.detail)")
    // The line a results file holds says so, and reads back the same.
    let line = CaseLineWriter.line(record, explain: .plain)
    #expect(String(decoding: line, as: UTF8.self).contains(#""oracleStale":true"#))
    let read = try line.withUnsafeBytes { raw in
      try CaseLine(raw.bindMemory(to: UInt8.self), path: "test", lineNumber: 1)
    }
    #expect(read.summary.status == .oracleStale)
  }

  @Test("--oracle-stale fail: the same case is a failure, which a waiver may explain")
  func failPolicy() throws {
    let failing = try catalanHeaders(declaring: DataReleases(cldr: "46"), policy: .fail)
    #expect(failing.status == .failed)
    #expect(failing.isNewFailure)
    let waiver = try #require(try WaiverFile.parse(Data(#"""
      {"schema": "conformance-waivers/1", "waivers": [{"id": "catalan-stops", "check": "weekday-symbols",
       "triage": "oracle-stale", "reason": "CLDR 46 added full stops to Catalan's narrow names", "link": "https://cldr.unicode.org",
       "when": {"subjectCLDR": "46.*"}}]}
      """#.utf8), name: "test.json").first)
    #expect(try catalanHeaders(declaring: DataReleases(cldr: "46"), policy: .fail, waivers: [waiver]).status == .waived)
    // Counted apart, the waiver has nothing to explain.
    #expect(try catalanHeaders(declaring: DataReleases(cldr: "46"), waivers: [waiver]).status == .oracleStale)
  }

  @Test("a subject that declares no CLDR release: the case fails, triaged undeclared-release, never judged by Foundation's release")
  func undeclared() throws {
    let record = try catalanHeaders(declaring: DataReleases(tz: "2025b"))
    #expect(record.review.triage == .undeclared)
    #expect(record.status == .failed)
    #expect(record.outcome.detail.contains { $0.contains("the subject's CLDR (it declares none)") }, "\(record.outcome.detail)")
  }

  @Test("a subject that declares the older release while answering the newer one departs from its own: not oracle-stale")
  func departsFromItsRelease() throws {
    let record = try catalanHeaders(declaring: DataReleases(cldr: "42"))
    #expect(record.review.triage != .oracleStale)
    #expect(record.status == .failed)
  }

  @Test("a waiver's subjectCLDR and subjectTZ are matched against what the subject declares: none declared, none applies")
  func waiverConditions() throws {
    let waiver = try #require(try WaiverFile.parse(Data(#"""
      {"schema": "conformance-waivers/1", "waivers": [{"id": "tz-2025", "check": "month-days",
       "reason": "r", "link": "https://data.iana.org/time-zones/tzdb/NEWS", "when": {"subjectTZ": "2025*", "subjectCLDR": "46.*"}}]}
      """#.utf8), name: "test.json").first)
    var versions = try RunVersions.current()
    versions.subjectReleases = DataReleases()
    #expect(waiver.inactiveReason(today: .today, versions: versions)?.contains("not declared by the subject") == true)
    versions.subjectReleases = DataReleases(cldr: "46", tz: "2025b")
    #expect(waiver.inactiveReason(today: .today, versions: versions) == nil)
    versions.subjectReleases = DataReleases(cldr: "46", tz: "2022e")
    #expect(waiver.inactiveReason(today: .today, versions: versions) == "subjectTZ is 2022e, not 2025*")
  }

  @Test("hello's data: each release optional, anything else refused with what is wrong")
  func helloData() throws {
    func hello(_ text: String) throws -> ExecutorWire.Hello {
      try ExecutorWire.Hello(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }
    let declared = try hello(#"{"name":"py","functions":["days"],"data":{"cldr":"46","tz":"2025b"}}"#)
    #expect(declared.data == DataReleases(cldr: "46.0", tz: "2025b"))
    #expect(try hello(#"{"name":"py","functions":["days"]}"#).data == DataReleases())
    #expect(throws: InputError("its answer to hello declares data cldr 46, not a release such as \"46\"")) {
      try hello(#"{"name":"py","functions":["days"],"data":{"cldr":46}}"#)
    }
    #expect(throws: InputError("its answer to hello declares data 'tzdata', not one of cldr, tz, icu")) {
      try hello(#"{"name":"py","functions":["days"],"data":{"tzdata":"2025b"}}"#)
    }
  }
}

/// The Python executor on pinned releases (`Examples/PythonSubject/releases.py`: Babel 2.17.0,
/// CLDR 46; PyPI tzdata 2025.2, IANA 2025b), swept where those releases and libicu 72's differ.
@Suite("An executor that declares its releases", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct DeclaredReleasesExecutorTests {
  static let subject = "exec:python3 Examples/PythonSubject/releases.py"
  static let selection = ["--checks", "weekday-symbols,month-days,leading-blanks,same-day-closing",
                          "--calendars", "gregorian", "--locales", "ca_ES,xh_ZA,ar_AE,de_DE",
                          "--time-zones", "UTC,Asia/Tehran,America/Nuuk", "--years", "1978...2037"]

  @Test("no case fails only because libicu's data is older: those are oracle-stale, each naming the deciding release; labels name the executor")
  func noStaleFailures() throws {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", "import babel, tzdata; assert babel.__version__ == '2.17.0' and tzdata.IANA_VERSION == '2025b'"]
    try Spawn.serially { try python.run() }
    python.waitUntilExit()
    try #require(python.terminationStatus == 0,
                 "needs Babel 2.17.0 and tzdata 2025.2 from PyPI (pip install babel==2.17.0 tzdata==2025.2)")
    let run = try ExecutorRun(Self.selection + ["--record", "all"], subject: Self.subject)
    #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
    let summary = try run.record.summary
    #expect(summary.failed == 0 && summary.errored == 0 && summary.waived == 0, "\(summary)")
    let stale = try run.cases.filter { $0.status == .oracleStale }
    #expect(summary.oracleStale == stale.count)
    // Catalan's and Xhosa's narrow names (CLDR 42 → 46: 'dg' → 'dg.', 'Mgq' → 'Mg'), the
    // UAE's first day (Saturday → Monday), Tehran's 1978 clocks and Nuuk's 2037 (tz 2022e →
    // 2025b: Greenland kept DST from 2023); German's names are the same in both releases.
    let staleLocales = Set(stale.compactMap(\.id.locale))
    #expect(staleLocales == ["ca_ES", "xh_ZA", "ar_AE"], "\(staleLocales)")
    let staleZones = Set(stale.filter { $0.id.check != "weekday-symbols" }.compactMap(\.id.zone))
    #expect(staleZones == ["Asia/Tehran", "America/Nuuk"], "\(staleZones)")
    for record in stale {
      let decided = record.outcome.detail.first { $0.hasPrefix("oracle-stale: the subject follows ") }
      let release = record.id.check == "weekday-symbols" ? "CLDR 46 (babel 2.17.0)" : "tz 2025b"
      #expect(decided?.contains("follows \(release)") == true, "\(record.id): \(record.outcome.detail)")
    }
    // Every surface names the executor and the releases it declares, never Foundation's
    // values as the subject's.
    #expect(try run.record.run.versions.subjectReleases == DataReleases(cldr: "46", tz: "2025b"))
    #expect(run.stdout.contains("subject: py-releases 1.0 (exec:python3 Examples/PythonSubject/releases.py), CLDR 46.0, tz 2025b;"))
    // The console says oracle-stale once per group, and counts it on its exit line.
    #expect(run.stdout.contains("16 × weekday-symbols: narrow symbols changed (16 oracle-stale)"), "\(run.stdout)")
    #expect((run.stdout + run.stderr).contains(", \(stale.count) oracle-stale)"), "\(run.stderr)")
    let junit = try String(contentsOf: run.out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("name=\"known differences · oracle-stale (libicu&apos;s data is older)\""))
    #expect(!junit.contains("[Foundation]"))
    // No label speaks of Foundation as the subject (the first weekday is "given").
    let patterns = try run.cases.map(\.outcome.pattern)
    #expect(patterns.allSatisfy { !$0.contains("Foundation") }, "\(patterns)")
    let explain = try Executable.run(["explain", "weekday-symbols|locale=ca_ES|calendar=gregorian|fw=own",
                                      "--subject", Self.subject], environment: [:])
    #expect(explain.status == 0)
    #expect(explain.out.contains("status:   oracle-stale"), "\(explain.out)")
    #expect(explain.out.contains("subject: py-releases 1.0"), "\(explain.out)")
    // The old behaviour on request: the same cases fail.
    let failing = try ExecutorRun(Self.selection + ["--oracle-stale", "fail"], subject: Self.subject)
    #expect(failing.status == 1)
    #expect(try failing.record.summary.failed == stale.count)
  }
}

/// `--record all`'s `values.reference`: the published reference's value where it decided a
/// case's triage, and its release (issue 47, item 5).
@Suite("The reference's value in the record")
struct ReferenceValueTests {
  @Test("where a reference decided: CLDR 46's Catalan names, tz 2025b's Tehran day, borax's Chinese month; the line and the schema's writer agree")
  func referenceValues() throws {
    let run = try ExecutorRun(["--checks", "weekday-symbols,same-day-closing,leading-blanks",
                               "--locales", "ca_ES", "--calendars", "gregorian,chinese",
                               "--time-zones", "UTC,Asia/Tehran", "--years", "1978...1999",
                               "--record", "all"], subject: nil)
    let cases = Dictionary(uniqueKeysWithValues: try run.cases.map { ($0.id.description, $0) })
    // CLDR 46's stand-alone narrow names with a full stop (ca.xml), Monday first.
    let catalan = try #require(cases["weekday-symbols|locale=ca_ES|calendar=gregorian|fw=own"])
    #expect(catalan.outcome.values?.reference == ReferenceValue(
      release: "CLDR 46 (babel 2.17.0)", value: .strings(["dl.", "dt.", "dc.", "dj.", "dv.", "ds.", "dg."])))
    // libicu 72 starts Chinese month 12 of 1998 on 1999-01-18; borax's table (the published
    // one) on 1999-01-17, a Sunday: no blank cell before it in a Sunday-first grid.
    let chinese = try #require(cases["leading-blanks|calendar=chinese|fw=1|zone=UTC|month=1999-01-18"])
    #expect(chinese.review.triage == .oracleDefect)
    #expect(chinese.outcome.values?.reference == ReferenceValue(release: "chinese months (borax==4.1.3)", value: .int(0)))
    // A zone case the tz releases decided: its value at 2025b, the subject's release.
    let tehran = try #require(cases.values.first {
      $0.id.check == "same-day-closing" && $0.id.zone == "Asia/Tehran" && $0.status == .oracleStale
    })
    #expect(tehran.outcome.values?.reference?.release == "tz 2025b (tzdata==2025.2)")
    #expect(tehran.outcome.values?.reference?.value == tehran.outcome.actual)
    // No reference decided a passing case, nor a two-voice failure.
    #expect(cases.values.allSatisfy { record in
      record.outcome.values?.reference == nil || [.oracleStale, .oracleDefect, .subjectData, .sharedDefect, .logicDefect]
        .contains(record.review.triage)
    })
    #expect(cases.values.contains { $0.outcome.verdict == .passed && $0.outcome.values?.reference == nil })
  }
}
