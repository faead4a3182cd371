import Foundation
import Testing

/// `Scripts/README.md` is the index of the scripts: each one there, with what it is for and
/// who runs it, so that none lingers without a caller.
@Suite("The scripts' index")
struct ScriptIndexTests {
  static let scripts = corpora.deletingLastPathComponent().appendingPathComponent("Scripts")

  /// The index's script names: the file name that starts each `code` span of a table row's
  /// first cell (a row may list several: "`calendars.py`, `cldr.py`").
  static func indexed(_ readme: String) -> Set<String> {
    var names: Set<String> = []
    for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
      let cell = line.dropFirst(2).prefix { $0 != "|" }
      for (index, span) in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
        let word = span.prefix { $0 != " " }
        names.insert(String(word.split(separator: "/").last ?? word))
      }
    }
    return names
  }

  @Test("every file of Scripts/ has its row in Scripts/README.md, and every row's script exists")
  func everyScriptIndexed() throws {
    let readme = try String(contentsOf: Self.scripts.appendingPathComponent("README.md"), encoding: .utf8)
    let indexed = Self.indexed(readme)
    var files: Set<String> = []
    let walk = try #require(FileManager.default.enumerator(at: Self.scripts, includingPropertiesForKeys: [.isRegularFileKey]))
    for case let url as URL in walk {
      guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
      let name = url.lastPathComponent
      // Python's package marker and caches, and the index itself.
      if name == "README.md" || name == "__init__.py" || url.path.contains("/__pycache__/") { continue }
      files.insert(name)
    }
    // The debt list is named in layers.py's row.
    let unindexed = files.filter { !indexed.contains($0) && !readme.contains("`\($0)`") }
    #expect(unindexed.isEmpty, "not in Scripts/README.md: \(unindexed.sorted())")
    let missing = indexed.filter { !files.contains($0) }
    #expect(missing.isEmpty, "in Scripts/README.md, not in Scripts/: \(missing.sorted())")
    #expect(files.count > 20)
  }
}
