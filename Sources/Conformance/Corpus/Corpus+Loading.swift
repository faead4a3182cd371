import Foundation
import ICUOracle

extension Corpus {
  /// The corpus files, relative to the corpora directory.
  package enum Files {
    package static let coreLocales = "locales-core.txt"
    package static let calendars = "calendars.txt"
    package static let coreZones = "zones-core.txt"
    package static let localeVariants = "locale-variants.txt"
    package static let waivers = "known-differences.json"
  }

  /// Validates a request against libicu and reads the structure the plan needs.
  ///
  /// - Throws: `InputError` for any value libicu does not know, naming it (and its
  ///   `file:line` when it came from a file); `HarnessError` when ICU itself fails.
  ///
  /// - Parameters:
  ///   - eagerTables: read every month table now (the plan chooses months from them); a
  ///     worker process, which plans nothing, reads each when a case first asks.
  ///   - known: the zones as a worker's parent read them (`WorkerSetup`), instead of reading
  ///     every zone's transitions from both ICUs, which a worker's checks never look at.
  package static func load(_ request: CorpusRequest, eagerTables: Bool = true,
                          known: KnownZones? = nil) throws -> Corpus {
    let catalog = try harness { try LocaleCatalog() }
    guard Self.supportedYears(request.years) else {
      throw InputError(
        "--years \(request.years.lowerBound)...\(request.years.upperBound) is outside "
          + "\(CorpusRequest.supportedYears.lowerBound)...\(CorpusRequest.supportedYears.upperBound)")
    }
    let calendars = try loadCalendars(request)
    let locales = try loadLocales(request, catalog: catalog, calendars: Set(calendars.all))
    let zoneEntries = try loadZoneEntries(request)
    guard !request.firstWeekdays.isEmpty else {
      throw InputError("--first-weekdays selects nothing")
    }
    var corpus = Corpus(
      locales: locales, calendars: calendars.selected,
      invariantOnlyCalendars: calendars.invariantOnly, firstWeekdays: request.firstWeekdays,
      zones: [], years: request.years,
      transitionSample: request.transitionSample ?? (request.zones == .core ? .shapes : .all),
      exhaustive: request.exhaustive, monthTables: MonthTables(), localeCatalog: catalog)
    if let known {
      corpus.utcZone = known.utcZone
      corpus.zones = known.zones.map { given in
        var zone = Zone(id: given.id, reason: "read by the worker's parent", transitions: [], transitionsInWindow: 0)
        (zone.sweepsEveryMonth, zone.knownClass) = (given.sweepsEveryMonth, given.zoneClass)
        return zone
      }
    } else {
      corpus.zones = try harness {
        try corpus.readZones(
          zoneEntries,
          representatives: (request.monthSweep ?? (request.zones == .all ? .perOffset : .transitionFree))
            == .perOffset)
      }
      corpus.utcZone = Corpus.standingForUTC(corpus.zones)
    }
    corpus.monthTables = try harness { try corpus.readMonthTables(eagerly: eagerTables) }
    corpus.oracleMode = request.oracleMode
    if request.oracleMode == .tables {
      corpus.zoneTables = ZoneTables(zones: corpus.zones.map(\.id), days: corpus.zoneTableDays)
    }
    if let foundation = ICUBackend.foundation {
      corpus.triage = try harness {
        TriageData(localeCatalog: try LocaleCatalog(backend: foundation),
                   monthTables: try corpus.readMonthTables(backend: foundation, eagerly: eagerTables))
      }
    } else {
      corpus.triageProblem = ICUBackend.foundationProblem ?? "Foundation's ICU is not reachable"
    }
    let oracle = try harness { try ICUBackend.system.versions() }
    let foundationCLDR = try ICUBackend.foundation.map { backend in try harness { try backend.versions().cldr } }
    corpus.reference = try ReferenceData.load(
      directory: request.corporaDirectory.appendingPathComponent("reference"),
      oracleCLDR: oracle.cldr, foundationCLDR: foundationCLDR)
    corpus.reference?.oracleTZ = oracle.tz
    // Foundation claims the tz release it states; its formatter also reads the system's
    // zone files (the `system` release).
    corpus.reference?.foundationTZ = TimeZone.timeZoneDataVersion
    corpus.reference?.utcZone = corpus.utcZone
    return corpus
  }

