import ICUOracle

/// What a run will evaluate: for each check, steps over only the dimensions it depends on.
///
/// Planning produces data and does not call the subject. A step is one group of cases (one
/// JUnit testcase, one unit of work for a worker); its cases are expanded when it runs, so a
/// plan for millions of cases stays small.
public struct Plan: Sendable {
  /// One group of cases of one check: the group's fixed dimensions and the values of the
  /// dimensions that vary inside it.
  public struct Step: Sendable {
    /// Index into `Plan.checks`.
    public var checkIndex: Int
    /// The step's place in the whole plan, the same in every shard: shards merge by it.
    public var index = 0
    /// The fixed dimensions (the rest are `nil`).
    public var group: CaseID
    /// Values of the dimensions that vary inside the step; empty when not a dimension.
    public var firstWeekdays: [FirstWeekdaySetting] = []
    public var months: [LocalDay] = []
    public var variants: [String] = []

    /// How many cases the step expands to.
    public var caseCount: Int {
      max(firstWeekdays.count, 1) * max(months.count, 1) * max(variants.count, 1)
    }

    /// The step's cases, months outermost, so consecutive cases share a month's geometry.
    public func cases() -> [CaseID] {
      var result: [CaseID] = []
      result.reserveCapacity(caseCount)
      let months: [LocalDay?] = self.months.isEmpty ? [nil] : self.months
      let weekdays: [FirstWeekdaySetting?] = firstWeekdays.isEmpty ? [nil] : firstWeekdays
      let variants: [String?] = self.variants.isEmpty ? [nil] : self.variants
      for month in months {
        for weekday in weekdays {
          for variant in variants {
            var id = group
            if let month { id.month = month }
            if let weekday { id.firstWeekday = weekday }
            if let variant { id.variant = variant }
            result.append(id)
          }
        }
      }
      return result
    }

    /// The testcase name of the step: its fixed dimension values.
    public var name: String {
      group.dimensionValues.map(\.value).joined(separator: " · ")
    }
  }

  public var checks: [any Check]
  public var steps: [Step]
  public var coverage: [PlanCoverage]
  /// With a shard: every shard's cases and expected CPU seconds (`StepCosts`), in order.
  public var shards: [(cases: Int, cpuSeconds: Double)] = []

  public var caseCount: Int { steps.reduce(0) { $0 + $1.caseCount } }
}

extension Plan {
  /// Plans `checks` over `corpus`; with `shard` (k of n, 1-based), keeps the k-th of n
  /// slices balanced by `costs` (see `balance`).
  public static func make(corpus: Corpus, checks: [any Check],
                          shard: (index: Int, count: Int)? = nil, costs: StepCosts = .uniform) -> Plan {
    var months = MonthSelection(corpus: corpus)
    let groupsByCheck = checks.map { Self.groups(check: $0, corpus: corpus) }
    var folds: [MonthSelection.Fold] = []
    for (check, groups) in zip(checks, groupsByCheck) where check.dimensions.contains(.month) {
      for calendar in Set(groups.filter { $0.zone != nil }.map { $0.calendar ?? "gregorian" }) {
        folds.append(MonthSelection.Fold(calendar: calendar, coverage: check.monthCoverage))
      }
    }
    months.fold(Array(Set(folds)).sorted { ($0.calendar, $0.coverage.rawValue) < ($1.calendar, $1.coverage.rawValue) })
    var steps: [Step] = []
    var coverage: [PlanCoverage] = []
    for (checkIndex, check) in checks.enumerated() {
      let groups = groupsByCheck[checkIndex]
      var checkSteps: [Step] = []
      var foldedZoneMonths = 0
      for group in groups {
        var step = Step(checkIndex: checkIndex, group: group)
        let weekdaysVary =
          check.dimensions.contains(.firstWeekday) && !check.groupDimensions.contains(.firstWeekday)
        if weekdaysVary {
          // Without a locale there is no "own" first weekday to take.
          step.firstWeekdays = check.dimensions.contains(.locale)
            ? corpus.firstWeekdays : corpus.firstWeekdays.filter { $0 != .own }
        }
        // A check whose subject has no calendar names its months in Gregorian.
        if check.dimensions.contains(.month), let zone = group.zone {
          step.months = months.months(calendar: group.calendar ?? "gregorian", zone: zone,
                                      coverage: check.monthCoverage)
          foldedZoneMonths += months.foldedMonths(
            calendar: group.calendar ?? "gregorian", zone: zone, coverage: check.monthCoverage).count
        }
        if check.dimensions.contains(.variant) { step.variants = check.variants(for: group, in: corpus) }
        let empty = (weekdaysVary && step.firstWeekdays.isEmpty)
          || (check.dimensions.contains(.month) && step.months.isEmpty)
        if !empty { checkSteps.append(step) }
      }
      var checkCoverage = PlanCoverage(check: check, steps: checkSteps, corpus: corpus)
      checkCoverage.equivalentZoneMonths = foldedZoneMonths
      coverage.append(checkCoverage)
      steps += checkSteps
    }
    for position in steps.indices { steps[position].index = position }
    var shards: [(cases: Int, cpuSeconds: Double)] = []
    if let shard {
      let zoneClasses = corpus.zoneClasses
      let (shardOf, loads) = balance(steps, count: shard.count) { step in
        costs.cost(of: step, check: checks[step.checkIndex].id, zoneClass: step.group.zone.flatMap { zoneClasses[$0] })
      }
      var cases = Array(repeating: 0, count: shard.count)
      for (position, step) in steps.enumerated() { cases[shardOf[position]] += step.caseCount }
      shards = zip(cases, loads).map { ($0, $1 / 1e6) }
      steps = steps.indices.filter { shardOf[$0] == shard.index - 1 }.map { steps[$0] }
    }
    var plan = Plan(checks: checks, steps: steps, coverage: coverage)
    plan.shards = shards
    return plan
  }

