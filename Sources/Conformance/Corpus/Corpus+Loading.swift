import Foundation
import ICUOracle

/// A failure of the harness itself (not of the subject, not of the input): exit code 3.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

extension Corpus {
  /// The corpus files, relative to the corpora directory.
  public enum Files {
    public static let coreLocales = "locales-core.txt"
    public static let calendars = "calendars.txt"
    public static let coreZones = "zones-core.txt"
  }

  /// Validates a request against libicu and reads the structure the plan needs.
  ///
  /// - Throws: `InputError` for any value libicu does not know, naming it (and its
  ///   `file:line` when it came from a file); `HarnessError` when ICU itself fails.
  public static func load(_ request: CorpusRequest) throws -> Corpus {
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
      locales: locales, calendars: calendars.selected, firstWeekdays: request.firstWeekdays,
      zones: [], years: request.years,
      transitionSample: request.transitionSample ?? (request.zones == .core ? .shapes : .all),
      monthTables: [:], localeCatalog: catalog)
    corpus.zones = try harness { try corpus.readTransitions(zoneEntries) }
    corpus.monthTables = try harness { try corpus.readMonthTables() }
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

  static func loadCalendars(_ request: CorpusRequest) throws
    -> (selected: [String], all: [String])
  {
    let known = try CorpusFile.load(
      request.corporaDirectory.appendingPathComponent(Files.calendars))
    let all = known.map(\.value)
    switch request.calendars {
    case .core, .all:
      return (all, all)
    case .list, .file:
      let entries = try entries(request.calendars, coreFile: Files.calendars,
                                option: "--calendars", directory: request.corporaDirectory)
      for entry in entries where !all.contains(entry.value) {
        throw InputError(
          "\(entry.location): unknown calendar '\(entry.value)' (known: \(all.joined(separator: ", ")))")
      }
      return (entries.map(\.value), all)
    }
  }

  static func loadLocales(_ request: CorpusRequest, catalog: LocaleCatalog,
                          calendars: Set<String>) throws -> [Locale]
  {
    let entries: [CorpusEntry]
    if request.locales == .all {
      entries = catalog.available.map {
        CorpusEntry(value: $0, reason: "available in libicu", location: "libicu")
      }
    } else {
      entries = try Self.entries(request.locales, coreFile: Files.coreLocales,
                                 option: "--locales", directory: request.corporaDirectory)
    }
    return try entries.map { entry in
      let icuID: String
      do {
        icuID = try catalog.icuID(for: entry.value)
      } catch {
        throw InputError("\(entry.location): '\(entry.value)' is not a well-formed locale id")
      }
      guard catalog.isKnown(icuID) else {
        throw InputError("\(entry.location): unknown locale '\(entry.value)' (libicu has no data for it)")
      }
      if let calendar = try? catalog.keyword("calendar", in: icuID), !calendars.contains(calendar) {
        throw InputError("\(entry.location): '\(entry.value)' names unknown calendar '\(calendar)'")
      }
      if let fw = try? catalog.keyword("fw", in: icuID),
        FirstDayOfWeek.weekday(forKeyword: fw) == nil
      {
        throw InputError("\(entry.location): '\(entry.value)' has fw=\(fw); use sun, mon … sat")
      }
      return Locale(spelling: entry.value, icuID: icuID, reason: entry.reason)
    }
  }

  static func loadZoneEntries(_ request: CorpusRequest) throws -> [CorpusEntry] {
    let catalog = ZoneCatalog()
    if request.zones == .all {
      let ids = try harness { try catalog.ids(.canonical) }
      return ids.map { CorpusEntry(value: $0, reason: "canonical zone in libicu", location: "libicu") }
    }
    let entries = try entries(request.zones, coreFile: Files.coreZones, option: "--time-zones",
                              directory: request.corporaDirectory)
    for entry in entries where catalog.canonicalID(of: entry.value) == nil {
      throw InputError(
        "\(entry.location): unknown time zone '\(entry.value)' (not a system zone of libicu, "
          + "which would silently use GMT for it)")
    }
    return entries
  }

  /// Reads every zone's transitions in the window (in parallel: zones are independent).
  func readTransitions(_ entries: [CorpusEntry]) throws -> [Zone] {
    let from = window.lowerBound.adding(days: -1).utcMidnightMillis
    let to = window.upperBound.adding(days: 2).utcMidnightMillis
    let sample = transitionSample
    let results = ParallelMap.run(entries) { entry -> Result<Zone, ICUError> in
      Result { () throws(ICUError) -> Zone in
        let timeline = try ZoneTimeline(zone: entry.value)
        let all = try timeline.transitions(from: from, to: to)
        return Zone(id: entry.value, reason: entry.reason,
                    transitions: sample == .all ? all : Self.firstAndLastOfEachShape(all),
                    transitionsInWindow: all.count)
      }
    }
    return try results.map { try $0.get() }
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

  /// Reads every calendar's months over the window (in parallel: calendars are independent).
  func readMonthTables() throws -> [String: MonthTable] {
    let window = self.window
    let results = ParallelMap.run(calendars) { calendar -> Result<MonthTable, ICUError> in
      Result { () throws(ICUError) -> MonthTable in
        MonthTable(calendar: calendar, months: try ICU.months(of: calendar, overlapping: window))
      }
    }
    var tables: [String: MonthTable] = [:]
    for result in results {
      let table = try result.get()
      tables[table.calendar] = table
    }
    return tables
  }
}
