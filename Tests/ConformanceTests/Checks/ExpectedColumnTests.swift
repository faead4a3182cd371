@testable import Conformance
import Foundation
import ICUOracle
import PickerLogic
import Testing

/// Each check's expected column is the answer a person using the picker needs, in local dates
/// (Documentation/Design.md, "Checks"), worked out here by hand from public facts, never from
/// the harness's output:
/// - Brazil's DST began at 00:00 on 2018-11-04 (America/Sao_Paulo: the 4th starts at 01:00 −02,
///   23 hours long); 1 November 2018 was a Thursday.
/// - Nepal moved from +05:30 to +05:45 at 00:00 on 1986-01-01 (Asia/Kathmandu: the 1st starts
///   at 00:15, 23 h 45 min long).
/// - Cuba's DST ended at 01:00 on 2020-11-01, back to 00:00 (America/Havana: two midnights,
///   00:00 −04 and 00:00 −05, both 1 November).
/// - Samoa skipped 2011-12-30 (Pacific/Apia: 29 December 23:59:59 −10 is followed by 31
///   December 00:00 +14); 1 December 2011 was a Thursday, 25 December a Sunday.
@Suite("The expected column is the user's answer")
struct ExpectedColumnTests {
  func outcome(_ text: String, zones: [String] = ["UTC"], calendars: [String] = ["gregorian"],
               locales: [String] = ["en_US"], years: ClosedRange<Int>,
               subject: Subject = .pickerLogic) throws -> Outcome {
    let corpus = try smallCorpus(locales: locales, calendars: calendars, zones: zones, years: years)
    let id = try CaseID(parsing: text)
    let check = try #require(CheckCatalog.check(id.check))
    let context = EvaluationContext(corpus: corpus, subject: subject)
    context.recordsValues = true
    return context.outcome(of: id, check: check)
  }

  /// The oracle's full values as strings (`--record all`), for lists of strings.
  func oracleStrings(_ outcome: Outcome) -> [String] {
    guard case .list(let items)? = outcome.values?.oracle else { return [] }
    return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
  }

