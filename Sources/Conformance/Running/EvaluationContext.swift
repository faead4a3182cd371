import Foundation
import ICUOracle

/// Everything a check needs to evaluate cases on one worker: the corpus, the subject, the
/// worker's oracle session and its cache of Foundation calendars.
public final class EvaluationContext {
  public let corpus: Corpus
  public let subject: Subject
  let oracle: OracleSession
  let calendars = SubjectCalendars()
  private let locales: [String: Corpus.Locale]

  public init(corpus: Corpus, subject: Subject) {
    self.corpus = corpus
    self.subject = subject
    self.oracle = OracleSession(catalog: corpus.localeCatalog)
    self.locales = Dictionary(corpus.locales.map { ($0.spelling, $0) },
                              uniquingKeysWith: { first, _ in first })
  }

  /// The corpus entry of a case's locale.
  ///
  /// - Throws: `SubjectUnavailable` when Foundation has no data for it (the case is
  ///   skipped); `InputError` when the locale is not in this run.
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
    return month
  }

  /// The Foundation instant for an ICU UDate.
  static func date(_ millis: Double) -> Date { Date(timeIntervalSince1970: millis / 1000) }

  /// The ICU UDate for a Foundation instant.
  static func millis(_ date: Date) -> Double { date.timeIntervalSince1970 * 1000 }

  /// Foundation's reading of the month an instant falls in, in the words of the oracle's.
  static func subjectReading(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.era, .year, .month, .isLeapMonth], from: date)
    return "era \(parts.era ?? -1) year \(parts.year ?? -1) month \(parts.month ?? -1)"
      + (parts.isLeapMonth == true ? " leap" : "")
  }
}
