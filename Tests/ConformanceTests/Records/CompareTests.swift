@testable import Conformance
import Foundation
import Testing

/// A selection with failures to compare (fa_IR's and the Islamic calendar's known
/// differences are waived) and Sao Paulo's skipped midnight, small enough for a debug build.
private let compareSample = [
  "--checks", "leading-blanks,same-day-closing,date-text,month-days", "--locales", "en_US,fa_IR",
  "--calendars", "gregorian,islamic", "--time-zones", "UTC,America/Sao_Paulo", "--years", "2018...2018",
]

@Suite("conformance compare", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct CompareTests {
  @Test("the same selection run twice compares the same, and Scripts/compare-runs.py, reading the files its own way, agrees")
  func sameRuns() throws {
    let before = try ExecutorRun(compareSample, subject: nil)
    let after = try ExecutorRun(compareSample, subject: nil)
    let summary = try before.record.summary
    let listed = summary.failed + summary.errored + summary.waived + summary.unexpectedPass
    try #require(listed > 0, "the sample has no failures to compare")
    let result = try Executable.run(["compare", before.out.path, after.out.path])
    #expect(result.status == 0, "\(result.out)\(result.error)")
    let verdict = result.out.split(separator: "\n").last.map(String.init)
    #expect(verdict == "same verdicts: \(listed) cases compared")
    // The Python script parses the JSON with the standard library, not our readers.
    let script = try Process.runToEnd(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["python3", "Scripts/compare-runs.py", before.out.path, after.out.path])
    #expect(script.status == 0)
    #expect(script.out.split(separator: "\n").last.map(String.init) == verdict)
  }

  @Test("a case whose outcome changed is named with the field and both values; exit 1")
  func changedCase() throws {
    let before = try ExecutorRun(compareSample, subject: nil)
    // A waived case made to trap: waived before, errored after, its actual value another.
    let waived = try #require(try before.cases.first { $0.status == .waived })
    let after = try ExecutorRun(compareSample, subject: nil,
                                environment: ["CONFORMANCE_FAULT": "trap:\(waived.id)"])
    let result = try Executable.run(["compare", before.out.path, after.out.path])
    #expect(result.status == 1)
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("status: 1 differ"), "\(lines)")
    #expect(lines.contains("  \(waived.id): waived → errored"), "\(lines)")
    let waivedBefore = try before.record.summary.waived
    #expect(lines.contains("summary: errored 0 → 1, waived \(waivedBefore) → \(waivedBefore - 1)"), "\(lines)")
    #expect(lines.last?.hasPrefix("DIFFERENT: ") == true && lines.last?.contains("status") == true)
  }

  @Test("a cases file cut short does not pass for a run with fewer failures")
  func cutShort() throws {
    let before = try ExecutorRun(compareSample, subject: nil)
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-cut-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.copyItem(at: before.out, to: copy)
    // Keep the first line only: still valid gzip and JSON Lines, one case where there were more.
    let cases = copy.appendingPathComponent("cases.jsonl.gz").path
    let cut = try Process.runToEnd(URL(fileURLWithPath: "/bin/sh"),
                              ["-c", "zcat '\(cases)' | head -1 | gzip > '\(cases).cut' && mv '\(cases).cut' '\(cases)'"])
    try #require(cut.status == 0)
    let result = try Executable.run(["compare", before.out.path, copy.path])
    #expect(result.status == 1)
    #expect(result.out.contains("after lists "), "\(result.out)")
    #expect(result.out.split(separator: "\n").last?.contains("do not add up to their summary") == true)
  }

  @Test("--lines: a case line that differs in a member compare does not read (a detail) is named, with its member; --except leaves it out; the explain command's binary is no difference")
  func lineByLine() throws {
    let before = try ExecutorRun(compareSample, subject: nil)
    let after = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-lines-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: after) }
    try FileManager.default.copyItem(at: before.out, to: after)
    let cases = after.appendingPathComponent("cases.jsonl.gz")
    let read = try Process.runToEnd(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -dc '\(cases.path)'"])
    var lines = read.out.split(separator: "\n").map(String.init)
    // Every explain command starts another binary; one case's detail is edited.
    let binary = try #require(lines.first { $0.contains(#""explain":""#) }?
      .firstMatch(of: #/"explain":"(?:CONFORMANCE_FAULT=[^ ]+ )?(/[^ "]+) explain /#)?.1)
    lines = lines.map { $0.replacingOccurrences(of: "\(binary) explain ", with: "/elsewhere/conformance explain ") }
    let edited = try #require(lines.firstIndex { $0.contains(#""detail":[""#) })
    lines[edited] = lines[edited].replacingOccurrences(of: #""detail":[""#, with: #""detail":["edited: "#)
    let id = try #require(lines[edited].firstMatch(of: #/"id":("[^"]+")/#)?.1)
    // gzip's reader takes a plain file too.
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: cases)

    let plain = try Executable.run(["compare", before.out.path, after.path])
    #expect(plain.status == 0, "\(plain.out)")
    let byLine = try Executable.run(["compare", "--lines", before.out.path, after.path])
    #expect(byLine.status == 1)
    #expect(byLine.out.contains("case lines: \(lines.count) compared, 1 differ"), "\(byLine.out)")
    #expect(byLine.out.contains("  line \(edited + 1): \(id): detail ["), "\(byLine.out)")
    #expect(byLine.out.split(separator: "\n").last == "DIFFERENT: case lines differ")
    let except = try Executable.run(["compare", "--except", "detail", before.out.path, after.path])
    #expect(except.status == 0, "\(except.out)")
    #expect(except.out.split(separator: "\n").last?.hasSuffix("; every case line the same (\(lines.count) lines)") == true,
            "\(except.out)")
  }

  @Test("a directory that holds no run is bad input: exit 2, naming it")
  func badInput() throws {
    let result = try Executable.run(["compare", "/nonexistent-before", "/nonexistent-after"])
    #expect(result.status == 2)
    #expect(result.error.contains("compare BEFORE /nonexistent-before: cannot read the file"), "\(result.error)")
    let one = try Executable.run(["compare", "/tmp"])
    #expect(one.status == 2)
    #expect(one.error.contains("two report directories"), "\(one.error)")
  }
}

