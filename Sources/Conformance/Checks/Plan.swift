import ICUOracle

/// What a run will evaluate: for each check, steps over only the dimensions it depends on.
///
/// Planning produces data and does not call the subject. A step is one group of cases (one
/// JUnit testcase, one unit of work for a worker); its cases are expanded when it runs, so a
/// plan for millions of cases stays small.
package struct Plan: Sendable {
  /// One group of cases of one check: the group's fixed dimensions and the values of the
  /// dimensions that vary inside it.
  package struct Step: Sendable {
    /// Index into `Plan.checks`.
    package var checkIndex: Int
    /// The step's place in the whole plan, the same in every shard: shards merge by it.
    package var index = 0
    /// The fixed dimensions (the rest are `nil`).
    package var group: CaseID
    /// Values of the dimensions that vary inside the step; empty when not a dimension.
    package var firstWeekdays: [FirstWeekdaySetting] = []
    package var months: [LocalDay] = []
    package var variants: [String] = []

    /// How many cases the step expands to.
    package var caseCount: Int {
      max(firstWeekdays.count, 1) * max(months.count, 1) * max(variants.count, 1)
    }

    /// The step's cases, months outermost, so consecutive cases share a month's geometry.
    package func cases() -> [CaseID] {
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
    package var name: String {
      group.dimensionValues.map(\.value).joined(separator: " · ")
    }
  }

  package var checks: [any Check]
  package var steps: [Step]
  package var coverage: [PlanCoverage]
  /// With a shard: every shard's cases and expected CPU seconds (`StepCosts`), in order.
  package var shards: [(cases: Int, cpuSeconds: Double)] = []

  package var caseCount: Int { steps.reduce(0) { $0 + $1.caseCount } }
}

extension Plan {
  /// Plans `checks` over `corpus`; with `shard` (k of n, 1-based), keeps the k-th of n
  /// slices balanced by `costs` (see `balance`).
  package static func make(corpus: Corpus, checks: [any Check],
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
    var stepsByCheck: [(steps: [Step], foldedZoneMonths: Int)] = []
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
      stepsByCheck.append((checkSteps, foldedZoneMonths))
    }
    // Each check's coverage apart, on every core (~7 % of planning a full sweep's CPU, on the
    // thread the workers wait for).
    let planned = stepsByCheck
    let coverage = ParallelMap.run(Array(checks.indices)) { checkIndex in
      var checkCoverage = PlanCoverage(check: checks[checkIndex], steps: planned[checkIndex].steps, corpus: corpus)
      checkCoverage.equivalentZoneMonths = planned[checkIndex].foldedZoneMonths
      return checkCoverage
    }
    var steps = planned.flatMap(\.steps)
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
  package static func equivalentMonths(corpus: Corpus, calendar: String, coverage: MonthCoverage)
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
  /// Per "calendar|coverage" and zone: the months it keeps, and those it leaves to an
  /// equivalent zone, with that zone.
  private var folded: [String: [String: FoldedZone]] = [:]

  private struct FoldedZone: Sendable {
    var kept: [LocalDay] = []
    var leftOut: [LocalDay: String] = [:]
  }

  /// Where the week-based year's edges are swept (`Corpus.utcZone`).
  let utcZone: String?

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
    utcZone = corpus.utcZone
    for zone in corpus.zones {
      zones[zone.id] = zone
      transitionDays[zone.id] = zone.transitionDays
    }
    foldsEquivalentMonths =
      !corpus.exhaustive && corpus.zones.allSatisfy { $0.history?.subject != nil }
  }

  mutating func months(calendar: String, zone id: String, coverage: MonthCoverage) -> [LocalDay] {
    folding(calendar: calendar, coverage: coverage)?[id]?.kept ?? candidates(calendar: calendar, zone: id, coverage: coverage)
  }

  /// The months of `zone` swept in an equivalent zone instead, with that zone's id (empty
  /// when nothing is folded).
  mutating func foldedMonths(calendar: String, zone id: String, coverage: MonthCoverage)
    -> [LocalDay: String]
  {
    folding(calendar: calendar, coverage: coverage)?[id]?.leftOut ?? [:]
  }

  /// The calendar's fold for `coverage`, folded now if not before; `nil` when months are not
  /// folded.
  private mutating func folding(calendar: String, coverage: MonthCoverage) -> [String: FoldedZone]? {
    guard foldsEquivalentMonths else { return nil }
    let key = "\(calendar)|\(coverage.rawValue)"
    if let done = folded[key] { return done }
    let done = fold(calendar: calendar, coverage: coverage)
    folded[key] = done
    return done
  }

  /// Gives each month to the first zone that sweeps it among zones with equal offsets around
  /// it: zones that sweep every month first (they run every variant), then corpus order.
  private mutating func fold(calendar: String, coverage: MonthCoverage) -> [String: FoldedZone] {
    guard let table = corpus.monthTables[calendar] else { return [:] }
    let order = corpus.zones.filter(\.sweepsEveryMonth) + corpus.zones.filter { !$0.sweepsEveryMonth }
    // One hash per zone and month, the fold's inner loop: inserting an owner finds the one
    // before it, if any.
    var owners: Set<Owner> = []
    var result: [String: FoldedZone] = [:]
    for zone in order {
      guard let history = zone.history else { continue }
      var mine = FoldedZone()
      for day in candidates(calendar: calendar, zone: zone.id, coverage: coverage) {
        guard let month = table.month(startingOn: day), let fingerprint = history.fingerprint(of: month)
        else {
          mine.kept.append(day)
          continue
        }
        let (isFirst, owner) = owners.insert(Owner(fingerprint: fingerprint, zone: zone.id))
        if isFirst { mine.kept.append(day) } else { mine.leftOut[day] = owner.zone }
      }
      result[zone.id] = mine
    }
    return result
  }

  /// The first zone that sweeps a month with these offsets; equal by the offsets alone.
  private struct Owner: Hashable {
    let fingerprint: OffsetHistory.Fingerprint
    let zone: String
    static func == (one: Owner, other: Owner) -> Bool { one.fingerprint == other.fingerprint }
    func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
  }

  /// The months the zone's own transitions and role call for, before folding.
  private mutating func candidates(calendar: String, zone id: String, coverage: MonthCoverage)
    -> [LocalDay]
  {
    let key = "\(calendar)|\(id)|\(coverage.rawValue)"
    if let cached = candidateCache[key] { return cached }
    guard let table = corpus.monthTables[calendar], let zone = zones[id] else { return [] }
    let window = corpus.window
    if corpus.exhaustive || (zone.sweepsEveryMonth && coverage == .everyMonth) {
      // Every month the window touches; a transition's month is one of them.
      let months = table.months
        .filter { $0.endDay > window.lowerBound && $0.firstDay <= window.upperBound }
        .map(\.firstDay)
      candidateCache[key] = months
      return months
    }
    let days = coverage == .midnightTransitionMonths ? zone.midnightTransitionDays : transitionDays[id] ?? []
    var chosen = Set(days.filter(window.contains).compactMap(table.index(containing:)))
    if zone.sweepsEveryMonth && coverage != .midnightTransitionMonths {
      let januaries = corpus.years.map { LocalDay(year: $0, month: 1, day: 1) }
      chosen.formUnion(januaries.compactMap(table.index(containing:)))
    }
    if coverage == .midnightTransitionMonths, id == utcZone {
      // One month a year, each year the next month of the Gregorian year: 68 years cover
      // every month about six times, starting on every weekday.
      let turns = corpus.years.map { LocalDay(year: $0, month: $0 % 12 + 1, day: 1) }
      chosen.formUnion(turns.filter(window.contains).compactMap(table.index(containing:)))
    }
    if coverage == .transitionAndYearEndMonths, id == utcZone {
      let edges = corpus.years.flatMap(Corpus.weekYearEdge).filter(window.contains)
      chosen.formUnion(edges.compactMap(table.index(containing:)))
    }
    let months = chosen.sorted().map { table.months[$0].firstDay }
    candidateCache[key] = months
    return months
  }
}
