import Foundation
import Testing

@testable import Conformance

/// Triage by three voices, from values derived by hand from the cited releases.
struct ReferenceTriageTests {
  /// zh's stand-alone narrow days (CLDR 42 to 49), Sunday first, and the same Monday first.
  static let sundayFirst: Value = .strings(["日", "一", "二", "三", "四", "五", "六"])
  static let mondayFirst: Value = .strings(["一", "二", "三", "四", "五", "六", "日"])

  @Test("a table of starts finds the last start not after a value, by hand",
        arguments: [(5, nil), (10, 0), (11, 0), (19, 0), (20, 1), (29, 1), (30, 2), (99, 2)] as [(Int, Int?)])
  func lastPositionNotAfter(value: Int, position: Int?) {
    #expect([10, 20, 30].lastPosition(notAfter: value) == position)
    #expect([Int]().lastPosition(notAfter: value) == nil)
  }

  @Test("each class from its definition")
  func classes() {
    let (sun, mon) = (Self.sundayFirst, Self.mondayFirst)
    let other: Value = .strings(["x"])
    // ar_AE: libicu Saturday = CLDR 42, subject Monday = CLDR 46.
    #expect(Triage.classify(oracle: other, subject: mon, subjectICU: mon,
                            oracleRelease: other, subjectRelease: mon) == .oracleStale)
    // zh_CN: every release Monday; the subject and its ICU Sunday.
    #expect(Triage.classify(oracle: mon, subject: sun, subjectICU: sun,
                            oracleRelease: mon, subjectRelease: mon) == .subjectData)
    // libicu alone departs from one table both sides are held to (Chinese 1999-01: libicu
    // starts the month on the 18th, the table and Foundation on the 17th).
    #expect(Triage.classify(oracle: .int(1), subject: .int(0), subjectICU: .int(0),
                            oracleRelease: .int(0), subjectRelease: .int(0)) == .oracleDefect)
    // Both ICUs agree on Sunday, the releases say Monday, the subject says something else.
    #expect(Triage.classify(oracle: sun, subject: other, subjectICU: sun,
                            oracleRelease: mon, subjectRelease: mon) == .sharedDefect)
    // Everyone says Sunday but the subject.
    #expect(Triage.classify(oracle: sun, subject: mon, subjectICU: sun,
                            oracleRelease: sun, subjectRelease: sun) == .logicDefect)
    // The subject follows the system's zone files, which are not the release it claims
    // (Debian's backzone EET), where its own ICU follows the release.
    #expect(Triage.classify(Triage.Voices(
      subjectMatchesItsRelease: false, oracleMatchesItsRelease: true, subjectICUMatchesItsRelease: true,
      oracleAgreesWithSubjectICU: false, subjectAgreesWithSubjectICU: false, subjectMatchesOtherData: true))
      == .subjectData)
    // Foundation's ICU could not compute.
    #expect(Triage.classify(oracle: sun, subject: mon, subjectICU: nil,
                            oracleRelease: sun, subjectRelease: sun) == .unclassified)
  }

  func release(_ name: String, firstDay: [String: Int], names: [String: [String]]) -> ReferenceData.CLDRRelease {
    ReferenceData.CLDRRelease(release: name, source: "babel test (hand-written)", firstDay: firstDay,
                              firstDayByKeyword: [], narrowWeekdays: names)
  }

  @Test("a release without the locale gives no-reference, and says which release and why")
  func noReference() throws {
    let names = ["日", "一", "二", "三", "四", "五", "六"]
    let data = ReferenceData(
      cldr: ["42": release("42", firstDay: ["zh_CN": 2], names: ["zh_CN": names]),
             "46": release("46", firstDay: [:], names: ["zh_CN": names])],
      oracleCLDR: "42", foundationCLDR: "46")
    let id = try CaseID(parsing: "weekday-symbols|locale=zh_CN|calendar=gregorian|fw=own")
    let outcome = Outcome.comparing(expected: Self.mondayFirst, actual: Self.sundayFirst,
                                    pattern: "different first weekday", detail: [])
    let context = EvaluationContext(
      corpus: try smallCorpus(locales: ["zh_CN"], calendars: ["gregorian"], zones: ["UTC"], years: 2020...2020),
      subject: .pickerLogic)
    let (triage, detail, _) = data.triage(id, check: WeekdaySymbolsCheck(), outcome: outcome,
                                       subjectICU: Self.sundayFirst, context: context)
    #expect(triage == .noReference)
    #expect(detail.contains { $0.hasPrefix("reference CLDR 46 (babel test): no value (no babel locale of the region of 'zh_CN'") })
    // With the first day the release states, the same case is subject-data.
    var complete = data
    complete.cldr["46"]?.firstDay["zh_CN"] = 2
    #expect(complete.triage(id, check: WeekdaySymbolsCheck(), outcome: outcome,
                            subjectICU: Self.sundayFirst, context: context).triage == .subjectData)
  }

  /// Zone triage asks a case once per table (`ZoneTablesAlike`): a zone no release changed
  /// is one table, and a zone a release changed is two.
  @Test("the committed tz releases share one table for a zone they read alike, and keep apart one they do not")
  func sharedZoneTables() throws {
    let data = try #require(try ReferenceData.load(
      directory: corpora.appendingPathComponent("reference"), oracleCLDR: "42.0", foundationCLDR: "46.0"))
    let (older, newer) = (try #require(data.zones["2022e"]), try #require(data.zones["2025b"]))
    // Paris: EU rules since 1996, in every release.
    #expect(try older.table("Europe/Paris") === newer.table("Europe/Paris"))
    // Mexico City: Mexico abolished DST in October 2022, in tz 2022f.
    let before = try #require(try older.table("America/Mexico_City"))
    let after = try #require(try newer.table("America/Mexico_City"))
    #expect(before !== after)
    #expect(!before.answersAlike(after))
  }

  @Test("the committed CLDR reference states the releases' documented week data")
  func committedReference() throws {
    let data = try #require(try ReferenceData.load(
      directory: corpora.appendingPathComponent("reference"), oracleCLDR: "42.0", foundationCLDR: "46.0"))
    // supplementalData.xml weekData: AE under firstDay sat in release-42, under mon (001's)
    // from release-46; CN under none but 001 (Monday) in every release; US under sun.
    #expect(data.cldr["42"]?.firstDay["ar_AE"] == 7)
    #expect(data.cldr["46"]?.firstDay["ar_AE"] == 2)
    for release in ["42", "46", "49"] {
      #expect(data.cldr[release]?.firstDay["zh_CN"] == 2, "CLDR \(release)")
      #expect(data.cldr[release]?.firstDay["en_US"] == 1, "CLDR \(release)")
      // UTS #35: the fw keyword wins over the region.
      #expect(data.cldr[release]?.firstDay["de_DE@fw=sun"] == 1, "CLDR \(release)")
    }
    // Catalan's narrow Sunday gained its full stop in CLDR 46 (ca.xml, days, narrow).
    #expect(data.cldr["42"]?.narrowWeekdays["ca"]?.first == "dg")
    #expect(data.cldr["46"]?.narrowWeekdays["ca"]?.first == "dg.")
    #expect(data.newestCLDR?.release == "49")
  }

  @Test("a malformed reference row is refused with its file and line")
  func malformedReference() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("reference-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let folder = directory.appendingPathComponent("cldr/42")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("# source: test\n# release: CLDR 42\nzh_CN\tmonday\tregion\tzh\n".utf8)
      .write(to: folder.appendingPathComponent("first-day.tsv"))
    try Data("".utf8).write(to: folder.appendingPathComponent("narrow-weekdays.tsv"))
    #expect {
      _ = try ReferenceData.load(directory: directory, oracleCLDR: "42.0", foundationCLDR: "46.0")
    } throws: { error in
      (error as? InputError)?.message.hasSuffix("first-day.tsv:3: first day 'monday' is not sun … sat") == true
    }
  }
}

