import CZlib
import Foundation
import ICUOracle

/// The third voice of triage: values from published releases, generated into
/// `Corpora/reference/` by `Scripts/reference/generate.py` (CLDR through babel releases, IANA tz
/// through PyPI's tzdata, calendar arithmetic and official tables), each file naming its source
/// and release. Two ICUs can share a mistake or carry patched data; a release's own data
/// tells which side departs from what it claims to carry.
package struct ReferenceData: Sendable {
  /// One CLDR release's week data and narrow weekday names, by the locale spelling the
  /// harness sweeps (`zh_CN`, `en-US-u-fw-mon`).
  package struct CLDRRelease: Sendable {
    /// The major release, `42`.
    package var release: String
    /// Where the values come from: `babel 2.12.1 (PyPI), which bundles CLDR 42 …`.
    package var source: String
    /// The first day of the week as ICU numbers it (Sunday 1 … Saturday 7), by UTS #35.
    package var firstDay: [String: Int]
    /// The spellings whose first day their `fw` keyword sets (UTS #35: it overrides the
    /// region's week data, and a calendar's own rule such as ISO 8601's Monday).
    package var firstDayByKeyword: Set<String>
    /// Stand-alone narrow weekday names, Sunday first.
    package var narrowWeekdays: [String: [String]]
    /// The script a locale's texts are written in (ISO 15924, UTS #35: its script subtag,
    /// else its likely one), where the release carries `script.tsv`.
    package var scripts: [String: String] = [:]

    /// `CLDR 42 (babel 2.12.1)`: how reports name this voice.
    package var name: String {
      let tool = source.split(separator: " ").prefix(2).joined(separator: " ")
      return "CLDR \(release) (\(tool))"
    }
  }

  /// One calendar's months from a published formula or official table: one release only,
  /// which both sides are held to.
  package struct CalendarTable: Sendable {
    package var calendar: String
    /// `hijridate==2.6.0 (hijridate.ummalqura.MONTH_STARTS)`.
    package var source: String
    /// First days, in order, and each month's length in days.
    package var starts: [LocalDay]
    package var lengths: [Int32]

    /// How reports name this voice: `islamic-umalqura months (hijridate==2.6.0)`.
    package var name: String {
      "\(calendar) months (\(source.split(separator: " ").first.map(String.init) ?? source))"
    }

    /// The month holding `day`, or `nil` outside the table.
    package func month(containing day: LocalDay) -> (firstDay: LocalDay, length: Int32)? {
      guard let month = starts.lastPosition(notAfter: day), day < starts[month].adding(days: lengths[month])
      else { return nil }
      return (starts[month], lengths[month])
    }
  }

  /// Every CLDR release in the reference, by major release.
  package var cldr: [String: CLDRRelease]
  /// Month tables by ICU calendar id (`calendars/<id>.tsv.gz`).
  package var calendars: [String: CalendarTable] = [:]
  /// Unicode's Script property, for the script a text's letters are written in.
  package var letterScripts: LetterScripts?
  /// tz releases by name (`2022e`, `system`), and the one each ICU claims (the subject's is
  /// the one it declares, `Subject.releases`).
  package var zones: [String: ZoneRelease] = [:]
  package var oracleTZ: String?
  package var foundationTZ: String?
  /// The run's zone for UTC: `UTC`, or the zone the run folds it into.
  package var utcZone: String?
  /// The CLDR release each ICU claims: libicu's and Foundation's ICU's (major release).
  package var oracleCLDR: String
  package var foundationCLDR: String?

  /// The newest CLDR release the reference carries.
  package var newestCLDR: CLDRRelease? {
    cldr.values.max { (Int($0.release) ?? 0) < (Int($1.release) ?? 0) }
  }

  static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

  /// Reads `directory` (`Corpora/reference`), or `nil` when the corpora have none.
  ///
  /// - Parameters:
  ///   - oracleCLDR, foundationCLDR: each ICU's CLDR version as it states it (`42.0`).
  /// - Throws: `InputError` naming the file and line of a malformed row (exit 2).
  package static func load(directory: URL, oracleCLDR: String, foundationCLDR: String?)
    throws(InputError) -> ReferenceData?
  {
    let cldrDirectory = directory.appendingPathComponent("cldr")
    guard let releases = try? FileManager.default.contentsOfDirectory(atPath: cldrDirectory.path)
    else { return nil }
    var cldr: [String: CLDRRelease] = [:]
    for release in releases.sorted() where Int(release) != nil {
      let folder = cldrDirectory.appendingPathComponent(release)
      let days = try TSV.read(folder.appendingPathComponent("first-day.tsv"), columns: 4)
      let names = try TSV.read(folder.appendingPathComponent("narrow-weekdays.tsv"), columns: 9)
      var firstDay: [String: Int] = [:]
      var byKeyword: Set<String> = []
      for row in days.rows {
        if row.fields[2].hasPrefix("fw=") { byKeyword.insert(row.fields[0]) }
        guard let day = weekdays[row.fields[1]] else {
          throw InputError("\(row.location): first day '\(row.fields[1])' is not sun … sat")
        }
        firstDay[row.fields[0]] = day
      }
      var narrow: [String: [String]] = [:]
      for row in names.rows { narrow[row.fields[0]] = Array(row.fields[1...7]) }
      cldr[release] = CLDRRelease(release: release, source: days.header["source"] ?? "?",
                                  firstDay: firstDay, firstDayByKeyword: byKeyword,
                                  narrowWeekdays: narrow)
      let scripts = folder.appendingPathComponent("script.tsv")
      if FileManager.default.fileExists(atPath: scripts.path) {
        for row in try TSV.read(scripts, columns: 3).rows {
          cldr[release]?.scripts[row.fields[0]] = row.fields[1]
        }
      }
    }
    var data = ReferenceData(cldr: cldr, oracleCLDR: major(oracleCLDR),
                             foundationCLDR: foundationCLDR.map(major))
    let zoneDirectory = directory.appendingPathComponent("tz")
    let alike = ZoneTablesAlike()
    for release in ((try? FileManager.default.contentsOfDirectory(atPath: zoneDirectory.path)) ?? []).sorted() {
      let url = zoneDirectory.appendingPathComponent(release).appendingPathComponent("transitions.tsv.gz")
      if FileManager.default.fileExists(atPath: url.path) {
        data.zones[release] = ZoneRelease(release: release, url: url, alike: alike)
      }
    }
    let scripts = directory.appendingPathComponent("unicode").appendingPathComponent("scripts.tsv")
    if FileManager.default.fileExists(atPath: scripts.path) {
      data.letterScripts = try LetterScripts(scripts)
    }
    let calendarDirectory = directory.appendingPathComponent("calendars")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: calendarDirectory.path)) ?? []
    for file in files.sorted() where file.hasSuffix(".tsv.gz") {
      let table = try TSV.read(calendarDirectory.appendingPathComponent(file), columns: 5)
      let calendar = String(file.dropLast(".tsv.gz".count))
      var starts: [LocalDay] = []
      var lengths: [Int32] = []
      for row in table.rows {
        guard let day = LocalDay(isoText: row.fields[3]), let length = Int32(row.fields[4]), length > 0
        else { throw InputError("\(row.location): expected a first day yyyy-mm-dd and a length in days") }
        guard starts.last.map({ $0 < day }) ?? true else {
          throw InputError("\(row.location): month starts are not in order")
        }
        starts.append(day)
        lengths.append(length)
      }
      data.calendars[calendar] = CalendarTable(calendar: calendar, source: table.header["source"] ?? "?",
                                               starts: starts, lengths: lengths)
    }
    return data
  }

  /// `42` of `42.0`.
  static func major(_ version: String) -> String {
    String(version.prefix { $0 != "." })
  }
}

