/// The one JSON string escaper every hand-written JSON writer uses (case lines, the page's
/// data, results documents, executor questions and answers): `"` and `\` escaped, control
/// characters as `\b \t \n \f \r` or `\u00xx` (lowercase), as `JSONEncoder` writes them, so
/// a case line written by hand is the encoder's byte for byte; everything else as its UTF-8.
enum JSONString {
  /// Appends `text` as a JSON string. `lineSeparators`: U+2028 and U+2029 as `\u2028` and
  /// `\u2029` too (the page embeds its data in a script, where older JavaScript ends a line
  /// at them; `JSONEncoder` does not escape them).
  static func append(_ text: String, to bytes: inout [UInt8], lineSeparators: Bool = false) {
    bytes.append(UInt8(ascii: "\""))
    var utf8 = text.utf8.makeIterator()
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0..<0x20:
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                  hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
      case 0xE2 where lineSeparators:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 (a String's UTF-8 is valid: two
        // continuation bytes follow E2); any other scalar led by E2 goes as it is.
        let (second, third) = (utf8.next() ?? 0, utf8.next() ?? 0)
        if second == 0x80, third == 0xA8 || third == 0xA9 {
          bytes += Array("\\u202".utf8) + [third == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")]
        } else {
          bytes += [byte, second, third]
        }
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends `text` as a JSON string to `output`; text with nothing to escape (most zones,
  /// locales, calendar names, case ids) goes in whole.
  static func append(_ text: String, to output: inout String, lineSeparators: Bool = false) {
    if !text.utf8.contains(where: { mayNeedEscape($0, lineSeparators: lineSeparators) }) {
      output += "\""
      output += text
      output += "\""
      return
    }
    var bytes: [UInt8] = []
    append(text, to: &bytes, lineSeparators: lineSeparators)
    output += String(decoding: bytes, as: UTF8.self)
  }

  /// Whether a UTF-8 byte may start something `append` escapes: a quote, a backslash, a
  /// control character, or (with `lineSeparators`) the lead byte of U+2028 and U+2029.
  private static func mayNeedEscape(_ byte: UInt8, lineSeparators: Bool) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (lineSeparators && byte == 0xE2)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