  /// The oracle's full values as lists of strings (pairs with their verdicts).
  func oracleRows(_ outcome: Outcome) -> [[String]] {
    guard case .list(let items)? = outcome.values?.oracle else { return [] }
    return items.compactMap { item in
      guard case .list(let parts) = item else { return nil }
      return parts.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
  }

  /// A picker that counts nights as the dates between the two days, in the calendar's zone.
  static let countsDates: Subject = {
    var subject = Subject.pickerLogic
    subject.name = "counts dates"
    subject.nights = .init { start, end, calendar in
      func day(_ date: Date) -> LocalDay {
        let parts = calendar.dateComponents(in: calendar.timeZone, from: date)
        return LocalDay(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
      }
      return Int(day(end).julianDay - day(start).julianDay)
    }
    return subject
  }()

  @Test("stay-nights: one night from Sao Paulo's 23-hour 4 November to the 5th; the seed says 0")
  func nightsAcrossAShortDay() throws {
    let text = "stay-nights|calendar=gregorian|zone=America/Sao_Paulo|month=2018-11-01"
    let seed = try outcome(text, zones: ["America/Sao_Paulo"], years: 2018...2018)
    let expected = oracleStrings(seed)
    #expect(expected.contains("2018-11-04 → 2018-11-05: 1"), "\(expected)")
    #expect(expected.contains("2018-11-03 → 2018-11-05: 2"), "\(expected)")
    #expect(expected.contains("2018-11-01 → 2018-11-30: 29"), "\(expected)")
    #expect(seed.verdict == .failed)
    #expect(seed.pattern.hasPrefix("fewer nights than dates across"), "\(seed.pattern)")
    #expect(seed.actual.description.contains("2018-11-04 → 2018-11-05: 0"), "\(seed.actual)")
    // A picker that counts dates is right.
    let dates = try outcome(text, zones: ["America/Sao_Paulo"], years: 2018...2018, subject: Self.countsDates)
    #expect(dates.verdict == .passed, "\(dates.actual)")
  }

  @Test("stay-nights: Kathmandu's January 1986 holds 30 nights from the 1st to the 31st; the seed says 29")
  func nightsInAMonthThatStartsLate() throws {
    let text = "stay-nights|calendar=gregorian|zone=Asia/Kathmandu|month=1986-01-01"
    let seed = try outcome(text, zones: ["Asia/Kathmandu"], years: 1986...1986)
    #expect(oracleStrings(seed).contains("1986-01-01 → 1986-01-31: 30"), "\(oracleStrings(seed))")
    #expect(seed.actual.description.contains("1986-01-01 → 1986-01-31: 29"), "\(seed.actual)")
    #expect(seed.verdict == .failed)
    let dates = try outcome(text, zones: ["Asia/Kathmandu"], years: 1986...1986, subject: Self.countsDates)
    #expect(dates.verdict == .passed, "\(dates.actual)")
  }

  @Test("stay-nights: Apia's 29 to 31 December 2011 is one night, the 30th never came")
  func nightsAcrossASkippedDate() throws {
    let seed = try outcome("stay-nights|calendar=gregorian|zone=Pacific/Apia|month=2011-12-01",
                           zones: ["Pacific/Apia"], years: 2011...2011)
    let expected = oracleStrings(seed)
    #expect(expected.contains("2011-12-29 → 2011-12-31: 1"), "\(expected)")
    // 31 days, one skipped: 29 nights from the 1st to the 31st.
    #expect(expected.contains("2011-12-01 → 2011-12-31: 29"), "\(expected)")
  }

  @Test("leading-blanks: November 2018 begins on a Thursday, in Sao Paulo too: 4 blanks from Sunday, 3 from Monday")
  func blanks() throws {
    for (weekday, blanks) in [(1, 4), (2, 3), (5, 0), (6, 6)] {
      let result = try outcome("leading-blanks|calendar=gregorian|fw=\(weekday)|zone=America/Sao_Paulo|month=2018-11-01",
                               zones: ["America/Sao_Paulo"], years: 2018...2018)
      #expect(result.expected == .int(blanks), "fw \(weekday)")
    }
  }

  @Test("weekday-symbols: de_DE's week starts on Monday (CLDR week data for DE)")
  func symbols() throws {
    let result = try outcome("weekday-symbols|locale=de_DE|calendar=gregorian|fw=own",
                             locales: ["de_DE"], years: 2020...2020)
    #expect(result.expected == .strings(["M", "D", "M", "D", "F", "S", "S"]))
  }

  @Test("same-day-closing: Havana's two midnights of 1 November 2020 are one date: the picker stays open")
  func closingAcrossARepeatedMidnight() throws {
    var alwaysCloses = Subject.pickerLogic
    alwaysCloses.closes = .init { old, new, _ in old != new }
    let result = try outcome("same-day-closing|calendar=gregorian|zone=America/Havana|month=2020-11-01",
                             zones: ["America/Havana"], years: 2020...2020, subject: alwaysCloses)
    let pair = oracleRows(result).first {
      $0.prefix(2) == ["2020-11-01T00:00:00-04:00", "2020-11-01T00:00:00-05:00"]
    }
    #expect(pair?.last == "stays open", "\(String(describing: pair))")
    // One second before the first midnight is 31 October: another date.
    let across = oracleRows(result).first {
      $0.prefix(2) == ["2020-10-31T23:59:59-04:00", "2020-11-01T00:00:00-04:00"]
    }
    #expect(across?.last == "closes", "\(String(describing: across))")
    #expect(result.verdict == .failed)
  }

  @Test("range-roles: a range from 2 to 4 November 2018 in Sao Paulo ends on the 4th, which starts at 01:00")
  func rolesAcrossASkippedMidnight() throws {
    var tapsByTheHour = Subject.pickerLogic
    tapsByTheHour.role = .init { _, _, _ in .outside }
    let result = try outcome("range-roles|calendar=gregorian|zone=America/Sao_Paulo|month=2018-11-01|variant=range",
                             zones: ["America/Sao_Paulo"], years: 2018...2018, subject: tapsByTheHour)
    // The scenario taps the days either side of the transition's: the 2nd and the 4th.
    #expect(result.detail.first?.hasPrefix("taps on 2018-11-02, 2018-11-04") == true, "\(result.detail)")
    let roles = oracleStrings(result)
    #expect(roles.contains("2018-11-01: outside") && roles.contains("2018-11-02: start")
      && roles.contains("2018-11-03: middle") && roles.contains("2018-11-04: end")
      && roles.contains("2018-11-05: outside"), "\(roles)")
  }

  @Test("month-days: a cell at noon names its date as well as one at midnight; a missing 30th is missing")
  func daysByDate() throws {
    var noon = Subject.pickerLogic
    noon.days = .init { month, calendar in
      CalendarRangeSelectorLogic.days(inMonthOf: month, calendar: calendar).map { $0.addingTimeInterval(12 * 3600) }
    }
    let text = "month-days|calendar=gregorian|zone=America/Havana|month=2020-11-01"
    let result = try outcome(text, zones: ["America/Havana"], years: 2020...2020, subject: noon)
    // November has 30 dates, each of them a day in Havana.
    #expect(oracleStrings(result) == (1...30).map { String(format: "2020-11-%02d", $0) })
    #expect(result.verdict == .passed, "\(result.actual)")
    var short = Subject.pickerLogic
    short.days = .init { month, calendar in
      Array(CalendarRangeSelectorLogic.days(inMonthOf: month, calendar: calendar).dropLast())
    }
    let missing = try outcome(text, zones: ["America/Havana"], years: 2020...2020, subject: short)
    #expect(missing.verdict == .failed)
    #expect(missing.pattern == "missing cells")
  }

  /// A picker that lays Apia's December by date: a cell for each date that exists.
  static let skipsTheThirtieth: Subject = {
    var subject = Subject.pickerLogic
    subject.name = "cells by date"
    subject.days = .init { month, calendar in
      guard let range = calendar.range(of: .day, in: .month, for: month) else { return [] }
      var parts = calendar.dateComponents([.era, .year, .month], from: month)
      return range.compactMap { day -> Date? in
        parts.day = day
        parts.hour = 12
        guard let noon = calendar.date(from: parts), calendar.component(.day, from: noon) == day else { return nil }
        return calendar.startOfDay(for: noon)
      }
    }
    return subject
  }()

  @Test("month-grid: Apia's December 2011 has an empty cell for the 30th; a picker that lays days by date passes", arguments: 1...7)
  func gridAcrossASkippedDate(firstWeekday: Int) throws {
    let text = "month-grid|calendar=gregorian|fw=\(firstWeekday)|zone=Pacific/Apia|month=2011-12-01"
    let byDate = try outcome(text, zones: ["Pacific/Apia"], years: 2011...2011, subject: Self.skipsTheThirtieth)
    #expect(byDate.verdict == .passed, "\(byDate.actual)")
    if firstWeekday == 1 {
      // Thursday the 1st after four blanks; the 25th a Sunday, the 30th's Friday empty.
      guard case .list(let rows)? = byDate.values?.oracle else { Issue.record("no rows"); return }
      #expect(rows.first == .string("· · · · 1 2 3"))
      #expect(rows.last == .string("25 26 27 28 29 · 31"))
    }
    // The seed's cells run on to 1 January 2012: a cell of another day.
    let seed = try outcome(text, zones: ["Pacific/Apia"], years: 2011...2011)
    #expect(seed.verdict == .failed)
    #expect(seed.pattern == "a cell of another day")
  }

  @Test("month-paging: the month after Apia's November 2011 is December, though its 30th never came")
  func pagingOntoASkippedDate() throws {
    let result = try outcome("month-paging|calendar=gregorian|zone=Pacific/Apia|month=2011-11-01",
                             zones: ["Pacific/Apia"], years: 2011...2011)
    let landings = oracleStrings(result)
    #expect(landings.contains("+1 from last day: era 1 year 2011 month 12"), "\(landings)")
    #expect(landings.contains("-1 from first instant: era 1 year 2011 month 10"), "\(landings)")
  }

  @Test("return-clamp: a return at Havana's first midnight stays on 1 November when the departure is at the second")
  func clampOnOneDate() throws {
    let result = try outcome("return-clamp|zone=America/Havana|month=2020-11-01",
                             zones: ["America/Havana"], years: 2020...2020)
    let pair = oracleRows(result).first {
      $0.prefix(2) == ["2020-11-01T00:00:00-05:00", "2020-11-01T00:00:00-04:00"]
    }
    #expect(pair?.last == "return on 2020-11-01", "\(String(describing: pair))")
    // A return a second before 1 November follows a departure on the 1st.
    let later = oracleRows(result).first {
      $0.prefix(2) == ["2020-11-01T00:00:00-04:00", "2020-10-31T23:59:59-04:00"]
    }
    #expect(later?.last == "return on 2020-11-01", "\(String(describing: later))")
  }

  @Test("date-text: a yyyy-MM-dd field means the ISO date, also in th_TH's Buddhist calendar; a day label is in the locale's digits")
  func texts() throws {
    let field = try outcome("date-text|locale=th_TH|calendar=buddhist|variant=field-iso8601",
                            calendars: ["buddhist"], locales: ["th_TH"], years: 2020...2026)
    #expect(field.expected == .strings(["1989-01-08", "1995-09-25", "2019-05-01", "2024-12-30", "2026-03-21"]))
    // The seed writes the Buddhist year (Gregorian + 543): 2532-01-08.
    #expect(field.actual.description.contains("2532-01-08"), "\(field.actual)")
    // ar_EG numbers with Arabic-Indic digits (CLDR: defaultNumberingSystem arab): 8 is U+0668.
    let label = try outcome("date-text|locale=ar_EG|calendar=gregorian|variant=day-label",
                            locales: ["ar_EG"], years: 2020...2026)
    #expect(label.expected.description.contains("\u{0668}"), "\(label.expected)")
    // The seed's own-calendar `yyyy-MM-dd` is no longer an expectation of its own.
    #expect(!DateTextCheck().variants.contains("field") && !DateTextCheck().variants.contains("field-cycle"))
  }

  @Test("a team's text may give some kinds only: the others' cases are skipped saying so, the given ones judged")
  func textByKind() throws {
    var mine = SubjectFunctions(name: "MyPicker")
    // The day cell's label, in the locale's digits: what date-text expects of it.
    mine.text = { _, date, calendar, locale in
      let formatter = NumberFormatter()
      formatter.locale = locale
      return formatter.string(from: NSNumber(value: calendar.component(.day, from: date))) ?? ""
    }
    mine.textKinds = [.dayLabel]
    // field-roundtrip reads its field back too: with a reader, only the missing kind skips it.
    mine.fieldDate = { _, _, _ in nil }
    let label = try outcome("date-text|locale=en_US|calendar=gregorian|variant=day-label", years: 2020...2026,
                            subject: mine.subject)
    #expect(label.verdict == .passed, "\(label.pattern) \(label.detail)")
    let title = try outcome("date-text|locale=en_US|calendar=gregorian|variant=month-title", years: 2020...2026,
                            subject: mine.subject)
    #expect(title.verdict == .skipped)
    #expect(title.detail == ["the subject MyPicker gives no 'month-title' text (its text kinds: day-label)"])
    let field = try outcome("field-roundtrip|calendar=gregorian|zone=UTC|month=2020-11-01|variant=same-formatter",
                            years: 2020...2020, subject: mine.subject)
    #expect(field.verdict == .skipped && field.detail.first?.contains("no 'field' text") == true, "\(field.detail)")
    // Without textKinds, every kind is asked (the title is then judged, and fails).
    mine.textKinds = nil
    let asked = try outcome("date-text|locale=en_US|calendar=gregorian|variant=month-title", years: 2020...2026,
                            subject: mine.subject)
    #expect(asked.verdict == .failed)
  }

  @Test("field-roundtrip: Havana's 1 November read back at its second midnight is still 1 November; Sao Paulo's 4th reads back as nothing")
  func fieldReadBack() throws {
    let havana = try outcome("field-roundtrip|calendar=gregorian|zone=America/Havana|month=2020-11-01|variant=same-formatter",
                             zones: ["America/Havana"], years: 2020...2020)
    #expect(havana.expected == .list([.string("2020-11-01: 2020-11-01")]))
    #expect(havana.verdict == .passed, "\(havana.actual)")
    let saoPaulo = try outcome("field-roundtrip|calendar=gregorian|zone=America/Sao_Paulo|month=2018-11-01|variant=same-formatter",
                               zones: ["America/Sao_Paulo"], years: 2018...2018)
    #expect(saoPaulo.expected == .list([.string("2018-11-01: 2018-11-01"), .string("2018-11-04: 2018-11-04")]))
    #expect(saoPaulo.actual == .list([.string("2018-11-01: 2018-11-01"), .string("2018-11-04: nothing")]))
    #expect(saoPaulo.pattern == "the field does not read back: the day has no midnight")
  }

  @Test("disclosure: seed 000's row closes on a pick of the next day only")
  func disclosure() throws {
    let result = try outcome("disclosure|calendar=gregorian|variant=000-inline-calendar", years: 2026...2026)
    // Collapsed; a tap opens it; a pick 3 hours later is 21 March still; the 22nd closes it; a tap.
    #expect(result.expected == .strings([
      "collapsed · Mar 21, 2026", "expanded · Mar 21, 2026", "expanded · Mar 21, 2026",
      "collapsed · Mar 22, 2026", "expanded · Mar 22, 2026",
    ]))
  }

  @Test("calendar-invariants: a team's days are judged, never Foundation's reading of the month")
  func invariantsJudgeTheTeam() throws {
    var mine = SubjectFunctions(name: "MyPicker")
    mine.days = { month, calendar in CalendarRangeSelectorLogic.days(inMonthOf: month, calendar: calendar) }
    let good = try outcome("calendar-invariants|calendar=gregorian|variant=year-2021", years: 2021...2021,
                           subject: mine.subject)
    #expect(good.expected == .string("invariants hold") && good.verdict == .passed)
    var short = SubjectFunctions(name: "MyPicker")
    short.days = { month, calendar in Array(CalendarRangeSelectorLogic.days(inMonthOf: month, calendar: calendar).dropLast()) }
    let result = try outcome("calendar-invariants|calendar=gregorian|variant=year-2021", years: 2021...2021,
                             subject: short.subject)
    // January 2021 has 31 days.
    #expect(result.actual.description.contains("30 cells for 31 days"), "\(result.actual)")
    #expect(result.pattern == "cell count is not the month's length")
    // Foundation has no bangla month interval (a Foundation defect, waived for the seeds'
    // logic): there is nothing to ask a team's subject, so its case is skipped, not failed.
    let bangla = try outcome("calendar-invariants|calendar=bangla|variant=year-2021", calendars: ["bangla"],
                             years: 2021...2021, subject: mine.subject)
    #expect(bangla.verdict == .skipped, "\(bangla.pattern)")
    let seed = try outcome("calendar-invariants|calendar=bangla|variant=year-2021", calendars: ["bangla"],
                           years: 2021...2021)
    #expect(seed.verdict == .failed)
  }
}

