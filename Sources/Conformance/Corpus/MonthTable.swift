import ICUOracle
import Synchronization

/// The months of one calendar system that overlap the run's window, in local days (from
/// libicu), with lookup by day.
package struct MonthTable: Sendable {
  package let calendar: String
  package let months: [CalendarMonth]

  package init(calendar: String, months: [CalendarMonth]) {
    self.calendar = calendar
    self.months = months
  }

  /// The index of the month containing `day`, or `nil` outside the table.
  package func index(containing day: LocalDay) -> Int? {
    var low = 0
    var high = months.count
    while low < high {
      let middle = (low + high) / 2
      if months[middle].endDay <= day { low = middle + 1 } else { high = middle }
    }
    return low < months.count && months[low].contains(day) ? low : nil
  }

  /// The month that starts on `day`, or `nil` when no month of this calendar starts there.
  package func month(startingOn day: LocalDay) -> CalendarMonth? {
    guard let index = index(containing: day), months[index].firstDay == day else { return nil }
    return months[index]
  }
}

/// The month tables of a run's calendars, by calendar identifier, from one ICU.
///
/// A run reads them all when its corpus loads (its plan chooses months from them). A worker
/// process reads one the first time a case of its calendar asks (`Corpus.load(_:eagerTables:)`):
/// reading all took ~40 % of a worker's start, paid again by each worker that replaces a
/// crashed one (a full sweep's shard replaces ~15), which then asks about one calendar or
/// two before the breaker stops its group. A table is the same whenever it is read.
package final class MonthTables: Sendable {
  /// The calendars a table can be read for.
  package let calendars: [String]
  /// The local days each table overlaps.
  package let days: ClosedRange<LocalDay>
  private let backend: ICUBackend
  private let read = Mutex<[String: MonthTable]>([:])

  /// - Parameter eagerly: read every table now, in parallel (an ICU failure is the caller's).
  init(calendars: [String], days: ClosedRange<LocalDay>, backend: ICUBackend, eagerly: Bool) throws(ICUError) {
    (self.calendars, self.days, self.backend) = (calendars, days, backend)
    guard eagerly else { return }
    let results = ParallelMap.run(calendars) { calendar -> Result<MonthTable, ICUError> in
      Result { () throws(ICUError) -> MonthTable in try Self.read(calendar, days: days, backend: backend) }
    }
    var tables: [String: MonthTable] = [:]
    for result in results {
      let table = try result.get()
      tables[table.calendar] = table
    }
    read.withLock { $0 = tables }
  }

  /// No tables (a corpus built by hand before its tables are read).
  package init() {
    (calendars, days, backend) = ([], LocalDay(year: 1970, month: 1, day: 1)...LocalDay(year: 1970, month: 1, day: 1), .system)
  }

  /// The calendar's table, read now if nobody asked for it before; `nil` for a calendar the
  /// run does not hold.
  package subscript(calendar: String) -> MonthTable? {
    // Asked for every case: the tables read so far first.
    if let table = read.withLock({ $0[calendar] }) { return table }
    guard calendars.contains(calendar) else { return nil }
    let table: MonthTable
    do {
      table = try Self.read(calendar, days: days, backend: backend)
    } catch {
      // The parent read this calendar's months from the same ICU before it started the
      // worker: failing now is a fault of the harness, which costs the worker's case.
      fatalError("\(backend) read the \(calendar) months at start but not now: \(error)")
    }
    return read.withLock { tables in
      if let first = tables[calendar] { return first }
      tables[calendar] = table
      return table
    }
  }

  private static func read(_ calendar: String, days: ClosedRange<LocalDay>, backend: ICUBackend)
    throws(ICUError) -> MonthTable
  {
    MonthTable(calendar: calendar, months: try ICU.months(of: calendar, overlapping: days, backend: backend))
  }
}
