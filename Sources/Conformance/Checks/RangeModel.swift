import ICUOracle

/// The reference model of seed 001's range rules, over local day numbers instead of
/// instants: what `selecting` and `role` should give when "the same day" is exact.
package enum RangeModel {
  package struct Selection: Equatable, Sendable, CustomStringConvertible {
    package var start: LocalDay?
    package var end: LocalDay?

    package init(start: LocalDay? = nil, end: LocalDay? = nil) {
      self.start = start
      self.end = end
    }

    package var description: String {
      "start \(start?.description ?? "nil"), end \(end?.description ?? "nil")"
    }
  }

  /// The tap sequences `range-roles` drives, over three days a < c < b of the month.
  package enum Scenario: String, CaseIterable, Sendable {
    /// One tap: a start only.
    case start
    /// Start then a later end.
    case range
    /// A tap before the start restarts the range.
    case backward
    /// A tap once the range is complete restarts it.
    case restart
    /// The same day twice: start = end.
    case sameDay = "same-day"

    /// The cell indices tapped, given the indices of a (first), b (last) and c (middle).
    package func taps(first a: Int, last b: Int, middle c: Int) -> [Int] {
      switch self {
      case .start: [a]
      case .range: [a, b]
      case .backward: [b, a]
      case .restart: [a, b, c]
      case .sameDay: [a, a]
      }
    }
  }

  /// The first tap sets the start, the second the end; a tap before the start, or any tap
  /// once the range is complete, starts a new range.
  package static func selecting(_ day: LocalDay, in selection: Selection) -> Selection {
    guard let start = selection.start, selection.end == nil, day >= start else {
      return Selection(start: day)
    }
    return Selection(start: start, end: day)
  }

  /// The role name (`outside`, `start`, `middle`, `end`, `single`) of a day.
  package static func role(of day: LocalDay, in selection: Selection) -> String {
    guard let start = selection.start else { return "outside" }
    guard let end = selection.end, end != start else {
      return day == start ? "single" : "outside"
    }
    let lower = min(start, end)
    let upper = max(start, end)
    if day == lower { return "start" }
    if day == upper { return "end" }
    return day > lower && day < upper ? "middle" : "outside"
  }
}