/// Waivers are claims: a fault is waived only by name, a contradicted claim waives nothing.
struct WaiverClaimTests {
  func waiver(pattern: String?, triage: Triage? = nil) -> Waiver {
    Waiver(id: "w", checks: [Glob("*")], match: [], pattern: pattern.map(Glob.init), triage: triage,
           reason: "test", link: "none", expires: nil, versions: [], location: "test")
  }

  func record(_ verdict: Outcome.Verdict, pattern: String, triage: Triage? = nil) throws -> CaseRecord {
    var record = CaseRecord(
      id: try CaseID(parsing: "leading-blanks|calendar=ethiopic-amete-alem|fw=1|zone=UTC|month=2022-01-09"),
      step: 0, outcome: Outcome(verdict: verdict, expected: .int(1), actual: .int(2), pattern: pattern))
    record.review.triage = triage
    return record
  }

  @Test("a crash is waived only by a waiver whose pattern names it")
  func faults() throws {
    let trap = try record(.errored, pattern: "trap (SIGILL) in Fault.inject(_:) at Fault.swift:46")
    #expect(waiver(pattern: "*").judge(trap) == .outside)
    #expect(waiver(pattern: nil).judge(trap) == .outside)
    #expect(waiver(pattern: "!missing cells").judge(trap) == .outside)
    #expect(waiver(pattern: "*trap (SIGILL) in Fault.inject*").judge(trap) == .waives)
    // A data failure is waived by the broad waiver as before.
    #expect(waiver(pattern: "*").judge(try record(.failed, pattern: "blank count off by 1")) == .waives)
  }

