/// A dimension a check's cases vary over.
/// The one place its keys are spelled: a case id's text form, the case record's
/// `dimensions` and the waivers' scopes take them from here.
package enum Dimension: String, Sendable, CaseIterable {
  case locale, calendar, firstWeekday = "fw", zone, month, variant

  /// In the order of their keys' UTF-8 bytes, as JSONEncoder sorts an object's members.
  package static let byKey = allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
}

/// Which months of a zone a check sweeps (see Documentation/Design.md, "Which months").
package enum MonthCoverage: String, Sendable {
  /// Every month of the window in the month-sweep zones (zones without transitions, or one
  /// per standard offset), the months holding a transition elsewhere. For checks about month
  /// structure, which cost a few subject calls per month.
  case everyMonth = "every-month"
  /// The months holding a transition, plus the month of 1 January of each year in the
  /// month-sweep zones as a control. For checks about day boundaries, which cost ~100 subject
  /// calls per month and only differ from the control where a transition moves a boundary.
  case transitionMonths = "transition-months"
  /// The transition months, plus in the zone that stands for UTC (`Corpus.utcZone`) the months
  /// holding 29 December to 3 January of each year: where the week-based year (`YYYY`) and
  /// the calendar year part, the same in every zone. For the text field, whose `yyyy`
  /// written as `YYYY` is right all year but there.
  case transitionAndYearEndMonths = "transition-and-year-end-months"
  /// One month a year in the zone that stands for UTC (`Corpus.utcZone`), each year the next
  /// month of the year (the month holding 1 January 1970, 1 February 1971, …), and the months
  /// holding a transition that skips or repeats a midnight or a day. For the grid under
  /// every first weekday: month shapes on every weekday, and the months where a day's start
  /// moves, at a twelfth of the cost of every month.
  case midnightTransitionMonths = "midnight-transition-months"
}

/// One comparison between the subject and the oracle: data plus one function.
///
/// A check names the dimensions it depends on, so the plan never enumerates another one
/// (weekday symbols are not swept over 400 zones), and evaluates one case at a time. A
/// mismatch is an `Outcome`, never a thrown error; `evaluate` throws only when the harness or
/// the oracle cannot compute (the case is then `errored`).
package protocol Check: Sendable {
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
  /// The variants for a corpus (for variants that depend on the window, such as years).
  func variants(in corpus: Corpus) -> [String]
  /// The variants of one step; by default all of `variants(in:)`.
  func variants(for group: CaseID, in corpus: Corpus) -> [String]
  /// The subject's functions the check calls: a subject missing one has the check's cases
  /// skipped.
  var subjectFunctions: [Subject.Function] { get }
  /// Whether the check needs libicu's model of the calendar (false for invariant checks,
  /// which also run on calendars only Foundation has).
  var needsOracleCalendar: Bool { get }

  func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome
}

extension Check {
  package var monthCoverage: MonthCoverage { .everyMonth }
  package var variants: [String] { [] }
  package func variants(in corpus: Corpus) -> [String] { variants }
  package func variants(for group: CaseID, in corpus: Corpus) -> [String] { variants(in: corpus) }
  package var needsOracleCalendar: Bool { true }
}
