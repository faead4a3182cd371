import ConformanceKit
import Foundation
import MyPickerConformance
import Testing

/// A case of MyPicker's own sweep, explained by the command its reports print: through the
/// worker that serves MyPicker's functions, never the seeds' logic.
@Test func theReportsExplainCommandRunsMyPicker() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  let worker = try ConformanceSweep.executable(named: "MyPickerWorker")
  sweep.worker = worker
  sweep.options.checks = ["leading-blanks"]
  sweep.options.request.calendars = .list(["gregorian"])
  sweep.options.request.zones = .list(["UTC"])
  sweep.options.request.firstWeekdays = [.fixed(2)]
  sweep.options.request.years = 2020...2020
  sweep.options.record = .all
  let result = try sweep.run()
  #expect(result.status == .unexpected)
  // 1 January 2020 was a Wednesday: Monday-first grids start with 2 blanks; MyPicker counts
  // from Sunday, 3.
  let id = "leading-blanks|calendar=gregorian|fw=2|zone=UTC|month=2020-01-01"
  let line = try casesFile(sweep.options.out).first { $0["id"] as? String == id }
  let command = try #require(line?["explain"] as? String)
  // Never run another command here: `swift run conformance` would wait on this build's lock.
  try #require(command.hasPrefix("swift run MyPickerWorker explain '\(id)'"), "\(command)")
  #expect(line?["actual"] as? Int == 3 && line?["expected"] as? Int == 2)
  // Run as printed, `swift run MyPickerWorker` being the worker it builds.
  let shell = Process()
  shell.executableURL = URL(fileURLWithPath: "/bin/sh")
  shell.arguments = ["-c", command.replacingOccurrences(of: "swift run MyPickerWorker", with: "'\(worker.path)'")]
  let output = Pipe()
  shell.standardOutput = output
  try shell.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  shell.waitUntilExit()
  #expect(shell.terminationStatus == 1, "\(text)")
  #expect(text.contains("subject:  MyPicker, a team's own functions (ConformanceKit)"), "\(text)")
  #expect(text.contains("status:   failed"), "\(text)")
  #expect(text.contains("expected: 2   [libicu"), "\(text)")
  #expect(text.contains("actual:   3   [MyPicker]"), "\(text)")
  #expect(!text.contains("PickerLogic"), "\(text)")
}

/// The case lines of a sweep's reports, each a JSON object.
func casesFile(_ out: URL) throws -> [[String: Any]] {
  let gzip = Process()
  gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
  gzip.arguments = ["-c", "gzip -dc '\(out.appendingPathComponent("cases.jsonl.gz").path)'"]
  let pipe = Pipe()
  gzip.standardOutput = pipe
  try gzip.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  gzip.waitUntilExit()
  return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
    try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
  }
}
