import Foundation
import ICUOracle

/// A previous run's `results.json`, read to classify this run's cases against it.
///
/// Only what classification needs is kept: each failing case's status and actual value
/// (as a digest, `Value.digest`), and the plan (which cases that run swept), so a case is `fixed` or a
/// `new-failure` only if both runs swept it.
public struct Baseline: Sendable {
  /// How a case compares with the baseline.
  public enum Class: String, Sendable, CaseIterable {
    /// Fails now, passed in the baseline (which swept it).
    case newFailure = "new-failure"
    /// Failed in the baseline, passes now.
    case fixed
    /// Fails in both, with the same actual value.
    case stillFailing = "still-failing"
    /// Fails in both, with a different actual value.
    case changed
    /// Fails now; the baseline did not sweep it.
    case newCase = "new-case"
    /// Failed in the baseline; this run does not sweep it.
    case removed
  }

  public var path: String
  public var started: String
  public var versions: String
  var failures: [String: (status: String, actualDigest: UInt64)]
  var steps: [String: PlanStepSet]

  /// This baseline by name only (see `init(path:started:versions:)`).
  public var withoutTables: Baseline { Baseline(path: path, started: started, versions: versions) }

  /// How many cases failed in the baseline.
  public var failureCount: Int { failures.count }

  /// Whether the baseline run swept a case.
  public func swept(_ id: CaseID) -> Bool {
    // A step fixes some dimensions and varies the rest; try each way of splitting the id.
    for candidate in PlanStepSet.groupKeys(of: id) {
      if let step = steps[candidate] { return step.contains(id) }
    }
    return false
  }

  /// The class of a case that ended with `outcome`, or `nil` for a pass the baseline did
  /// not fail either.
  public func classify(_ id: CaseID, _ outcome: Outcome) -> Class? {
    let key = id.description
    let failing = outcome.status == .failed || outcome.status == .errored
      || outcome.status == .waived
    if let previous = failures[key] {
      guard failing else { return .fixed }
      return previous.actualDigest == outcome.actual.digest ? .stillFailing : .changed
    }
    guard failing else { return nil }
    return swept(id) ? .newFailure : .newCase
  }

  /// The baseline's failing cases this plan does not sweep.
  public func removed(from plan: Plan) -> [String] {
    removed(fromSteps: PlanStepSet.index(plan))
  }

  /// The baseline's failing cases that steps (as results.json's plan records them) do not
  /// sweep.
  func removed(fromSteps current: [String: PlanStepSet]) -> [String] {
    failures.keys.sorted().filter { text in
      guard let id = try? CaseID(parsing: text) else { return true }
      return !PlanStepSet.groupKeys(of: id).contains { current[$0]?.contains(id) == true }
    }
  }
}

