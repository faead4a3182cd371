import Foundation
import ICUOracle

/// Everything a check needs to evaluate cases on one worker: the corpus, the subject, the
/// worker's oracle session and its cache of Foundation calendars.
public final class EvaluationContext {
  public let corpus: Corpus
  public let subject: Subject
  let oracle: OracleSession
  let calendars = SubjectCalendars()

  public init(corpus: Corpus, subject: Subject) {
    self.corpus = corpus
    self.subject = subject
    self.oracle = OracleSession(catalog: corpus.localeCatalog)
  }

  /// The oracle's month that starts on the case's `month` day in the case's calendar.
  func month(of id: CaseID) throws -> CalendarMonth {
    guard let calendar = id.calendar, let day = id.month else {
      throw HarnessError("\(id): needs calendar and month")
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
