import Foundation
import Testing

/// The rooms of Sources/Conformance in layers (`Scripts/layers.py`): a folder uses its own
/// layer and those under it, but for what `Scripts/layers-debt.txt` still lists.
@Suite("Rooms in layers")
struct LayerTests {
  static let package = corpora.deletingLastPathComponent()

  /// `Scripts/layers.py` with `arguments`: its exit status and what it printed.
  static func layers(_ arguments: [String]) throws -> (status: Int32, out: String) {
    try Process.runToEnd(URL(fileURLWithPath: "/usr/bin/env"),
                         ["python3", package.appendingPathComponent("Scripts/layers.py").path] + arguments)
  }

  @Test("no folder uses a type of a higher layer beyond the debt list, and the list holds nothing paid")
  func layered() throws {
    let result = try Self.layers(["--check"])
    #expect(result.status == 0, "\(result.out)")
  }

  @Test("a bottom folder that reaches up (Support using Runner) fails the check, named with its file and line")
  func reachingUp() throws {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.copyItem(at: Self.package.appendingPathComponent("Sources/Conformance"), to: copy)
    let monitor = copy.appendingPathComponent("Support/Monitor.swift")
    let text = try String(contentsOf: monitor, encoding: .utf8)
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).count
    try (text + "func reachesUp(_ runner: Runner) {}\n").write(to: monitor, atomically: true, encoding: .utf8)
    let result = try Self.layers(["--check", "--root", copy.path])
    #expect(result.status == 1)
    #expect(result.out.contains("Support (layer 0) uses Runner of Running (layer 3): Support/Monitor.swift:\(line)"),
            "\(result.out)")
  }

  @Test("a debt entry the code no longer has is reported paid, so the list only shrinks")
  func paidDebt() throws {
    let debt = FileManager.default.temporaryDirectory.appendingPathComponent("layers-debt-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: debt) }
    let listed = try String(contentsOf: Self.package.appendingPathComponent("Scripts/layers-debt.txt"), encoding: .utf8)
    try (listed + "Support -> Reports: NoSuchType\n").write(to: debt, atomically: true, encoding: .utf8)
    let result = try Self.layers(["--check", "--debt", debt.path])
    #expect(result.status == 1)
    #expect(result.out.contains("paid: Support -> Reports: NoSuchType is no longer used"), "\(result.out)")
  }
}