/// A reference file: `# key: value` header lines, then tab-separated rows.
struct TSV {
  struct Row {
    var fields: [String]
    /// `file:line`, for errors.
    var location: String
  }

  var header: [String: String]
  var rows: [Row]

  /// - Throws: `InputError` naming the file, or the file:line of a row without `columns`
  ///   fields.
  static func read(_ url: URL, columns: Int) throws(InputError) -> TSV {
    guard let data = url.pathExtension == "gz" ? gunzip(url.path) : FileManager.default.contents(atPath: url.path),
      let text = String(data: data, encoding: .utf8)
    else { throw InputError("cannot read reference file \(url.path)") }
    var header: [String: String] = [:]
    var rows: [Row] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.isEmpty {
      if line.hasPrefix("# ") {
        let body = line.dropFirst(2)
        if let colon = body.range(of: ": "), header[String(body[..<colon.lowerBound])] == nil {
          header[String(body[..<colon.lowerBound])] = String(body[colon.upperBound...])
        }
        continue
      }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == columns else {
        throw InputError("\(url.path):\(index + 1): expected \(columns) tab-separated fields, found \(fields.count)")
      }
      rows.append(Row(fields: fields, location: "\(url.path):\(index + 1)"))
    }
    return TSV(header: header, rows: rows)
  }
}

/// A gzip file's bytes, or `nil` when it cannot be read.
private func gunzip(_ path: String) -> Data? {
  guard let file = gzopen(path, "rb") else { return nil }
  defer { gzclose(file) }
  var data = Data()
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
    if count < 0 { return nil }
    if count == 0 { return data }
    data.append(contentsOf: chunk[0..<Int(count)])
  }
}
