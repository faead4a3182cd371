import Foundation
import PickerLogic

/// A subject of a team's own, from the functions it has. Each is `nil` until set; the cases
/// of a check that calls a missing one are skipped, with that reason, so a component that
/// holds only part of the seeds' logic is swept for that part.
///
///     var mine = SubjectFunctions(name: "MyPicker")
///     mine.leadingBlanks = { month, calendar in MyPicker.blanks(before: month, in: calendar) }
///     let subject = mine.subject
public struct SubjectFunctions: Sendable {
  public var name: String
  public var leadingBlanks: (@Sendable (_ month: Date, _ calendar: Calendar) -> Int)?
  public var weekdaySymbols: (@Sendable (_ calendar: Calendar) -> [String])?
  public var closes: (@Sendable (_ old: Date, _ new: Date, _ calendar: Calendar) -> Bool)?
  public var selecting: (@Sendable (_ day: Date, _ selection: CalendarRangeSelectorLogic.Selection, _ calendar: Calendar)
    -> CalendarRangeSelectorLogic.Selection)?
  public var role: (@Sendable (_ day: Date, _ selection: CalendarRangeSelectorLogic.Selection, _ calendar: Calendar)
    -> CalendarRangeSelectorLogic.Role)?
  public var days: (@Sendable (_ month: Date, _ calendar: Calendar) -> [Date])?
  public var paging: (@Sendable (_ month: Date, _ offset: Int, _ calendar: Calendar) -> Date?)?
  public var nights: (@Sendable (_ start: Date, _ end: Date, _ calendar: Calendar) -> Int)?
  public var clampedReturn: (@Sendable (_ comeback: Date, _ departure: Date) -> Date)?
  public var text: (@Sendable (_ kind: DateText, _ date: Date, _ calendar: Calendar, _ locale: Locale)
    -> String)?
  /// The kinds `text` gives, when not all seven: the cases of the others are skipped with
  /// that reason (`nil`: every kind).
  public var textKinds: Set<DateText>?
  public var fieldDate: (@Sendable (_ text: String, _ calendar: Calendar, _ locale: Locale) -> Date?)?
  public var disclosure: (@Sendable (_ kind: DisclosureRow.Kind, _ start: Date,
                                     _ actions: [DisclosureAction], _ calendar: Calendar,
                                     _ locale: Locale) -> [DisclosureSnapshot])?

  /// The data releases these functions compute with, when not this Foundation's (a bundled
  /// CLDR or tz): triage reads the published reference at them.
  public var releases: DataReleases?

  public init(name: String, releases: DataReleases? = nil) {
    self.name = name
    self.releases = releases
  }

  /// The subject the checks call: the functions given, and for each missing one a stand-in
  /// that is never called (its checks are skipped) and its name in `missing`.
  package var subject: Subject {
    var subject = Subject.pickerLogic
    subject.name = name
    subject.missing = []
    subject.isOwn = true
    subject.shares = [.foundation, .any]
    subject.declaredReleases = releases
    subject.textKinds = text == nil ? nil : textKinds
    for entry in Subject.functions where !entry.take(self, into: &subject) {
      subject.missing.insert(entry.function)
      entry.standIn(&subject)
    }
    return subject
  }
}