  /// For each zone, its months that a zone with the same offsets around them sweeps
  /// instead, with that zone: what `make` leaves out for a check with `coverage`.
  public static func equivalentMonths(corpus: Corpus, calendar: String, coverage: MonthCoverage)
    -> [String: [LocalDay: String]]
  {
    var selection = MonthSelection(corpus: corpus)
    return Dictionary(uniqueKeysWithValues: corpus.zones.map {
      ($0.id, selection.foldedMonths(calendar: calendar, zone: $0.id, coverage: coverage))
    })
  }

  /// Every combination of the check's group dimensions, in corpus order.
  static func groups(check: any Check, corpus: Corpus) -> [CaseID] {
    var groups = [CaseID(check: check.id)]
    for dimension in check.groupDimensions {
      let values: [(inout CaseID) -> Void]
      switch dimension {
      case .locale: values = corpus.locales.map { locale in { $0.locale = locale.spelling } }
      case .calendar:
        let calendars = check.needsOracleCalendar ? corpus.oracleCalendars : corpus.calendars
        values = calendars.map { calendar in { $0.calendar = calendar } }
      case .zone: values = corpus.zones.map { zone in { $0.zone = zone.id } }
      case .firstWeekday:
        values = corpus.firstWeekdays.map { setting in { $0.firstWeekday = setting } }
      case .month, .variant:
        values = []
      }
      groups = groups.flatMap { group in
        values.map { apply in
          var id = group
          apply(&id)
          return id
        }
      }
    }
    return groups
  }
}

/// Chooses the months a check sweeps in one calendar and zone (see `MonthCoverage`), and
/// sweeps a month only once among zones whose offsets agree around it (`OffsetHistory`).
struct MonthSelection: Sendable {
  let corpus: Corpus
  private var zones: [String: Corpus.Zone] = [:]
  private var transitionDays: [String: Set<LocalDay>] = [:]
  /// `candidates` by "calendar|zone|coverage": folding reads every zone's, the plan each again.
  private var candidateCache: [String: [LocalDay]] = [:]
  /// Per "calendar|coverage": the months each zone leaves to an equivalent zone, with it.
  private var folded: [String: [String: [LocalDay: String]]] = [:]

  /// Whether months are folded across zones: not with `--exhaustive`, and only when every
  /// zone's offsets are known on both sides.
  let foldsEquivalentMonths: Bool

