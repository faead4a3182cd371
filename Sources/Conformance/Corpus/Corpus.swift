import ICUOracle

/// The validated dimensions of one run: every value here is known to libicu, and the
/// structure the plan needs (month tables, zone transitions) has been read from it.
package struct Corpus: Sendable {
  /// A locale as written in the corpus or on the command line, and its ICU id.
  package struct Locale: Sendable, Hashable {
    /// The spelling handed to Foundation (`en-US-u-fw-mon` stays BCP 47).
    package var spelling: String
    /// The ICU locale id handed to libicu (`en_US@fw=mon`).
    package var icuID: String
    package var reason: String
    /// Why Foundation cannot run this locale (its ICU has no data for it), or `nil`.
    package var foundationGap: String?
  }

  /// A time zone and the offset transitions libicu gives it inside the window.
  package struct Zone: Sendable, Hashable {
    package var id: String
    package var reason: String
    /// Alias ids with the same rules in the window, swept as this zone.
    package var aliases: [String] = []
    /// Whether the plan sweeps every month here (a zone without transitions, or the
    /// representative of a standard offset), not only its transition months.
    package var sweepsEveryMonth = false
    /// The standard (raw) offset at the end of the window, in milliseconds.
    package var standardOffset: Int32 = 0
    /// Every transition in the window (or one per shape, see `TransitionSample`).
    package var transitions: [ZoneTransition]
    /// How many transitions the window holds before sampling.
    package var transitionsInWindow: Int
    /// Transitions that only Foundation's tz data has (read through its ICU), in the window:
    /// their months are swept too, since that is where the two sides' days can differ.
    package var subjectOnlyTransitions: [ZoneTransition] = []
    /// Both sides' offsets over the window: what makes this zone's months equivalent to
    /// another zone's (`nil` for zones built by hand, which are then never folded).
    package var history: OffsetHistory?
    /// The class a worker's parent read for it (a worker reads no transitions).
    var knownClass: String?

    /// The zone's class in report matrices: its most telling kind of transition in the window.
    package var zoneClass: String {
      if let knownClass { return knownClass }
      let kinds = Set((transitions + subjectOnlyTransitions).flatMap(\.kinds))
      for kind in [ZoneTransition.Kind.skippedDay, .repeatedDay, .skippedMidnight,
                   .repeatedMidnight, .nonHourChange, .negativeDST]
      where kinds.contains(kind) {
        return kind.rawValue
      }
      return kinds.isEmpty ? "no transitions" : "transitions away from midnight"
    }

    /// The local days that transitions touch, with their neighbours: the days whose months
    /// the plan sweeps in this zone.
    package var transitionDays: Set<LocalDay> { transitionDays { _ in true } }

    /// The same, for the transitions that move a midnight (skip or repeat it, or a day).
    package var midnightTransitionDays: Set<LocalDay> {
      transitionDays { !$0.kinds.isDisjoint(with: [.skippedMidnight, .repeatedMidnight, .skippedDay, .repeatedDay]) }
    }

    func transitionDays(where included: (ZoneTransition) -> Bool) -> Set<LocalDay> {
      var days: Set<LocalDay> = []
      for transition in transitions + subjectOnlyTransitions where included(transition) {
        for day in transition.localDays {
          days.formUnion([day.adding(days: -1), day, day.adding(days: 1)])
        }
      }
      return days
    }
  }

  /// How the oracle computes expectations (`--oracle`).
  package enum OracleMode: String, Sendable, CaseIterable, Codable {
    /// Zone structure from per-zone tables, memoized per-locale answers: the default.
    case tables
    /// Every case asks libicu afresh (no tables, no memoized values): the reference the
    /// tables are tested and benchmarked against.
    case direct
  }

  /// Which zones sweep every month of the window (the others sweep their transition months).
  package enum MonthSweep: String, Sendable, CaseIterable, Codable {
    /// One zone per standard offset, the one with the fewest transitions (UTC for +00:00):
    /// a month without a transition behaves alike in zones with the same offset, and
    /// offsets do matter (Foundation's astronomical Islamic calendar loses months at +03:30).
    case perOffset = "per-offset"
    /// Only the zones without any transition in the window (the core corpus: UTC).
    case transitionFree = "transition-free"
  }

  /// Which of a zone's transitions the plan sweeps.
  package enum TransitionSample: String, Sendable, CaseIterable, Codable {
    /// Every transition in the window (the nightly sweep).
    case all
    /// The first and the last transition of each shape (kinds, offsets, time of day): the
    /// core corpus, which must run in seconds.
    case shapes
  }

  package var locales: [Locale]
  /// Calendar ids both sides know, then the ones only Foundation knows.
  package var calendars: [String]
  /// Calendars libicu does not have: they run invariant checks only.
  package var invariantOnlyCalendars: Set<String> = []
  package var firstWeekdays: [FirstWeekdaySetting]
  package var zones: [Zone]
  /// The window in Gregorian years, inclusive (default 1970...2037).
  package var years: ClosedRange<Int>
  package var transitionSample: TransitionSample
  /// Sweep every month in every zone (slow; for verifying the month-selection reasoning).
  package var exhaustive = false
  /// Month tables by calendar identifier, from libicu (none for invariant-only calendars).
  package var monthTables: MonthTables

  /// The calendars the oracle can compute for.
  package var oracleCalendars: [String] { calendars.filter { !invariantOnlyCalendars.contains($0) } }

  /// Each zone's class (`Zone.zoneClass`), for the reports' matrices.
  package var zoneClasses: [String: String] {
    Dictionary(zones.map { ($0.id, $0.zoneClass) }, uniquingKeysWith: { first, _ in first })
  }
  /// libicu's locales, for the oracle's locale handling.
  package var localeCatalog: LocaleCatalog
  /// How the oracle answers questions about zones and values: from tables read once, or by
  /// asking libicu afresh for every case.
  package var oracleMode: OracleMode = .tables
  /// Zone tables (tables mode), each read from libicu when a session first asks for its
  /// zone; `nil` in direct mode.
  package var zoneTables: ZoneTables?

  /// What triage needs from Foundation's own ICU, or `nil` when it is not reachable.
  package var triage: TriageData?
  /// Why triage is off, when `triage` is `nil`.
  package var triageProblem: String?
  /// Published reference data (`Corpora/reference/`), triage's third voice; `nil` when the
  /// corpora directory has none.
  package var reference: ReferenceData?

  /// Foundation's ICU's locales and month tables, to re-compute expectations for triage.
  package struct TriageData: Sendable {
    package var localeCatalog: LocaleCatalog
    package var monthTables: MonthTables
  }

  /// The window as local days: January 1 of the first year to December 31 of the last.
  package var window: ClosedRange<LocalDay> {
    LocalDay(year: years.lowerBound, month: 1, day: 1)...LocalDay(
      year: years.upperBound, month: 12, day: 31)
  }

  /// The zone that stands for UTC (`standingForUTC`), chosen once when the zones are read: a
  /// worker, which gets the zones without their offsets and aliases, gets it from its parent.
  /// Where what does not depend on the zone is checked once: a month table's defect, the
  /// week-based year's edges.
  package internal(set) var utcZone: String?

  /// UTC where it sweeps every month, else a zone of offset 0 without transitions that does
  /// (`--time-zones all` sweeps each standard offset's months in one representative,
  /// Africa/Abidjan for 0).
  static func standingForUTC(_ zones: [Zone]) -> String? {
    let utc = zones.first { $0.id == "UTC" || $0.aliases.contains("UTC") }
    return utc.flatMap { $0.sweepsEveryMonth ? $0.id : nil }
      ?? zones.first { $0.sweepsEveryMonth && $0.standardOffset == 0 && $0.transitionsInWindow == 0 }?.id
      ?? utc?.id
  }

  /// 29 December of `year` to 3 January of the next: the days whose ISO week-based year can
  /// differ from their calendar year (a week belongs to the year holding its Thursday).
  package static func weekYearEdge(_ year: Int) -> [LocalDay] {
    let first = LocalDay(year: year, month: 12, day: 29)
    return (0..<6).map { first.adding(days: $0) }
  }

  /// The default window: tz data before 1970 is thin, and 2037 is where zone rules' explicit
  /// transitions end.
  package static let defaultYears = 1970...2037
}
