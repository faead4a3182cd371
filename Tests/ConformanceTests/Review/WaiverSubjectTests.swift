@testable import Conformance
import Foundation
import ICUOracle
import PickerLogic
import Testing

/// A waiver is about some subjects: one that explains the seeds' algorithms never waives a
/// team's case of the same pattern, whose cause is the team's own code (issue 47).
@Suite("Waivers scoped by subject")
struct WaiverSubjectTests {
  /// The shipped waivers.
  func shipped() throws -> [Waiver] {
    try WaiverFile.load(corpora.appendingPathComponent(Corpus.Files.waivers))
  }

  /// The case evaluated for `subject` and reviewed with the shipped waivers, as a run does.
  func reviewed(_ text: String, subject: Subject, zones: [String], years: ClosedRange<Int>) throws -> CaseRecord {
    let corpus = try smallCorpus(locales: ["en_US"], calendars: ["gregorian"], zones: zones, years: years)
    let id = try CaseID(parsing: text)
    let check = try #require(CheckCatalog.check(id.check))
    let review = try Review.ofRun(subject, waivers: try shipped(), baseline: nil).review
    return CaseEvaluator(corpus: corpus, subject: subject, review: review).reviewed(id, check: check)
  }

  @Test("the seeds' 24-hour nights are waived for the seeds and not for a team whose code counts the same way")
  func seedWaiverIsNotTheTeams() throws {
    let text = "stay-nights|calendar=gregorian|zone=America/Sao_Paulo|month=2018-11-01"
    let seed = try reviewed(text, subject: .pickerLogic, zones: ["America/Sao_Paulo"], years: 2018...2018)
    #expect(seed.outcome.verdict == .failed)
    #expect(seed.review.waiver == "seed-nights-count-24-hour-steps")
    // A team's nights with the same arithmetic: the same failure, its own.
    var mine = SubjectFunctions(name: "MyPicker")
    mine.nights = { start, end, calendar in calendar.dateComponents([.day], from: start, to: end).day ?? 0 }
    let team = try reviewed(text, subject: mine.subject, zones: ["America/Sao_Paulo"], years: 2018...2018)
    #expect(team.outcome.pattern == seed.outcome.pattern)
    #expect(team.review.waiver == nil)
    #expect(team.status == .failed)
  }

  @Test("who shares what: the seeds' logic all, a team's functions and the contract Foundation's, an executor what it says")
  func shares() throws {
    #expect(Subject.pickerLogic.shares == [.seeds, .foundation, .any])
    #expect(SubjectFunctions(name: "MyPicker").subject.shares == [.foundation, .any])
    #expect(Subject.contract.shares == [.foundation, .any])
    func hello(_ text: String) throws -> ExecutorWire.Hello {
      try ExecutorWire.Hello(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }
    #expect(try hello(#"{"name":"py","functions":["days"]}"#).shares == [])
    #expect(try hello(#"{"name":"py","functions":["days"],"shares":["foundation"]}"#).shares == [.foundation])
    #expect {
      _ = try hello(#"{"name":"py","functions":["days"],"shares":["any"]}"#)
    } throws: { error in
      (error as? InputError)?.message == "its answer to hello shares 'any', not one of seeds, foundation"
    }
  }

  @Test("a team's run lists the waivers about other subjects, not as stale")
  func otherSubjectsListed() throws {
    let review = Review(waivers: try shipped(), about: SubjectFunctions(name: "MyPicker").subject,
                        baseline: nil, versions: try RunVersions.current(), today: .today)
    let others = Set(review.otherSubjects.map(\.waiver.id))
    #expect(others.contains("seed-nights-count-24-hour-steps") && others.contains("foundation-paging-onto-skipped-day"))
    #expect(!others.contains("cldr46-date-texts"))
    #expect(review.otherSubjects.first?.reason == "about the seeds' logic, not MyPicker")
    #expect(!review.inactive.contains { others.contains($0.waiver.id) })
  }

  @Test("every shipped waiver names its subjects, and a wrong one is refused with its entry")
  func shippedNameTheirSubjects() throws {
    let data = try Data(contentsOf: corpora.appendingPathComponent(Corpus.Files.waivers))
    let file = try JSONDecoder().decode(JSONValue.self, from: data)
    guard case .array(let entries)? = file.members?["waivers"] else { Issue.record("no waivers"); return }
    let unnamed = entries.compactMap { entry -> String? in
      entry.members?["subjects"] == nil ? entry.members?["id"]?.text ?? "?" : nil
    }
    #expect(unnamed.isEmpty, "\(unnamed)")
    let text = #"{"schema": "conformance-waivers/1", "waivers": [{"id": "x", "subjects": "teams", "check": "stay-nights", "reason": "r", "link": "l"}]}"#
    #expect {
      _ = try WaiverFile.parse(Data(text.utf8), name: "w.json")
    } throws: { error in
      (error as? InputError)?.message == "w.json waiver 1 (x): subjects 'teams' is not one of seeds, foundation, any"
    }
  }
}

/// Every surface names the run's subject: a team's value is never labelled Foundation's
/// (issue 47, item 3).
@Suite("Surfaces name the run's subject")
struct SubjectLabelTests {
  @Test("a team's failing case reads [MyPicker] in JUnit, the page's data and results.json, and its footer names it")
  func teamLabels() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US"])
    request.calendars = .list(["gregorian"])
    request.zones = .list(["UTC"])
    request.years = 2021...2021
    request.firstWeekdays = [.fixed(1)]
    var options = RunOptions(request: request, out: out)
    options.checks = ["leading-blanks"]
    options.jobs = 2
    // One too many blanks in March 2021 (1 March 2021 was a Monday: 1 blank from Sunday).
    var mine = SubjectFunctions(name: "MyPicker")
    mine.leadingBlanks = { month, calendar in
      let blanks = CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: month, calendar: calendar)
      return calendar.component(.month, from: month) == 3 ? blanks + 1 : blanks
    }
    let result = try ConformanceRun.run(options, subject: mine.subject)
    #expect(result.status == .unexpected)
    let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("actual:   2   [MyPicker]"), "\(junit)")
    #expect(!junit.contains("[Foundation]"))
    let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(page.contains(#""subjectSide":"MyPicker""#))
    // The month the harness asks about is read by its own Foundation Calendar, not MyPicker's.
    #expect(page.contains("libicu: era 1 year 2021 month 3; the harness's Foundation Calendar: era 1 year 2021 month 3"))
    #expect(!page.contains("; Foundation: "))
    let record = try runRecord(out)
    #expect(record.run.versions.subjectFunctions == "MyPicker")
    #expect(record.run.versions.summary.hasPrefix("subject: MyPicker, a team's functions on Foundation"))
  }
}