  /// One calendar's months folded for one coverage.
  struct Fold: Hashable, Sendable {
    var calendar: String
    var coverage: MonthCoverage
  }

  /// Folds each of `folds` ahead, on every core (each calendar's fold is apart from the
  /// others', and folding was 40 % of planning a full sweep, which every shard does whole).
  mutating func fold(_ folds: [Fold]) {
    guard foldsEquivalentMonths else { return }
    let start = self
    let done = ParallelMap.run(folds) { fold in
      var selection = start
      let result = selection.fold(calendar: fold.calendar, coverage: fold.coverage)
      return (result, selection.candidateCache)
    }
    for (fold, (result, candidates)) in zip(folds, done) {
      folded["\(fold.calendar)|\(fold.coverage.rawValue)"] = result
      candidateCache.merge(candidates, uniquingKeysWith: { kept, _ in kept })
    }
  }

  init(corpus: Corpus) {
    self.corpus = corpus
    for zone in corpus.zones {
      zones[zone.id] = zone
      transitionDays[zone.id] = zone.transitionDays
    }
    foldsEquivalentMonths =
      !corpus.exhaustive && corpus.zones.allSatisfy { $0.history?.subject != nil }
  }

  mutating func months(calendar: String, zone id: String, coverage: MonthCoverage) -> [LocalDay] {
    let months = candidates(calendar: calendar, zone: id, coverage: coverage)
    let leftOut = foldedMonths(calendar: calendar, zone: id, coverage: coverage)
    return leftOut.isEmpty ? months : months.filter { leftOut[$0] == nil }
  }

  /// The months of `zone` swept in an equivalent zone instead, with that zone's id (empty
  /// when nothing is folded).
  mutating func foldedMonths(calendar: String, zone id: String, coverage: MonthCoverage)
    -> [LocalDay: String]
  {
    guard foldsEquivalentMonths else { return [:] }
    let key = "\(calendar)|\(coverage.rawValue)"
    if folded[key] == nil { folded[key] = fold(calendar: calendar, coverage: coverage) }
    return folded[key]?[id] ?? [:]
  }

  /// Gives each month to the first zone that sweeps it among zones with equal offsets around
  /// it: zones that sweep every month first (they run every variant), then corpus order.
  private mutating func fold(calendar: String, coverage: MonthCoverage) -> [String: [LocalDay: String]] {
    guard let table = corpus.monthTables[calendar] else { return [:] }
    let order = corpus.zones.filter(\.sweepsEveryMonth) + corpus.zones.filter { !$0.sweepsEveryMonth }
    var owners: [OffsetHistory.Fingerprint: String] = [:]
    var result: [String: [LocalDay: String]] = [:]
    for zone in order {
      for day in candidates(calendar: calendar, zone: zone.id, coverage: coverage) {
        guard let month = table.month(startingOn: day),
          let fingerprint = zone.history?.fingerprint(of: month)
        else { continue }
        if let owner = owners[fingerprint] {
          result[zone.id, default: [:]][day] = owner
        } else {
          owners[fingerprint] = zone.id
        }
      }
    }
    return result
  }

  /// The months the zone's own transitions and role call for, before folding.
  private mutating func candidates(calendar: String, zone id: String, coverage: MonthCoverage)
    -> [LocalDay]
  {
    let key = "\(calendar)|\(id)|\(coverage.rawValue)"
    if let cached = candidateCache[key] { return cached }
    guard let table = corpus.monthTables[calendar], let zone = zones[id] else { return [] }
    let window = corpus.window
    var chosen = Set(
      (transitionDays[id] ?? []).filter(window.contains).compactMap(table.index(containing:)))
    if corpus.exhaustive || (zone.sweepsEveryMonth && coverage == .everyMonth) {
      chosen.formUnion(table.months.indices.filter {
        table.months[$0].endDay > window.lowerBound && table.months[$0].firstDay <= window.upperBound
      })
    } else if zone.sweepsEveryMonth {
      let januaries = corpus.years.map { LocalDay(year: $0, month: 1, day: 1) }
      chosen.formUnion(januaries.compactMap(table.index(containing:)))
    }
    let months = chosen.sorted().map { table.months[$0].firstDay }
    candidateCache[key] = months
    return months
  }
}
