import Foundation

/// Unicode's Script property as ranges (`Corpora/reference/unicode/scripts.tsv`, from the
/// UCD's Scripts.txt): which script a text's letters are written in. Common and Inherited
/// characters (digits, punctuation, marks) have none.
package struct LetterScripts: Sendable {
  /// `Unicode 15.0.0`.
  package var release: String
  private var firsts: [UInt32]
  private var lasts: [UInt32]
  private var codes: [String]

  /// - Throws: `InputError` naming the file:line of a malformed or unordered row.
  init(_ url: URL) throws(InputError) {
    let table = try TSV.read(url, columns: 3)
    release = table.header["release"] ?? "?"
    (firsts, lasts, codes) = ([], [], [])
    for row in table.rows {
      guard let first = UInt32(row.fields[0], radix: 16), let last = UInt32(row.fields[1], radix: 16),
        first <= last, row.fields[2].count == 4
      else { throw InputError("\(row.location): expected two hex code points and a script code") }
      guard firsts.isEmpty || lasts[lasts.count - 1] < first else {
        throw InputError("\(row.location): ranges are not in order")
      }
      firsts.append(first)
      lasts.append(last)
      codes.append(row.fields[2])
    }
  }

  /// The script of one character, or `nil` for Common and Inherited ones.
  func script(of scalar: Unicode.Scalar) -> String? {
    guard let range = firsts.lastPosition(notAfter: scalar.value), scalar.value <= lasts[range] else { return nil }
    return codes[range]
  }

  /// The scripts of a text's letters, sorted.
  func scripts(of text: String) -> [String] {
    Set(text.unicodeScalars.compactMap(script(of:))).sorted()
  }

  /// The scripts a locale's script code admits: UTS #24's composite codes name several
  /// (Japanese is Han, Hiragana and Katakana; Korean is Hangul and Han).
  static func admitted(by code: String) -> Set<String> {
    switch code {
    case "Jpan": ["Hani", "Hira", "Kana"]
    case "Kore": ["Hang", "Hani"]
    case "Hans", "Hant": ["Hani"]
    case "Hanb": ["Hani", "Bopo"]
    default: [code]
    }
  }
}
