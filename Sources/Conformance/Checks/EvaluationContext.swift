import Foundation
import ICUOracle

/// Everything a check needs to evaluate cases on one worker: the corpus, the subject, the
/// worker's oracle session and its cache of Foundation calendars.
///
/// The oracle is libicu. A context built `forTriage` computes the same expectations through
/// Foundation's own ICU instead (its month tables, zones, symbols and formats), so a failing
/// case can be re-evaluated to tell data drift from a logic defect.
package final class EvaluationContext {
  package let corpus: Corpus
  package let subject: Subject
  let oracle: OracleSession
  let calendars = SubjectCalendars()
  private let locales: [String: Corpus.Locale]
  /// The month tables the expectations use: libicu's, or Foundation's ICU's for triage.
  private let monthTables: MonthTables
  /// Whether this context's oracle is Foundation's ICU.
  package let isTriage: Bool
  /// The subject's answers kept for triage, when this context's subject keeps them.
  var answers: SubjectAnswers?
  /// Times the subject's calls, when the run measures where its CPU goes (`CPUParts`).
  var subjectTimer: SubjectTimer?
  /// The executor answering the subject, when it is one: the runner evaluates a step's cases
  /// in rounds, asking what they need in batches (`ExecutorClient`).
  private(set) var executor: ExecutorClient?
  /// Contexts whose zones are a tz release of the reference (zone triage), by release.
  var zoneReferences: [String: EvaluationContext] = [:]
  /// For a voice that evaluates a case again (Foundation's ICU, a tz release), the libicu
  /// context whose case it is: where a check picks what to ask by the zone's clock (the days
  /// a transition falls on), the case's questions are libicu's, and every voice answers
  /// those, so that voices differ in their answers and not in what they were asked.
  weak var primary: EvaluationContext?
  private var cycles: [String: DateTextCheck.Cycle] = [:]
  /// Whether checks record both sides' full values on every case (`--record all`).
  package internal(set) var recordsValues = false

  package init(corpus: Corpus, subject: Subject) {
    self.corpus = corpus
    self.subject = subject
    self.oracle = OracleSession(catalog: corpus.localeCatalog, tables: corpus.zoneTables,
                                memoize: corpus.oracleMode == .tables)
    self.monthTables = corpus.monthTables
    self.isTriage = false
    self.locales = Dictionary(corpus.locales.map { ($0.spelling, $0) },
                              uniquingKeysWith: { first, _ in first })
  }

  /// A context whose zone clocks are `clocks`' (a tz release of the reference), with libicu's
  /// month tables and locales.
  init(corpus: Corpus, subject: Subject, clocks: @escaping (String) -> (any ZoneClock)?) {
    self.corpus = corpus
    self.subject = subject
    self.oracle = OracleSession(catalog: corpus.localeCatalog, clocks: clocks)
    self.monthTables = corpus.monthTables
    self.isTriage = false
    self.locales = Dictionary(corpus.locales.map { ($0.spelling, $0) },
                              uniquingKeysWith: { first, _ in first })
  }

  /// A context whose oracle is Foundation's ICU, or `nil` when the corpus has no triage data.
  package init?(forTriage corpus: Corpus, subject: Subject) {
    guard let triage = corpus.triage else { return nil }
    self.corpus = corpus
    self.subject = subject
    self.oracle = OracleSession(catalog: triage.localeCatalog)
    self.monthTables = triage.monthTables
    self.isTriage = true
    self.locales = Dictionary(corpus.locales.map { ($0.spelling, $0) },
                              uniquingKeysWith: { first, _ in first })
  }

  /// A worker's contexts: libicu's, and Foundation's ICU's for triage (unless `triage` is off
  /// or the corpus has no triage data). They share the subject's answers, so that triage asks
  /// the subject only what the first evaluation of the case did not.
  ///
  /// - Parameters:
  ///   - recordsValues: the libicu context records both sides' full values (`--record all`);
  ///     triage's never does.
  ///   - timesSubject: the libicu context times the subject's calls (`subjectTimer`), where
  ///     they are calls in this process (not an executor's).
  package static func worker(corpus: Corpus, subject: Subject, triage: Bool = true,
                            recordsValues: Bool = false, timesSubject: Bool = false)
    -> (context: EvaluationContext, triage: EvaluationContext?)
  {
    if let spec = subject.executor {
      // The executor's answers are kept for the whole step, triage's questions included.
      let client = ExecutorClient(command: spec.command, hello: spec.hello, idle: spec.idle, log: spec.log)
      let answered = client.subject(subject)
      let context = EvaluationContext(corpus: corpus, subject: answered)
      (context.executor, context.recordsValues) = (client, recordsValues)
      let second = triage ? EvaluationContext(forTriage: corpus, subject: answered) : nil
      second?.executor = client
      second?.primary = context
      return (context, second)
    }
    let timer = timesSubject ? SubjectTimer() : nil
    let timed = timer.map { subject.intercepted(by: $0, name: subject.name) } ?? subject
    guard triage, corpus.triage != nil else {
      let context = EvaluationContext(corpus: corpus, subject: timed)
      (context.recordsValues, context.subjectTimer) = (recordsValues, timer)
      return (context, nil)
    }
    let answers = SubjectAnswers()
    let keeping = timed.intercepted(by: answers, name: subject.name)
    let context = EvaluationContext(corpus: corpus, subject: keeping)
    context.answers = answers
    (context.recordsValues, context.subjectTimer) = (recordsValues, timer)
    let second = EvaluationContext(forTriage: corpus, subject: keeping)
    second?.primary = context
    return (context, second)
  }

  /// The outcome with both sides' full values when this context records them; `values` is
  /// called only then (it may cost more text than the comparison itself).
  func recorded(_ outcome: Outcome, _ values: () throws -> (oracle: Value, subject: Value))
    rethrows -> Outcome
  {
    guard recordsValues else { return outcome }
    var recorded = outcome
    let (oracle, subject) = try values()
    recorded.values = CaseValues(oracle: oracle, subject: subject)
    return recorded
  }

  /// The month table of a calendar this context's oracle computes with.
  func monthTable(_ calendar: String) throws -> MonthTable {
    guard let table = monthTables[calendar] else {
      throw InputError("calendar '\(calendar)' is not in this run")
    }
    return table
  }

  /// The corpus entry of a case's locale.
  ///
  /// - Throws: `SubjectUnavailable` when Foundation has no data for it (the case is
  ///   skipped); `InputError` when the locale is not in this run.
  /// `DateTextCheck.cycleDays` of a calendar, computed once per context (every locale's
  /// `-cycle` cases of the calendar ask it).
  func cycle(of calendar: String) -> DateTextCheck.Cycle {
    if let known = cycles[calendar] { return known }
    let cycle = DateTextCheck.cycleDays(calendar, corpus)
    cycles[calendar] = cycle
    return cycle
  }

  func locale(_ spelling: String) throws -> Corpus.Locale {
    guard let locale = locales[spelling] else {
      throw InputError("locale '\(spelling)' is not in this run")
    }
    if let gap = locale.foundationGap { throw SubjectUnavailable(gap) }
    return locale
  }

  /// The oracle's month that starts on the case's `month` day in the case's calendar
  /// (Gregorian for checks whose subject has no calendar).
  func month(of id: CaseID) throws -> CalendarMonth {
    let calendar = id.calendar ?? "gregorian"
    guard let day = id.month else {
      throw HarnessError("\(id): needs a month")
    }
    guard let table = corpus.monthTables[calendar] else {
      throw InputError("\(id): calendar '\(calendar)' is not in this run")
    }
    guard let month = table.month(startingOn: day) else {
      throw InputError("\(id): no \(calendar) month starts on \(day) in the window")
    }
    if !isTriage && corpus.oracleMode == .direct {
      // Asked afresh, so comparing the modes also checks the month tables.
      do {
        return try ICU.month(of: calendar, containing: day)
      } catch {
        throw HarnessError("\(id): \(error)")
      }
    }
    guard isTriage else { return month }
    // Case ids name libicu's months; Foundation's ICU may start the same month a day apart,
    // so take its month that holds the middle of libicu's.
    let middle = month.firstDay.adding(days: month.length / 2)
    let theirs = try monthTable(calendar)
    guard let index = theirs.index(containing: middle) else {
      throw HarnessError("\(id): Foundation's ICU has no \(calendar) month holding \(middle)")
    }
    return theirs.months[index]
  }

  /// The Foundation instant for an ICU UDate.
  static func date(_ millis: Double) -> Date { Date(timeIntervalSince1970: millis / 1000) }

  /// The ICU UDate for a Foundation instant.
  static func millis(_ date: Date) -> Double { date.timeIntervalSince1970 * 1000 }

  /// Foundation's reading of the month an instant falls in, in the words of the oracle's.
  /// Whether an executor has not answered what this case asked yet (see
  /// `ExecutorClient.isWaiting`): always `false` for a subject of Swift functions.
  var awaitsSubject: Bool { executor?.isWaiting ?? false }

  /// Why the case being evaluated may not ask the subject for a diagnosis: its diagnosis
  /// hung or crashed a worker before (`WorkerRequest.diagnosisFault`); the note goes in its
  /// detail.
  var withoutDiagnosis: String?

  /// `body`, which asks the subject only to explain a difference already found (where its
  /// month starts): under a limit of its own in a worker (`CaseClock.diagnosing`), so a
  /// function that loops or traps there costs the diagnosis, never the verdict; `nil`, with
  /// no question asked, when this case's diagnosis faulted before.
  func diagnosis<T>(_ body: () -> T?) -> T? {
    guard withoutDiagnosis == nil else { return nil }
    return CaseClock.diagnosing(body)
  }

  static func subjectReading(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.era, .year, .month, .isLeapMonth], from: date)
    return "era \(parts.era ?? -1) year \(parts.year ?? -1) month \(parts.month ?? -1)"
      + (parts.isLeapMonth == true ? " leap" : "")
  }
}

extension EvaluationContext {
  /// One case evaluated by itself, as every runner and `explain` evaluate it: skipped where
  /// the subject lacks a function the check calls, or says it cannot answer; errored where
  /// the check throws.
  package func outcome(of id: CaseID, check: any Check) -> Outcome {
    if let absent = check.subjectFunctions.first(where: subject.missing.contains) {
      return .skipped("the subject \(subject.name) has no \(absent) function"
        + (subject.missingReasons[absent].map { ": \($0)" } ?? ""))
    }
    do {
      return try check.evaluate(id, in: self)
    } catch let unavailable as SubjectUnavailable {
      return .skipped(unavailable.reason)
    } catch let error as InputError {
      return .errored(error.message)
    } catch {
      return .errored("\(error)")
    }
  }
}