extension Process {
  /// Runs `executable` to its end, with stdout read whole.
  static func runToEnd(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, out: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// What `compare --lines` takes for the same line: two builds' runs name their own binary and
/// corpora in every explain command, and nothing else of theirs.
@Suite("Case lines as compare --lines reads them")
struct CaseLineComparisonTests {
  static func line(_ command: String) -> [UInt8] {
    Array(#"{"id":"stay-nights|calendar=gregorian","explain":"\#(command)","verdict":"failed"}"#.utf8)
  }

  @Test("the binary's and the corpora's paths read as CONFORMANCE and CORPORA; a word quoted with a quote inside is one word")
  func anonymized() {
    let before = Self.line(#"/work/wt-before/.build/release/conformance explain 'stay-nights|calendar=gregorian' --subject 'exec:python3 x.py --corpora kept' --corpora '/tmp/it'\\''s/Corpora'"#)
    let after = Self.line("/work/main/.build/release/conformance explain 'stay-nights|calendar=gregorian' --subject 'exec:python3 x.py --corpora kept' --corpora /work/main/Corpora")
    let read = String(decoding: RunComparison.comparable(before, except: []), as: UTF8.self)
    #expect(read == #"{"id":"stay-nights|calendar=gregorian","explain":"CONFORMANCE explain 'stay-nights|calendar=gregorian' --subject 'exec:python3 x.py --corpora kept' --corpora CORPORA","verdict":"failed"}"#)
    #expect(RunComparison.comparable(after, except: []) == RunComparison.comparable(before, except: []))
    // Another subject is a difference.
    let other = Self.line("/work/main/.build/release/conformance explain 'stay-nights|calendar=gregorian' --subject 'exec:python3 y.py --corpora kept' --corpora /work/main/Corpora")
    #expect(RunComparison.comparable(other, except: []) != RunComparison.comparable(after, except: []))
  }

  @Test("a member that differs past its first 80 characters is shown where the two part")
  func differencePastEighty() {
    let command = "CONFORMANCE explain 'stay-nights|calendar=gregorian|zone=America/Sao_Paulo|month=2003-10-01' --corpora "
    let said = RunComparison.difference(Self.line(command + "/a/Corpora"), Self.line(command + "/b/Corpora"))
    // The 20 characters before they part: "3-10-01'" (8), " --corpora " (11) and "/" (1).
    #expect(said == #"\#"stay-nights|calendar=gregorian\#": explain …3-10-01' --corpora /a/Corpora\#" → …3-10-01' --corpora /b/Corpora\#""#)
  }
}