  @Test("a triage other than the claimed one contradicts the waiver")
  func claims() throws {
    let claim = waiver(pattern: "different first weekday*", triage: .oracleStale)
    #expect(claim.judge(try record(.failed, pattern: "different first weekday (libicu 2, given 1)",
                                   triage: .oracleStale)) == .waives)
    #expect(claim.judge(try record(.failed, pattern: "different first weekday (libicu 2, given 1)",
                                   triage: .subjectData)) == .contradicted)
    #expect(claim.judge(try record(.failed, pattern: "narrow symbols changed", triage: .subjectData)) == .outside)
  }

  @Test("a false waiver is reported contradicted, and its cases fail")
  func falseWaiverReported() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)")
    let file = out.appendingPathExtension("json")
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: file)
    }
    // The old reason: "CLDR 46 changed CN to Sunday". CLDR 46 did not (see ReferenceTriageTests).
    try Data("""
      {"schema": "conformance-waivers/1", "waivers": [{"id": "cn-sunday-in-cldr46",
       "check": "weekday-symbols", "match": {"fw": "own"}, "pattern": "different first weekday*",
       "triage": "oracle-stale", "reason": "CLDR 46 changed CN to Sunday", "link": "none"}]}
      """.utf8).write(to: file)
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["zh_CN", "ar_AE"])
    request.calendars = .list(["gregorian"])
    request.zones = .list(["UTC"])
    request.years = 2020...2020
    request.firstWeekdays = [.own]
    var options = RunOptions(request: request, out: out)
    options.checks = ["weekday-symbols"]
    options.waivers = file
    // Waivers judge oracle-stale cases only when those count as failures.
    options.oracleStale = .fail
    let result = try ConformanceRun.run(options, subject: .pickerLogic)
    let cases = Dictionary(uniqueKeysWithValues: try recordedCases(out).map { ($0.id.description, $0) })
    let zh = try #require(cases["weekday-symbols|locale=zh_CN|calendar=gregorian|fw=own"])
    #expect(zh.status == .failed && zh.review.contradicts == "cn-sunday-in-cldr46")
    #expect(zh.outcome.detail.contains { $0.contains("claims triage oracle-stale; its triage is subject-data") })
    // AE's difference is what the claim says: waived.
    #expect(cases["weekday-symbols|locale=ar_AE|calendar=gregorian|fw=own"]?.status == .waived)
    let review = try runRecord(out).run.review
    #expect(review.contradicted?.map(\.id) == ["cn-sunday-in-cldr46"])
    #expect(review.contradicted?.first?.why.hasPrefix("its claim does not hold for 1 case ") == true)
    #expect(result.status == .unexpected)
    // JUnit's failure message shows the reference beside the two ICUs.
    let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("reference CLDR 46 (babel 2.17.0): [&quot;一&quot;, &quot;二&quot;"))
    #expect(junit.contains("triage: subject-data"))
    #expect(junit.contains("waiver &apos;cn-sunday-in-cldr46&apos; matches this case but claims triage oracle-stale")
      || junit.contains("waiver 'cn-sunday-in-cldr46' matches this case but claims triage oracle-stale"))
    // The page without JavaScript names the contradicted waiver and why.
    let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(page.contains("<h2>Contradicted waivers</h2>\n<ul><li><code>cn-sunday-in-cldr46</code>: its claim does not hold for 1 case "))
    // Its top patterns name the waiver that took AE's case by id, linked to its reason,
    // written once below the table.
    #expect(page.contains("<td data-label=\"waiver\"><a href=\"#waiver-cn-sunday-in-cldr46\"><code>cn-sunday-in-cldr46</code></a></td>"))
    #expect(page.contains("<dt id=\"waiver-cn-sunday-in-cldr46\"><code>cn-sunday-in-cldr46</code></dt><dd>CLDR 46 changed CN to Sunday (none)</dd>"))
  }

  /// Unicode 15.0's Scripts.txt: U+0410 CYRILLIC CAPITAL LETTER A is Cyrillic, U+0041 Latin,
  /// U+2D49 TIFINAGH LETTER YI Tifinagh; digits and punctuation are Common (no script).
  @Test("letters' scripts from the committed Unicode table, and a locale's from CLDR")
  func letterScripts() throws {
    let reference = try #require(try smallCorpus(locales: ["sr_Cyrl_ME"], calendars: ["gregorian"],
                                                 zones: ["UTC"], years: 2020...2020).reference)
    let letters = try #require(reference.letterScripts)
    #expect(letters.scripts(of: "\u{410}\u{425}") == ["Cyrl"])
    #expect(letters.scripts(of: "AH") == ["Latn"])
    #expect(letters.scripts(of: "1989 \u{2D49}\u{2D4F}\u{2D4F} 8") == ["Tfng"])
    #expect(letters.scripts(of: "08/01/1989") == [])
    // UTS #35: a script subtag names the script; shi without one is likely shi_Tfng_MA.
    for release in ["42", "46", "49"] {
      #expect(reference.cldr[release]?.scripts["sr_Cyrl_ME"] == "Cyrl")
      #expect(reference.cldr[release]?.scripts["shi_Latn"] == "Latn")
      #expect(reference.cldr[release]?.scripts["shi"] == "Tfng")
      #expect(reference.cldr[release]?.scripts["ja"] == "Jpan")
    }
    #expect(LetterScripts.admitted(by: "Jpan") == ["Hani", "Hira", "Kana"])
  }

  /// shi_Latn's medium dates: libicu (CLDR 42) writes "8 inn, 1989", Foundation's ICU
  /// (CLDR 46, ISO 8601 calendar) "1989 inn 8"; the subject wrote the month in Tifinagh.
  @Test("a subject that writes another script than its locale's and both ICUs is a logic defect by the reference; a data difference in one script is not judged")
  func scriptTriage() throws {
    let reference = try #require(try smallCorpus(locales: ["shi_Latn"], calendars: ["gregorian"],
                                                 zones: ["UTC"], years: 2020...2020).reference)
    let id = try CaseID(parsing: "date-text|locale=shi_Latn|calendar=iso8601|variant=header")
    func judge(_ expected: String, _ actual: String, _ subjectICU: String) -> Triage? {
      let outcome = Outcome.comparing(expected: .strings([expected]), actual: .strings([actual]),
                                      pattern: "header: text differs")
      return reference.scriptTriage(id, outcome: outcome, subjectICU: .strings([subjectICU]))?.triage
    }
    #expect(judge("8 inn, 1989", "1989 \u{2D49}\u{2D4F}\u{2D4F} 8", "1989 inn 8") == .logicDefect)
    // Every side in Latin letters: the script says nothing; two voices decide.
    #expect(judge("8 inn, 1989", "1989 inn 8", "1989 inn 8") == nil)
    // Foundation's ICU in Tifinagh too: not the subject's alone.
    #expect(judge("8 inn, 1989", "1989 \u{2D49}\u{2D4F}\u{2D4F} 8", "1989 \u{2D49}\u{2D4F}\u{2D4F} 8") == nil)
    // Digits only: no letter in another script.
    #expect(judge("8 inn, 1989", "08/01/1989", "8 inn, 1989") == nil)
  }
}
