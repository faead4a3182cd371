import Foundation

/// The directory a run writes (`Reports/latest`), replaced as a whole and only by a run that
/// finished: reports are written into a staging sibling, then swapped in by renames.
///
/// A failed or interrupted run removes its staging directory and leaves the previous reports
/// as they were. If the process dies between the two renames of `commit`, the previous
/// reports are in `.<name>.previous-<pid>` and the next run puts them back first.
package struct ReportDirectory: Sendable {
  package let url: URL
  private var parent: URL { url.deletingLastPathComponent() }
  private var name: String { url.lastPathComponent }

  /// Checks that `url` can hold reports, before any work.
  ///
  /// - Throws: `InputError` when `url` is an existing file, or its parent cannot be created
  ///   or written.
  package init(validating url: URL) throws(InputError) {
    self.url = url.standardizedFileURL
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: self.url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw InputError("--out \(url.path): is a file, not a directory")
    }
    do {
      try manager.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw InputError("--out \(url.path): cannot create \(parent.path)")
    }
    guard manager.isWritableFile(atPath: parent.path) else {
      throw InputError("--out \(url.path): \(parent.path) is not writable")
    }
    recoverInterruptedCommit()
  }

  /// Creates an empty staging directory next to the final one.
  package func makeStaging() throws(InputError) -> URL {
    let staging = parent.appendingPathComponent(".\(name).staging-\(getpid())")
    let manager = FileManager.default
    try? manager.removeItem(at: staging)
    do {
      try manager.createDirectory(at: staging, withIntermediateDirectories: false)
    } catch {
      throw InputError("--out \(url.path): cannot write in \(parent.path)")
    }
    Interruption.registerCleanup(staging.path) { try? FileManager.default.removeItem(at: staging) }
    return staging
  }

  /// Where an interrupted run leaves what it had (`<out>.partial`): beside the last complete
  /// report, never in its place.
  package var partialURL: URL { parent.appendingPathComponent(name + ".partial") }

  /// Replaces the partial report with `staging` (the run was interrupted: the final
  /// directory stays as it was). Called in an interruption's critical section.
  package func commitPartial(_ staging: URL) throws {
    let manager = FileManager.default
    try? manager.removeItem(at: partialURL)
    try manager.moveItem(at: staging, to: partialURL)
    Interruption.unregisterCleanup(staging.path)
  }

  /// Replaces the final directory with `staging`, and removes an earlier run's partial
  /// report; an interruption's forced exit waits for the renames, so it never leaves the
  /// previous reports aside.
  package func commit(_ staging: URL) throws {
    try Interruption.critical {
      let manager = FileManager.default
      try? manager.removeItem(at: partialURL)
      let previous = parent.appendingPathComponent(".\(name).previous-\(getpid())")
      if manager.fileExists(atPath: url.path) {
        try manager.moveItem(at: url, to: previous)
      }
      try manager.moveItem(at: staging, to: url)
      Interruption.unregisterCleanup(staging.path)
      try? manager.removeItem(at: previous)
    }
  }

  /// Removes a staging directory of a run that will not commit.
  package func discard(_ staging: URL) {
    try? FileManager.default.removeItem(at: staging)
    Interruption.unregisterCleanup(staging.path)
  }

  /// Puts back the previous reports of a run that died between the renames of `commit`.
  private func recoverInterruptedCommit() {
    let manager = FileManager.default
    guard !manager.fileExists(atPath: url.path),
      let entries = try? manager.contentsOfDirectory(atPath: parent.path)
    else { return }
    if let previous = entries.sorted().last(where: { $0.hasPrefix(".\(name).previous-") }) {
      try? manager.moveItem(at: parent.appendingPathComponent(previous), to: url)
    }
  }
}

/// Writes a file into a staging directory in one go.
enum ReportFile {
  static func write(_ text: String, to url: URL) throws {
    try write(Data(text.utf8), to: url)
  }

  static func write(_ data: Data, to url: URL) throws {
    try data.write(to: url, options: .atomic)
  }
}
