import ICUOracle
/// What one check's part of a plan covers, stated next to the full cross product so a reader
/// sees what planning saved.
package struct PlanCoverage: Sendable, Codable, Equatable {
  package var check: String
  package var cases: Int
  package var steps: Int
  package var locales: Int
  package var calendars: Int
  package var firstWeekdays: Int
  package var zones: Int
  /// Distinct (calendar, zone, month) combinations swept.
  package var zoneMonths: Int
  /// Zone-months not swept because a zone with the same offsets around them sweeps them
  /// (see `OffsetHistory`); their cases are covered by that zone's.
  package var equivalentZoneMonths = 0
  /// Distinct (calendar, month) combinations swept, whatever the zone.
  package var months: Int
  /// The transitions inside the swept months, by kind.
  package var transitionsByKind: [String: Int]
  /// The case count had every dimension been crossed with every other (every month in every
  /// zone).
  package var crossProduct: Int


  init(check: any Check, steps: [Plan.Step], corpus: Corpus) {
    self.check = check.id
    self.cases = steps.reduce(0) { $0 + $1.caseCount }
    self.steps = steps.count
    self.locales = Set(steps.compactMap(\.group.locale)).count
    self.calendars = Set(steps.compactMap(\.group.calendar)).count
    self.zones = Set(steps.compactMap(\.group.zone)).count
    self.firstWeekdays = Set(steps.flatMap(\.firstWeekdays) + steps.compactMap(\.group.firstWeekday))
      .count
    self.zoneMonths = steps.filter { $0.group.zone != nil }.reduce(0) { $0 + $1.months.count }
    // Per calendar, the days themselves: a text per step and month was a quarter of
    // planning a full sweep (every shard plans it whole).
    var distinctMonths: [String: Set<LocalDay>] = [:]
    for step in steps where !step.months.isEmpty {
      distinctMonths[step.group.calendar ?? "gregorian", default: []].formUnion(step.months)
    }
    self.months = distinctMonths.values.reduce(0) { $0 + $1.count }
    var kinds: [String: Int] = [:]
    if check.dimensions.contains(.month) {
      let zones = Dictionary(corpus.zones.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      var counted: Set<String> = []
      for step in steps {
        guard let id = step.group.zone, let zone = zones[id],
          counted.insert(id).inserted else { continue }
        for transition in zone.transitions {
          for kind in transition.kinds { kinds[kind.rawValue, default: 0] += 1 }
        }
      }
    }
    self.transitionsByKind = kinds
    var product = 1
    for dimension in check.dimensions {
      switch dimension {
      case .locale: product *= corpus.locales.count
      case .calendar: product *= 1  // counted with the months below
      case .firstWeekday:
        product *= check.dimensions.contains(.locale)
          ? corpus.firstWeekdays.count : corpus.firstWeekdays.filter { $0 != .own }.count
      case .zone: product *= corpus.zones.count
      case .month: product *= 1
      case .variant: product *= max(check.variants(in: corpus).count, 1)
      }
    }
    // Months differ in number between calendars: sum the window's months over calendars.
    let window = corpus.window
    let monthCalendars = check.dimensions.contains(.calendar) ? corpus.oracleCalendars : ["gregorian"]
    let calendarFactor = check.dimensions.contains(.month)
      ? monthCalendars.reduce(0) { total, calendar in
        total + (corpus.monthTables[calendar]?.months.filter {
          $0.endDay > window.lowerBound && $0.firstDay <= window.upperBound
        }.count ?? 0)
      }
      : (check.dimensions.contains(.calendar)
        ? (check.needsOracleCalendar ? corpus.oracleCalendars.count : corpus.calendars.count) : 1)
    self.crossProduct = product * calendarFactor
  }
}