  static func supportedYears(_ years: ClosedRange<Int>) -> Bool {
    CorpusRequest.supportedYears.contains(years.lowerBound)
      && CorpusRequest.supportedYears.contains(years.upperBound)
  }

  /// Runs an oracle step whose ICU failures are the harness's, not the input's.
  static func harness<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ICUError {
      throw HarnessError("libicu: \(error)")
    }
  }

  /// Entries of a selection: from the named core file, from a user file, or from a list.
  static func entries(_ selection: CorpusRequest.Selection, coreFile: String, option: String,
                      directory: URL) throws -> [CorpusEntry]
  {
    switch selection {
    case .core, .all:
      return try CorpusFile.load(directory.appendingPathComponent(coreFile))
    case .list(let values):
      guard !values.isEmpty, !values.contains(where: \.isEmpty) else {
        throw InputError("\(option) has an empty value")
      }
      return values.map { CorpusEntry(value: $0, reason: "given on the command line",
                                      location: "\(option) \($0)") }
    case .file(let path):
      let url = URL(fileURLWithPath: path)
      let text: String
      do {
        text = try String(contentsOf: url, encoding: .utf8)
      } catch {
        throw InputError("\(option) @\(path): cannot read the file")
      }
      // A user's list may omit reasons: fill them in so the corpus format's rule holds.
      let withReasons = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        line -> String in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.contains("|")
          ? String(line) : "\(trimmed) | listed in \(path)"
      }.joined(separator: "\n")
      let entries = try CorpusFile.parse(withReasons, name: path)
      guard !entries.isEmpty else { throw InputError("\(option) @\(path) lists nothing") }
      return entries
    }
  }

  /// The calendars of the run: `core` is the shared set of `calendars.txt`; `all` adds the
  /// ones Foundation offers beyond it, and libicu decides which of those it lacks.
  static func loadCalendars(_ request: CorpusRequest) throws
    -> (selected: [String], all: [String], invariantOnly: Set<String>)
  {
    let shared = try CorpusFile.load(
      request.corporaDirectory.appendingPathComponent(Files.calendars)).map(\.value)
    let all = shared + CalendarIdentifiers.foundationExtras.filter { !shared.contains($0) }
    let selected: [String]
    switch request.calendars {
    case .core:
      selected = shared
    case .all:
      selected = all
    case .list, .file:
      let entries = try entries(request.calendars, coreFile: Files.calendars,
                                option: "--calendars", directory: request.corporaDirectory)
      for entry in entries where !all.contains(entry.value) {
        throw InputError(
          "\(entry.location): unknown calendar '\(entry.value)'"
          + "\(Suggestion.didYouMean(entry.value, among: all)) (known: \(all.joined(separator: ", ")))")
      }
      selected = entries.map(\.value)
    }
    let invariantOnly = try selected.filter { calendar in
      try !shared.contains(calendar) && !harness { try libicuHas(calendar: calendar) }
    }
    return (selected, all, Set(invariantOnly))
  }

  /// Whether libicu opens `calendar` as itself (it silently falls back to Gregorian).
  static func libicuHas(calendar: String) throws -> Bool {
    try ICUCalendar(locale: "en_US_POSIX@calendar=\(calendar)", zone: "GMT").isSystem(calendar)
  }

  static func loadLocales(_ request: CorpusRequest, catalog: LocaleCatalog,
                          calendars: Set<String>) throws -> [Locale]
  {
    let entries: [CorpusEntry]
    if request.locales == .all {
      let variants = try CorpusFile.load(
        request.corporaDirectory.appendingPathComponent(Files.localeVariants))
      entries = catalog.available.map {
        CorpusEntry(value: $0, reason: "available in libicu", location: "libicu")
      } + variants
    } else {
      entries = try Self.entries(request.locales, coreFile: Files.coreLocales,
                                 option: "--locales", directory: request.corporaDirectory)
    }
    // What Foundation's own ICU has data for: a locale it lacks is skipped, never dropped.
    let subjectLocales = try? ICUBackend.foundation.map { try LocaleCatalog(backend: $0) }
    return try entries.map { entry in
      let icuID: String
      do {
        icuID = try catalog.icuID(for: entry.value)
      } catch {
        throw InputError("\(entry.location): '\(entry.value)' is not a well-formed locale id")
      }
      guard catalog.isKnown(icuID) else {
        throw InputError("\(entry.location): unknown locale '\(entry.value)' (libicu has no data for it)"
          + Suggestion.didYouMean(entry.value, among: catalog.available))
      }
      if let calendar = try? catalog.keyword("calendar", in: icuID), !calendars.contains(calendar) {
        throw InputError("\(entry.location): '\(entry.value)' names unknown calendar '\(calendar)'")
      }
      if let fw = try? catalog.keyword("fw", in: icuID),
        FirstDayOfWeek.weekday(forKeyword: fw) == nil
      {
        throw InputError("\(entry.location): '\(entry.value)' has fw=\(fw); use sun, mon … sat")
      }
      var gap: String?
      if let subjectLocales, !subjectLocales.isKnown(icuID) {
        gap = "Foundation's ICU has no data for locale '\(entry.value)'"
      }
      return Locale(spelling: entry.value, icuID: icuID, reason: entry.reason, foundationGap: gap)
    }
  }

  static func loadZoneEntries(_ request: CorpusRequest) throws -> [CorpusEntry] {
    let catalog = ZoneCatalog()
    if request.zones == .all {
      let ids = try harness { try catalog.ids(.any) }
      return ids.map { CorpusEntry(value: $0, reason: "system zone of libicu", location: "libicu") }
    }
    let entries = try entries(request.zones, coreFile: Files.coreZones, option: "--time-zones",
                              directory: request.corporaDirectory)
    for entry in entries where catalog.canonicalID(of: entry.value) == nil {
      let known = (try? harness { try catalog.ids(.any) }) ?? []
      throw InputError(
        "\(entry.location): unknown time zone '\(entry.value)' (not a system zone of libicu, "
          + "which would silently use GMT for it)" + Suggestion.didYouMean(entry.value, among: known))
    }
    return entries
  }

  /// Reads every zone's transitions in the window (in parallel: zones are independent),
  /// folds aliases whose transitions equal their canonical zone's into it, and marks the
  /// zones that sweep every month.
  ///
  /// - Parameter representatives: mark one zone per standard offset (the one with fewest
  ///   transitions; UTC for +00:00) instead of only the zones without transitions.
  func readZones(_ entries: [CorpusEntry], representatives: Bool) throws -> [Zone] {
    let from = window.lowerBound.adding(days: -1).utcMidnightMillis
    let to = window.upperBound.adding(days: 2).utcMidnightMillis
    let sample = transitionSample
    let read = try ParallelMap.run(entries) { entry -> Result<ZoneReading, ICUError> in
      Result { () throws(ICUError) -> ZoneReading in
        let timeline = try ZoneTimeline(zone: entry.value)
        let all = try timeline.transitions(from: from, to: to)
        let end = try timeline.offset(at: to)
        var zone = Zone(id: entry.value, reason: entry.reason,
                        transitions: sample == .all ? all : Self.firstAndLastOfEachShape(all),
                        transitionsInWindow: all.count)
        zone.standardOffset = end.total - end.dst
        let initial = try timeline.offset(at: from)
        var history = OffsetHistory(
          oracle: .init(initial: .init(total: initial.total, dst: initial.dst), transitions: all))
        if let foundation = ICUBackend.foundation,
          let subject = try? ZoneTimeline(zone: entry.value, backend: foundation),
          let theirs = try? subject.transitions(from: from, to: to),
          let start = try? subject.offset(at: from)
        {
          let ours = Set(all.map(\.instant))
          let only = theirs.filter { !ours.contains($0.instant) }
          zone.subjectOnlyTransitions = sample == .all ? only : Self.firstAndLastOfEachShape(only)
          history.subject = .init(initial: .init(total: start.total, dst: start.dst),
                                  transitions: theirs)
        }
        zone.history = history
        return ZoneReading(zone: zone, all: all,
                           canonical: ZoneCatalog().canonicalID(of: entry.value) ?? entry.value)
      }
    }.map { try $0.get() }

    var index: [String: ZoneReading] = [:]
    for reading in read { index[reading.zone.id] = reading }
    var zones: [Zone] = []
    var folded: [String: [String]] = [:]
    for reading in read {
      if reading.canonical != reading.zone.id, let canonical = index[reading.canonical],
        canonical.all == reading.all, canonical.zone.standardOffset == reading.zone.standardOffset
      {
        folded[reading.canonical, default: []].append(reading.zone.id)
      } else {
        zones.append(reading.zone)
      }
    }
    for position in zones.indices { zones[position].aliases = folded[zones[position].id] ?? [] }

    if representatives {
      var chosen: [Int32: Int] = [:]
      for (position, zone) in zones.enumerated() {
        guard let current = chosen[zone.standardOffset] else {
          chosen[zone.standardOffset] = position
          continue
        }
        let best = zones[current]
        let better = zone.id == "UTC"
          || (best.id != "UTC"
            && (zone.transitionsInWindow, zone.id) < (best.transitionsInWindow, best.id))
        if better { chosen[zone.standardOffset] = position }
      }
      for position in chosen.values { zones[position].sweepsEveryMonth = true }
    } else {
      for position in zones.indices where zones[position].transitionsInWindow == 0 {
        zones[position].sweepsEveryMonth = true
      }
    }
    return zones
  }

  static func firstAndLastOfEachShape(_ transitions: [ZoneTransition]) -> [ZoneTransition] {
    var first: [String: Int] = [:]
    var last: [String: Int] = [:]
    for (index, transition) in transitions.enumerated() {
      let shape = transition.shape
      if first[shape] == nil { first[shape] = index }
      last[shape] = index
    }
    let kept = Set(first.values).union(last.values)
    return transitions.indices.filter(kept.contains).map { transitions[$0] }
  }

  /// The days a zone table spans: the window and 70 days beyond each end (a month's
  /// neighbours and the pairs a check forms around a transition).
  var zoneTableDays: ClosedRange<LocalDay> {
    window.lowerBound.adding(days: -70)...window.upperBound.adding(days: 70)
  }

  /// Every calendar's months over the window and two months beyond each end (so a month's
  /// neighbours are known for paging), read now in parallel or each when first asked.
  func readMonthTables(backend: ICUBackend = .system, eagerly: Bool = true) throws -> MonthTables {
    let padded = window.lowerBound.adding(days: -62)...window.upperBound.adding(days: 62)
    // Gregorian months also name the months of checks whose subject has no calendar.
    let calendars = oracleCalendars.contains("gregorian") ? oracleCalendars : oracleCalendars + ["gregorian"]
    return try MonthTables(calendars: calendars, days: padded, backend: backend, eagerly: eagerly)
  }
}

/// One zone as read from libicu, before aliases are folded.
struct ZoneReading: Sendable {
  var zone: Corpus.Zone
  /// Every transition in the window, whatever the sample.
  var all: [ZoneTransition]
  var canonical: String
}

extension Corpus {
  /// A zone as a worker's parent read it: its class for the report's matrices, and whether
  /// the plan sweeps every month there.
  package struct KnownZone: Codable, Sendable, Equatable {
    var id: String
    var zoneClass: String
    var sweepsEveryMonth: Bool
  }

  /// The zones as a worker's parent read them, and the one that stands for UTC.
  package struct KnownZones: Sendable {
    var zones: [KnownZone]
    var utcZone: String?
  }
}
