import Foundation

/// `Documentation/bench-history.jsonl`: every bench run's target rows, one JSON line a run,
/// appended by the run itself with its date, commit and machine. `Benchmarks.md` keeps the
/// method and the latest figures; what was measured along the way stays here, where a script
/// can read it, instead of growing a page of prose.
package enum BenchHistory {
  /// Where, from the package's root (the directory a bench runs in).
  package static let path = "Documentation/bench-history.jsonl"

  /// Appends one line for a bench run (`kind`: `bench`, `bench --holes`, `bench --shards`)
  /// to the history under `root`, when `root` has a `Documentation/` (a bench run elsewhere
  /// has no history to add to); returns the file written.
  package static func append(kind: String, rows: [(name: String, value: String, met: Bool)], date: String,
                            machine: String, root: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    throws -> URL?
  {
    let url = root.appendingPathComponent(path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    let line = JSONValue.object([
      ("date", .string(date)), ("commit", commit(root).map { .string($0) } ?? .null),
      ("machine", .string(machine)), ("bench", .string(kind)),
      ("rows", .array(rows.map {
        .object([("row", .string($0.name)), ("measured", .string($0.value)), ("met", .bool($0.met))])
      })),
    ]).rendered(indent: nil) + "\n"
    if let handle = try? FileHandle(forWritingTo: url) {
      defer { try? handle.close() }
      try handle.seekToEnd()
      try handle.write(contentsOf: Data(line.utf8))
    } else {
      try Data(line.utf8).write(to: url)
    }
    return url
  }

  /// The commit checked out under `root` (its first 12 hex digits), read from `.git` without
  /// running git; `nil` outside a clone. Uncommitted changes are not told.
  static func commit(_ root: URL) -> String? {
    let git = root.appendingPathComponent(".git")
    func read(_ name: String) -> String? {
      (try? String(contentsOf: git.appendingPathComponent(name), encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let head = read("HEAD") else { return nil }
    guard head.hasPrefix("ref: ") else { return hash(head) }
    let reference = String(head.dropFirst(5))
    if let loose = read(reference) { return hash(loose) }
    // A packed reference: "<hash> <name>" lines.
    for line in (read("packed-refs") ?? "").split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, parts[1] == reference { return hash(String(parts[0])) }
    }
    return nil
  }

  private static func hash(_ text: String) -> String? {
    text.count >= 12 && text.allSatisfy(\.isHexDigit) ? String(text.prefix(12)) : nil
  }
}
