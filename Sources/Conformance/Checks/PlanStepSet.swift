import Foundation
import ICUOracle

/// The cases of one plan step, as `results.json` records them.
struct PlanStepSet: Sendable {
  var firstWeekdays: Set<String>
  var months: Set<Int32>
  var variants: Set<String>

  func contains(_ id: CaseID) -> Bool {
    (id.firstWeekday.map { firstWeekdays.contains($0.description) } ?? firstWeekdays.isEmpty)
      && (id.month.map { months.contains($0.julianDay) } ?? months.isEmpty)
      && (id.variant.map { variants.contains($0) } ?? variants.isEmpty)
  }

  /// The group ids a case can belong to: its id without the dimensions that vary in a step.
  static func groupKeys(of id: CaseID) -> [String] {
    var keys: [String] = []
    var group = id
    group.month = nil
    group.variant = nil
    let withWeekday = group.description
    group.firstWeekday = nil
    keys.append(group.description)
    if withWeekday != keys[0] { keys.append(withWeekday) }
    return keys
  }

  /// A plan's steps as results record them, by group id (encoded on every core: a full
  /// sweep has ~56,000 steps of up to 2,400 months).
  static func index(_ plan: Plan) -> [String: String] {
    let chunks = stride(from: 0, to: plan.steps.count, by: 2048).map {
      $0..<min($0 + 2048, plan.steps.count)
    }
    let encoded = ParallelMap.run(chunks, workers: ProcessInfoCores.count) { range in
      plan.steps[range].map { ($0.group.description, encode($0)) }
    }
    return Dictionary(encoded.joined(), uniquingKeysWith: { a, _ in a })
  }

  /// The group id of an encoded step, or `nil` when the line is not one (four tab-separated
  /// fields); what a reader checks before keeping a plan it may never decode.
  static func group(ofEncoded line: String) -> String? {
    let utf8 = line.utf8
    guard utf8.count(where: { $0 == UInt8(ascii: "\t") }) == 3,
      let tab = utf8.firstIndex(of: UInt8(ascii: "\t")), tab != utf8.startIndex
    else { return nil }
    return String(line[..<tab])
  }

  /// One step as a line of `results.json`'s plan: group id, then first weekdays, months
  /// (Julian days, the first in base 36 and then base-36 deltas) and variants, tab-separated.
  static func encode(_ step: Plan.Step) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 + step.months.count * 3)
    bytes.append(contentsOf: step.group.description.utf8)
    bytes.append(UInt8(ascii: "\t"))
    for (index, weekday) in step.firstWeekdays.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: weekday.description.utf8)
    }
    bytes.append(UInt8(ascii: "\t"))
    var previous: Int32 = 0
    for (index, month) in step.months.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      // A small string: no allocation.
      bytes.append(contentsOf: String(month.julianDay - previous, radix: 36).utf8)
      previous = month.julianDay
    }
    bytes.append(UInt8(ascii: "\t"))
    for (index, variant) in step.variants.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: variant.utf8)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A step from its line (`encode`), at `index` of the plan; `nil` when the line is not one.
  static func step(_ line: String, index: Int, checkIndex: Int) -> Plan.Step? {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 4, let group = try? CaseID(parsing: fields[0]) else { return nil }
    var step = Plan.Step(checkIndex: checkIndex, index: index, group: group)
    for text in fields[1].split(separator: ",") {
      guard let weekday = FirstWeekdaySetting(String(text)) else { return nil }
      step.firstWeekdays.append(weekday)
    }
    var previous: Int32 = 0
    for part in fields[2].split(separator: ",") {
      guard let delta = Int32(part, radix: 36) else { return nil }
      previous += delta
      step.months.append(LocalDay(julianDay: previous))
    }
    step.variants = fields[3].split(separator: ",").map(String.init)
    return step
  }

  static func decode(_ line: String) -> (String, PlanStepSet)? {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 4 else { return nil }
    var months: Set<Int32> = []
    var previous: Int32 = 0
    for part in fields[2].split(separator: ",") {
      guard let delta = Int32(part, radix: 36) else { return nil }
      previous += delta
      months.insert(previous)
    }
    let list = { (text: String) in Set(text.split(separator: ",").map(String.init)) }
    return (fields[0], PlanStepSet(firstWeekdays: list(fields[1]), months: months,
                                   variants: list(fields[3])))
  }
}
