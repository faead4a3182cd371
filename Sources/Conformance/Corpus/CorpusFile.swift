import Foundation

/// One entry of a corpus file: a value, why it is in the corpus, and where it was written.
package struct CorpusEntry: Sendable, Equatable {
  package var value: String
  package var reason: String
  /// `file:line` of the entry, for error messages.
  package var location: String
}

/// Reads the corpus file format: one entry per line, `value | reason`; `#` starts a comment
/// line; blank lines are ignored. Every entry must give a reason.
package enum CorpusFile {
  /// Parses the text of a corpus file; `name` is used in `file:line` locations.
  package static func parse(_ text: String, name: String) throws(InputError) -> [CorpusEntry] {
    var entries: [CorpusEntry] = []
    var seen: [String: String] = [:]
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let location = "\(name):\(index + 1)"
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
      let value = parts[0].trimmingCharacters(in: .whitespaces)
      let reason = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
      guard !value.isEmpty else {
        throw InputError("\(location): an entry needs a value before '|'")
      }
      guard !reason.isEmpty else {
        throw InputError("\(location): '\(value)' has no reason; write 'value | why it is here'")
      }
      guard !value.contains(where: \.isWhitespace) else {
        throw InputError("\(location): '\(value)' contains a space; one value per line")
      }
      if let first = seen[value] {
        throw InputError("\(location): '\(value)' is listed twice (first at \(first))")
      }
      seen[value] = location
      entries.append(CorpusEntry(value: value, reason: reason, location: location))
    }
    return entries
  }

  /// Reads and parses a corpus file from disk.
  package static func load(_ url: URL) throws(InputError) -> [CorpusEntry] {
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw InputError("cannot read corpus file \(url.path): \(error.localizedDescription)")
    }
    return try parse(text, name: url.path)
  }
}
