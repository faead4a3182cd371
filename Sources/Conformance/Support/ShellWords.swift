/// Words of a command a reader pastes into a POSIX shell.
package enum ShellWords {
  /// `text` as a POSIX shell reads it back: in single quotes unless it is plain (or `always`).
  package static func quoted(_ text: String, always: Bool = false) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-./:=@%+,".contains($0)) }
    if plain && !always { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
