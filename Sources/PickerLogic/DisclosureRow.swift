import Foundation

/// The state of a row that discloses a picker: seeds 000 (inline calendar), 002 (wheel
/// picker) and 003 (list header), which differ only in their rules.
public struct DisclosureRow: Equatable, Sendable {
  /// Which seed's rules the row follows.
  public enum Kind: String, CaseIterable, Sendable {
    /// Seed 000: starts collapsed; a tap toggles; picking a different day closes it.
    case inlineCalendar = "000-inline-calendar"
    /// Seed 002: starts collapsed; a tap toggles; a new selection leaves it as it is.
    case wheel = "002-wheel"
    /// Seed 003: expanded by default; a tap toggles; every change rebuilds the header and
    /// expands it again.
    case listHeader = "003-list-header"
  }

  public var kind: Kind
  public var isExpanded: Bool
  public var selection: Date

  /// The row as each seed first shows it.
  public init(kind: Kind, selection: Date) {
    self.kind = kind
    self.selection = selection
    self.isExpanded = kind == .listHeader
  }

  /// A tap on the row.
  public mutating func tap() { isExpanded.toggle() }

  /// The picker reports a new value.
  public mutating func select(_ date: Date, calendar: Calendar) {
    let previous = selection
    selection = date
    switch kind {
    case .inlineCalendar:
      if isExpanded,
        InlineDatePickerDisclosureRule.closes(from: previous, to: date, in: calendar)
      {
        isExpanded = false
      }
    case .wheel:
      break
    case .listHeader:
      isExpanded = true
    }
  }

  /// What the row shows for its selection: seed 000's abbreviated date, seed 002's and 003's
  /// medium date (002 shows the selection as text; 003 uses a medium `DateFormatter`).
  public func label(calendar: Calendar, locale: Locale) -> String {
    switch kind {
    case .inlineCalendar: DateTexts.rowText(selection, calendar: calendar, locale: locale)
    case .wheel, .listHeader: DateTexts.headerText(selection, calendar: calendar, locale: locale)
    }
  }
}
