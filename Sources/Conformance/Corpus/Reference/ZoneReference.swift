import Foundation
import ICUOracle
import Synchronization

/// One tz release's zones (`Corpora/reference/tz/<release>/transitions.tsv.gz`): read on first
/// use, each zone's table built when a triage first asks for it. Shared by a run's workers.
package final class ZoneRelease: Sendable {
  /// `2022e`, `2025b`, `2026f`, or `system` (the machine's zone files).
  package let release: String
  private let url: URL
  private let state = Mutex<(rows: [String: [[String]]]?, source: String, tables: [String: ZoneTable])>(
    (nil, "?", [:]))
  /// The tables of every release of the reference, shared: a zone that reads alike in two
  /// releases is one table, so a question put to both is seen to be one by identity.
  private let alike: ZoneTablesAlike

  init(release: String, url: URL, alike: ZoneTablesAlike = ZoneTablesAlike()) {
    self.release = release
    self.url = url
    self.alike = alike
  }

  /// `tz 2022e (tzdata==2022.5)`: how reports name this voice.
  package var name: String {
    let source = state.withLock { $0.source }
    let package = source.split(separator: " ").dropFirst().first.map(String.init) ?? source
    return release == "system" ? "tz system (\(source.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)))"
      : "tz \(release) (\(package))"
  }

  /// The zone's table, or `nil` when the release has no such zone.
  ///
  /// - Throws: `InputError` naming the file and line of a malformed row.
  package func table(_ zone: String) throws(InputError) -> ZoneTable? {
    try state.withLock { (state) throws(InputError) -> ZoneTable? in
      if let table = state.tables[zone] { return table }
      if state.rows == nil {
        // Read for the whole run, not for the case that first asks (seconds in a debug
        // build): off that case's clock, so its watchdog does not take the read for a hang.
        let (rows, source) = try CaseClock.offTheClock { () throws(InputError) in
          let file = try TSV.read(url, columns: 5)
          var rows: [String: [[String]]] = [:]
          for row in file.rows { rows[row.fields[0], default: []].append(row.fields) }
          return (rows, file.header["source"] ?? "?")
        }
        state.rows = rows
        state.source = source
      }
      guard let rows = state.rows?[zone], let first = rows.first else { return nil }
      func offset(_ fields: [String]) throws(InputError) -> (instant: Double, total: Int32, dst: Int32) {
        guard let seconds = Double(fields[1]), let offset = Int32(fields[2]) else {
          throw InputError("\(url.path): zone \(zone): '\(fields[1])', '\(fields[2])' are not seconds")
        }
        // The files say whether an offset is daylight time, not by how much: an hour.
        return (seconds * 1000, offset * 1000, fields[3] == "1" ? 3_600_000 : 0)
      }
      let initial = try offset(first)
      var transitions: [ZoneTransition] = []
      var before = initial
      for fields in rows.dropFirst() {
        let after = try offset(fields)
        transitions.append(ZoneTransition(instant: after.instant, offsetBefore: before.total,
                                          offsetAfter: after.total, dstBefore: before.dst,
                                          dstAfter: after.dst))
        before = after
      }
      // The files start at 1970-01-01; the same offset is taken for the days before it that
      // a month of the window can reach.
      let table = alike.shared(ZoneTable(zone: zone, initial: (initial.total, initial.dst), transitions: transitions,
                                         span: (-40 * 86_400_000)...(2_145_916_800_000 + 40 * 86_400_000)))
      state.tables[zone] = table
      return table
    }
  }
}

/// One table per zone for all the tz releases whose tables for it answer alike (most zones
/// read the same in every release).
package final class ZoneTablesAlike: Sendable {
  private let tables = Mutex<[String: [ZoneTable]]>([:])

  package init() {}

  /// The table already kept for `table`'s zone that answers as it does, else `table`, kept.
  func shared(_ table: ZoneTable) -> ZoneTable {
    tables.withLock { tables in
      if let kept = tables[table.zone]?.first(where: { $0.answersAlike(table) }) { return kept }
      tables[table.zone, default: []].append(table)
      return table
    }
  }
}
