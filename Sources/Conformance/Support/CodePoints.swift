/// Makes invisible or look-alike characters visible: `"1 Jan"` with U+202F reads
/// `1⟨U+202F⟩Jan`, so a reader can tell it from a plain space.
package enum CodePoints {
  package static func annotate(_ text: String,
                              naming: (Unicode.Scalar) -> Bool = needsName) -> String {
    guard text.unicodeScalars.contains(where: naming) else { return text }
    var output = ""
    for scalar in text.unicodeScalars {
      if naming(scalar) {
        output += "⟨U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "⟩"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  package static func needsName(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == " " { return false }
    switch scalar.properties.generalCategory {
    case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark,
      .enclosingMark:
      return true
    default:
      return false
    }
  }
}