extension Baseline {
  /// A baseline known by name only (path, start, versions), for a process that reports on
  /// it without classifying: an isolated run's parent, a merge of shards. (In an extension,
  /// so the memberwise initializer stays.)
  init(path: String, started: String, versions: String) {
    self.init(path: path, started: started, versions: versions, failures: [:], steps: [:])
  }
}

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

  static func index(_ plan: Plan) -> [String: PlanStepSet] {
    var index: [String: PlanStepSet] = [:]
    for step in plan.steps {
      index[step.group.description] = PlanStepSet(
        firstWeekdays: Set(step.firstWeekdays.map(\.description)),
        months: Set(step.months.map(\.julianDay)), variants: Set(step.variants))
    }
    return index
  }

  /// One step as a line of `results.json`'s plan: group id, then first weekdays, months
  /// (Julian days, the first in base 36 and then base-36 deltas) and variants, tab-separated.
  static func encode(_ step: Plan.Step) -> String {
    var months: [String] = []
    var previous: Int32 = 0
    for month in step.months {
      months.append(String(month.julianDay - previous, radix: 36))
      previous = month.julianDay
    }
    return [step.group.description, step.firstWeekdays.map(\.description).joined(separator: ","),
            months.joined(separator: ","), step.variants.joined(separator: ",")]
      .joined(separator: "\t")
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

extension Baseline {
  /// Reads a previous `results.json` without loading its failures all at once: they are
  /// one object per line, as this program writes them.
  ///
  /// - Throws: `InputError` naming the file and line at fault (exit 2).
  public static func load(_ url: URL) throws(InputError) -> Baseline {
    guard let lines = LineReader(url: url) else {
      throw InputError("--baseline \(url.path): cannot read the file")
    }
    var head = ""
    var tail = ""
    // Typed as the property is: a differently labelled tuple would copy the whole table.
    var failures: [String: (status: String, actualDigest: UInt64)] = [:]
    enum Part { case head, failures, tail }
    var part = Part.head
    var lineNumber = 0
    while let line = lines.next() {
      lineNumber += 1
      switch part {
      case .head:
        if line.hasPrefix("  \"failures\": [") {
          head += "  \"failures\": []"
          part = line.hasSuffix("[]") || line.hasSuffix("[],") ? .tail : .failures
          if part == .tail { tail += line.hasSuffix(",") ? ",\n" : "\n" }
        } else {
          head += line + "\n"
        }
      case .failures:
        if line.hasPrefix("  ]") {
          part = .tail
          tail += String(line.dropFirst(3)) + "\n"
          continue
        }
        var entry = Substring(line).drop { $0 == " " }
        if entry.hasSuffix(",") { entry = entry.dropLast() }
        // Abridged cases carry the digest; whole ones (and schema 1) the value itself.
        guard let object = try? JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any],
          let id = object["id"] as? String, let status = object["status"] as? String,
          let digest = object["actualDigest"].map({ ($0 as? String).flatMap { UInt64($0, radix: 16) } })
            ?? Value(json: object["actual"]).digest
        else {
          throw InputError("--baseline \(url.path):\(lineNumber): not a failing case of results.json")
        }
        failures[id] = (status, digest)
      case .tail:
        tail += line + "\n"
      }
    }
    guard part == .tail else {
      throw InputError(part == .failures
        ? "--baseline \(url.path):\(lineNumber): truncated (the failures list never ends)"
        : "--baseline \(url.path): not a results.json document (no failures list)")
    }
    guard let root = try? JSONSerialization.jsonObject(with: Data((head + tail).utf8)) as? [String: Any]
    else {
      throw InputError("--baseline \(url.path): not a results.json document (it does not parse)")
    }
    guard let schema = root["schema"] as? String, ResultsJSON.baselineSchemas.contains(schema) else {
      throw InputError("--baseline \(url.path): schema \(root["schema"].map { "\($0)" } ?? "missing"), "
        + "expected one of " + ResultsJSON.baselineSchemas.sorted().joined(separator: ", "))
    }
    guard let plan = root["plan"] as? [String] else {
      throw InputError("--baseline \(url.path): no \"plan\" (written by an older conformance)")
    }
    var steps: [String: PlanStepSet] = [:]
    for (index, line) in plan.enumerated() {
      guard let (key, step) = PlanStepSet.decode(line) else {
        throw InputError("--baseline \(url.path): plan entry \(index + 1) is malformed")
      }
      steps[key] = step
    }
    let run = root["run"] as? [String: Any]
    let versions = root["versions"] as? [String: Any]
    let oracle = versions?["oracle"] as? [String: Any]
    let subject = versions?["subject"] as? [String: Any]
    return Baseline(
      path: url.path, started: run?["started"] as? String ?? "?",
      versions: "libicu \(oracle?["icu"] ?? "?") / Foundation ICU \(subject?["icu"] ?? "?")",
      failures: failures, steps: steps)
  }
}

/// Reads a file line by line in chunks, so a large file is never held whole.
final class LineReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var position = 0
  private var finished = false

  init?(url: URL) {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    self.handle = handle
  }

  deinit { try? handle.close() }

  /// The next line without its newline, or `nil` at the end.
  func next() -> String? {
    while true {
      if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[position..<newline], as: UTF8.self)
        position = newline + 1
        return line
      }
      if finished {
        guard position < buffer.count else { return nil }
        defer { position = buffer.count }
        return String(decoding: buffer[position...], as: UTF8.self)
      }
      // Drop what was read before appending more, so the buffer holds about one chunk.
      buffer.removeFirst(position)
      position = 0
      if let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil, !chunk.isEmpty {
        buffer.append(contentsOf: chunk)
      } else {
        finished = true
      }
    }
  }
}

extension Value {
  /// A value from JSON as `JSONSerialization` reads it.
  init(json: Any?) {
    // Our values never hold booleans, so a number is read as an integer.
    switch json {
    case let value as String: self = .string(value)
    case let value as NSNumber: self = .int(value.intValue)
    case let value as [Any]: self = .list(value.map { Value(json: $0) })
    default: self = .null
    }
  }
}
