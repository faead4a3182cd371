import Foundation
import Testing

@testable import Conformance

@Suite("Bench history: each run appends its rows to Documentation/bench-history.jsonl")
struct BenchHistoryTests {
  /// A package root in a scratch directory, with `Documentation/` and a `.git` whose HEAD is
  /// a branch in packed-refs.
  func root(documentation: Bool = true) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bench-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
    if documentation {
      try FileManager.default.createDirectory(at: root.appendingPathComponent("Documentation"),
                                              withIntermediateDirectories: true)
    }
    try Data("ref: refs/heads/main\n".utf8).write(to: root.appendingPathComponent(".git/HEAD"))
    try Data("# pack-refs with: peeled fully-peeled sorted\n1b9f8c6aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5 refs/heads/main\n".utf8)
      .write(to: root.appendingPathComponent(".git/packed-refs"))
    return root
  }

  @Test("two runs: two lines, in order, each with its date, commit, machine and rows")
  func appends() throws {
    let root = try root()
    defer { try? FileManager.default.removeItem(at: root) }
    let rows: [(name: String, value: String, met: Bool)] = [("hang storm ≤ 3 × the clean run, exit 1", "2.0 ×", true)]
    let file = try #require(try BenchHistory.append(kind: "bench --quick", rows: rows, date: "2026-12-03T23:50:00Z",
                                                    machine: "2 cores", root: root))
    // A loose ref wins over packed-refs, as git reads it.
    try FileManager.default.createDirectory(at: root.appendingPathComponent(".git/refs/heads"),
                                            withIntermediateDirectories: true)
    try Data("0123456789abcdef0123456789abcdef01234567\n".utf8).write(to: root.appendingPathComponent(".git/refs/heads/main"))
    _ = try BenchHistory.append(kind: "bench --holes", rows: [("holes", "+7.5 %", false)], date: "2026-12-04T00:10:00Z",
                                machine: "2 cores", root: root)
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["date"] as? String == "2026-12-03T23:50:00Z")
    #expect(first["commit"] as? String == "1b9f8c6aa0b1")
    #expect(first["bench"] as? String == "bench --quick")
    let row = try #require((first["rows"] as? [[String: Any]])?.first)
    #expect(row["row"] as? String == "hang storm ≤ 3 × the clean run, exit 1")
    #expect(row["measured"] as? String == "2.0 ×")
    #expect(row["met"] as? Bool == true)
    let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["commit"] as? String == "0123456789ab")
    #expect((second["rows"] as? [[String: Any]])?.first?["met"] as? Bool == false)
  }

  @Test("outside the package (no Documentation/) nothing is written; a detached HEAD is its own hash")
  func elsewhere() throws {
    let root = try root(documentation: false)
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(try BenchHistory.append(kind: "bench", rows: [], date: "d", machine: "m", root: root) == nil)
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(BenchHistory.path).path))
    try Data("fedcba9876543210fedcba9876543210fedcba98\n".utf8).write(to: root.appendingPathComponent(".git/HEAD"))
    #expect(BenchHistory.commit(root) == "fedcba987654")
    try FileManager.default.removeItem(at: root.appendingPathComponent(".git"))
    #expect(BenchHistory.commit(root) == nil)
  }
}
