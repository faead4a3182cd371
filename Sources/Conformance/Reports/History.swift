import Foundation

/// One earlier night as the page's trend shows it, read from the results a nightly keeps
/// (`--history DIR`: one results directory, or `results.json`, per night).
package struct NightSummary: Sendable, Equatable {
  package var started: Date
  /// Per check: cases new or changed, fixed, and still failing against that night's
  /// baseline; `nil` for a night that had no baseline.
  package var checks: [String: Classes]?

  package struct Classes: Sendable, Equatable {
    package var new = 0
    package var fixed = 0
    package var stillFailing = 0

    init(_ classes: [String: Int]) {
      new = (classes["new-failure"] ?? 0) + (classes["new-case"] ?? 0) + (classes["changed"] ?? 0)
      fixed = classes["fixed"] ?? 0
      stillFailing = classes["still-failing"] ?? 0
    }
  }

  /// How many nights the trend shows, this one included.
  package static let shown = 14

  /// What a night's `results.json` gives the trend.
  private struct Head: Decodable {
    struct Run: Decodable { var started: Date }
    struct Check: Decodable {
      var id: String
      var baselineClasses: [String: Int]?
    }
    var schema: String
    var run: Run
    var checks: [Check]
  }

  /// This run as the trend's last night.
  static func current(_ tally: RunTally) -> NightSummary? {
    guard let info = tally.info else { return nil }
    return NightSummary(started: info.started, checks: info.review.baseline == nil ? nil
      : tally.checkBaselineCounts.mapValues(Classes.init))
  }

  /// The nights in `directory`, oldest first, at most `shown - 1` of them.
  ///
  /// - Throws: `InputError` naming the directory or the file that cannot be read (exit 2).
  package static func load(_ directory: URL) throws(InputError) -> [NightSummary] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw InputError("--history \(directory.path): not a readable directory")
    }
    var nights: [NightSummary] = []
    for name in names.sorted() {
      var file = directory.appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory)
      if isDirectory.boolValue { file.appendPathComponent("results.json") }
      guard file.pathExtension == "json", FileManager.default.fileExists(atPath: file.path) else { continue }
      let head: Head
      do {
        head = try RecordCoding.decoder().decode(Head.self, from: Data(contentsOf: file))
      } catch {
        throw InputError("--history \(file.path): \(JSONValueReader.describe(error))")
      }
      guard head.schema == RunRecord.schema else {
        throw InputError("--history \(file.path): schema \(head.schema), expected \(RunRecord.schema)")
      }
      let classes = head.checks.compactMap { check in check.baselineClasses.map { (check.id, Classes($0)) } }
      nights.append(NightSummary(started: head.run.started,
                                 checks: classes.isEmpty ? nil : Dictionary(classes) { a, _ in a }))
    }
    return Array(nights.sorted { $0.started < $1.started }.suffix(shown - 1))
  }
}
