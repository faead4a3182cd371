import Conformance
import Foundation
import ICUOracle
import PickerLogic
import Testing

@Suite("The engine catches wrong subjects")
struct EngineTests {
  @Test("blanks that ignore firstWeekday fail leading-blanks for every first weekday but Sunday")
  func blanksIgnoringFirstWeekday() throws {
    let corpus = try smallCorpus(zones: ["UTC"])
    var mutant = Subject.pickerLogic
    mutant.name = "blanks ignore firstWeekday"
    mutant.leadingBlanks = .init { month, calendar in
      guard let first = calendar.dateInterval(of: .month, for: month)?.start else { return 0 }
      return calendar.component(.weekday, from: first) - 1
    }
    let tally = sweep(corpus, checks: ["leading-blanks"], subject: mutant)
    let failing = tally.problems.filter { $0.status == .failed }
    #expect(!failing.isEmpty)
    // With firstWeekday 1 the mutant computes the right thing: it must never fail there.
    #expect(failing.allSatisfy { $0.id.firstWeekday != FirstWeekdaySetting.fixed(1) })
    #expect(Set(failing.compactMap { $0.id.firstWeekday }) == Set((2...7).map { FirstWeekdaySetting.fixed($0) }))
  }

  @Test("symbols that are not rotated fail weekday-symbols exactly where the first day is not Sunday")
  func symbolsNotRotated() throws {
    let corpus = try smallCorpus(calendars: ["gregorian"])
    var mutant = Subject.pickerLogic
    mutant.weekdaySymbols = .init { $0.veryShortStandaloneWeekdaySymbols }
    let tally = sweep(corpus, checks: ["weekday-symbols"], subject: mutant)
    let failing = Set(tally.problems.map(\.id.description))
    // en_US's own first day is Sunday (1): own and 1 pass; every other setting is rotated.
    #expect(!failing.contains("weekday-symbols|locale=en_US|calendar=gregorian|fw=own"))
    #expect(!failing.contains("weekday-symbols|locale=en_US|calendar=gregorian|fw=1"))
    #expect(failing.contains("weekday-symbols|locale=de_DE|calendar=gregorian|fw=own"))
    #expect(failing.contains("weekday-symbols|locale=en_US|calendar=gregorian|fw=3"))
    #expect(tally.totals.failed == 2 * 6 + 1)  // fw 2…7 in both locales, plus de_DE's own
  }

  @Test("closes comparing 24-hour windows fails same-day-closing around the skipped midnight")
  func closesBy24Hours() throws {
    let corpus = try smallCorpus(calendars: ["gregorian"], zones: ["Asia/Tehran"], years: 2021...2021)
    var mutant = Subject.pickerLogic
    mutant.closes = .init { old, new, _ in abs(new.timeIntervalSince(old)) >= 86_400 }
    let tally = sweep(corpus, checks: ["same-day-closing"], subject: mutant)
    #expect(tally.totals.failed > 0)
  }

  @Test("role without startOfDay fails range-roles")
  func roleWithoutStartOfDay() throws {
    let corpus = try smallCorpus(calendars: ["gregorian"], zones: ["UTC"], years: 2021...2021)
    var mutant = Subject.pickerLogic
    mutant.role = .init { day, selection, _ in
      guard let start = selection.start else { return .outside }
      guard let end = selection.end, end != start else { return day == start ? .single : .outside }
      if day == min(start, end) { return .start }
      if day == max(start, end) { return .end }
      return day > min(start, end) && day < max(start, end) ? .middle : .outside
    }
    let tally = sweep(corpus, checks: ["range-roles"], subject: mutant)
    #expect(tally.totals.failed > 0)
  }

  @Test("the real subject agrees with libicu on plain Gregorian months in UTC")
  func realSubjectClean() throws {
    let corpus = try smallCorpus(locales: ["en_US", "de_DE", "fa_IR"], calendars: ["gregorian"],
                                 zones: ["UTC"])
    let tally = sweep(corpus, checks: ["leading-blanks", "weekday-symbols", "range-roles",
                                       "same-day-closing"])
    // weekday-symbols 3 locales × 8 settings; leading-blanks 36 months × 7; range-roles the
    // January control months of 3 years × 5 scenarios; same-day-closing those 3 months.
    #expect(tally.totals.total == 3 * 8 + 36 * 7 + 3 * 5 + 3)
    #expect(tally.problems.map(\.id.description) == [])
  }

  @Test("a failure names its inputs and both values")
  func failureCarriesCoordinates() throws {
    let corpus = try smallCorpus(locales: ["zh_CN"], calendars: ["gregorian"], zones: ["UTC"])
    let tally = sweep(corpus, checks: ["weekday-symbols"])
    // zh_CN: CLDR 42 (libicu 72) starts the week on Monday, CLDR 46 (Foundation) on Sunday.
    let failure = try #require(tally.problems.first)
    #expect(failure.id.description == "weekday-symbols|locale=zh_CN|calendar=gregorian|fw=own")
    #expect(failure.outcome.expected == .strings(["一", "二", "三", "四", "五", "六", "日"]))
    #expect(failure.outcome.actual == .strings(["日", "一", "二", "三", "四", "五", "六"]))
    #expect(failure.outcome.pattern.hasPrefix("different first weekday"))
  }
}

@Suite("The plan enumerates only what a check depends on")
struct PlanTests {
  @Test("symbols are not swept over zones, blanks not over locales")
  func dimensions() throws {
    let corpus = try smallCorpus()
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let coverage = Dictionary(uniqueKeysWithValues: plan.coverage.map { ($0.check, $0) })
    #expect(coverage["weekday-symbols"]?.zones == 0)
    #expect(coverage["weekday-symbols"]?.cases == 2 * 2 * 8)
    #expect(coverage["leading-blanks"]?.locales == 0)
    #expect(coverage["leading-blanks"]?.firstWeekdays == 7)
    // UTC has no transitions: every month of 2020…2022 (36 Gregorian months) is swept there.
    let utcGregorian = plan.steps.first {
      $0.group.check == "leading-blanks" && $0.group.zone == "UTC" && $0.group.calendar == "gregorian"
    }
    #expect(utcGregorian?.months.count == 36)
    #expect(utcGregorian?.caseCount == 36 * 7)
  }

  @Test("Tehran's months are the ones with its transitions")
  func transitionMonths() throws {
    let corpus = try smallCorpus(calendars: ["gregorian"], zones: ["Asia/Tehran"])
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all.filter { $0.id == "range-roles" })
    let months = try #require(plan.steps.first?.months)
    // Iran's DST started on 1 Farvardin (March 21/22) and ended on 30 Shahrivar (Sept 21/22).
    #expect(months.map(\.description) == ["2020-03-01", "2020-09-01", "2021-03-01", "2021-09-01",
                                          "2022-03-01", "2022-09-01"])
  }

  @Test("sharding splits the steps without overlap")
  func sharding() throws {
    let corpus = try smallCorpus()
    let whole = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let parts = (1...3).map { Plan.make(corpus: corpus, checks: CheckCatalog.all, shard: ($0, 3)) }
    #expect(parts.map(\.caseCount).reduce(0, +) == whole.caseCount)
    let names = parts.flatMap { $0.steps.map { "\($0.group)" } }
    #expect(Set(names).count == whole.steps.count)
  }
}
