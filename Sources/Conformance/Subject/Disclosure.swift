import Foundation
import PickerLogic

/// What happens to a disclosure row in the `disclosure` check.
public enum DisclosureAction: Sendable, Equatable {
  case tap
  case select(Date)
}

/// A disclosure row as the user sees it after one action.
public struct DisclosureSnapshot: Sendable, Equatable, CustomStringConvertible {
  public var isExpanded: Bool
  public var label: String

  public init(isExpanded: Bool, label: String) {
    self.isExpanded = isExpanded
    self.label = label
  }

  init(_ row: DisclosureRow, _ calendar: Calendar, _ locale: Locale) {
    self.init(isExpanded: row.isExpanded, label: row.label(calendar: calendar, locale: locale))
  }

  public var description: String { "\(isExpanded ? "expanded" : "collapsed") · \(label)" }
}
