/// A dimension a check's cases vary over.
public enum Dimension: String, Sendable, CaseIterable {
  case locale, calendar, firstWeekday = "fw", zone, month, variant
}

/// Which months of a zone a check sweeps.
public enum MonthCoverage: String, Sendable {
  /// Every month of the window in zones without transitions; in other zones the months that
  /// hold a transition. For checks about month structure, which are cheap.
  case every
  /// The months that hold a transition; in zones without transitions, the month holding
  /// January 1 of each year as a control. For checks about day boundaries, which cost ~100
  /// subject calls per month and only differ from the control where a transition is.
  case boundaries
}

/// One comparison between the subject and the oracle: data plus one function.
///
/// A check names the dimensions it depends on, so the plan never enumerates another one
/// (weekday symbols are not swept over 400 zones), and evaluates one case at a time. A
/// mismatch is an `Outcome`, never a thrown error; `evaluate` throws only when the harness or
/// the oracle cannot compute (the case is then `errored`).
public protocol Check: Sendable {
  /// The stable id used in case ids, reports and `--checks`.
  var id: String { get }
  /// One sentence: what the subject computes and what the oracle expects.
  var summary: String { get }
  /// The seeds whose logic this check exercises (`001`).
  var seeds: [String] { get }
  /// Every dimension of a case, in case-id order.
  var dimensions: [Dimension] { get }
  /// The dimensions fixed within one step (one JUnit testcase); the others vary inside it.
  var groupDimensions: [Dimension] { get }
  /// The months swept, when `month` is a dimension.
  var monthCoverage: MonthCoverage { get }
  /// The values of the `variant` dimension (tap scenarios, texts), when it is one.
  var variants: [String] { get }

  func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome
}

extension Check {
  public var monthCoverage: MonthCoverage { .every }
  public var variants: [String] { [] }
}

/// The checks this build knows, in report order.
public enum CheckCatalog {
  public static let all: [any Check] = [
    LeadingBlanksCheck(), WeekdaySymbolsCheck(), SameDayClosingCheck(), RangeRolesCheck(),
  ]

  public static func check(_ id: String) -> (any Check)? { all.first { $0.id == id } }
}