/// Documentation/ExecutorProtocol.md states each function's expected answer with worked
/// examples: each example's answer line is what `conformance executor --contract` writes for
/// its question line, so the document and the rules it shows cannot drift apart.
@Suite("The executor protocol's examples")
struct ContractExamplesTests {
  @Test("every question in ExecutorProtocol.md gets the answer it shows from the contract's executor")
  func examples() throws {
    let document = corpora.deletingLastPathComponent().appendingPathComponent("Documentation/ExecutorProtocol.md")
    let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("{\"id\":") }
    var answers: [Int: String] = [:]
    var questions: [(id: Int, line: String)] = []
    for line in lines {
      let id = try #require(Int(line.dropFirst(6).prefix { $0.isNumber }))
      if line.contains("\"function\":") { questions.append((id, line)) } else { answers[id] = line }
    }
    #expect(questions.count >= 30)
    // The answers that state the contract's rules, worked out by hand from the tz facts at
    // the top of this file, so the document is held to the facts and not only to the code.
    func instant(_ text: String) -> String { String(Int(try! Date(text, strategy: .iso8601).timeIntervalSince1970)) }
    // Apia's December 2011: 30 cells, the 29th at 00:00 −10, then the 31st at 00:00 +14.
    let apia = answers[19] ?? ""
    #expect(apia.drop { $0 != "[" }.split(separator: ",").count == 30, "\(apia)")
    #expect(apia.hasSuffix("\(instant("2011-12-29T10:00:00Z")),\(instant("2011-12-30T10:00:00Z"))]}"), "\(apia)")
    #expect(answers[25] == #"{"id":25,"answer":1}"#)  // Sao Paulo 4 → 5 November 2018: one date
    #expect(answers[26] == #"{"id":26,"answer":30}"#)  // Kathmandu 1 → 31 January 1986: 30 dates
    #expect(answers[45] == #"{"id":45,"answer":\#(instant("2018-11-04T03:00:00Z"))}"#)  // 01:00 −02
    #expect(answers[47] == #"{"id":47,"answer":\#(instant("2020-11-01T04:00:00Z"))}"#)  // the first midnight, −04

    var server = ExecutorServer.Server(subject: .contract)
    for (id, question) in questions {
      // The error example asks without a member the harness always sends.
      guard let shown = answers[id] else { continue }
      let answer = server.answer(ArraySlice(question.utf8)).map { String(decoding: $0, as: UTF8.self) }
      #expect(answer == shown, "id \(id)")
    }
  }
}
