import Foundation

/// Maps CLDR calendar identifiers (the corpus's spelling) to Foundation's.
package enum CalendarIdentifiers {
  /// Foundation's identifier for a CLDR one, or `nil` when Foundation has no such calendar.
  package static func foundation(_ cldr: String) -> Calendar.Identifier? {
    switch cldr {
    case "gregorian": .gregorian
    case "buddhist": .buddhist
    case "chinese": .chinese
    case "coptic": .coptic
    case "ethiopic": .ethiopicAmeteMihret
    case "ethiopic-amete-alem": .ethiopicAmeteAlem
    case "hebrew": .hebrew
    case "indian": .indian
    case "islamic": .islamic
    case "islamic-civil": .islamicCivil
    case "islamic-tbla": .islamicTabular
    case "islamic-umalqura": .islamicUmmAlQura
    case "japanese": .japanese
    case "persian": .persian
    case "roc": .republicOfChina
    case "dangi": .dangi
    case "iso8601": .iso8601
    case "bangla": .bangla
    case "gujarati": .gujarati
    case "kannada": .kannada
    case "malayalam": .malayalam
    case "marathi": .marathi
    case "odia": .odia
    case "tamil": .tamil
    case "telugu": .telugu
    case "vikram": .vikram
    case "vietnamese": .vietnamese
    default: nil
    }
  }

  /// The CLDR identifier of a Foundation calendar (its identifier's own spelling for one the
  /// corpus does not name).
  package static func cldr(_ identifier: Calendar.Identifier) -> String {
    cldrByFoundation[identifier] ?? "\(identifier)"
  }

  private static let cldrByFoundation: [Calendar.Identifier: String] = Dictionary(
    (["gregorian", "buddhist", "chinese", "coptic", "ethiopic", "ethiopic-amete-alem", "hebrew",
      "indian", "islamic", "islamic-civil", "islamic-tbla", "islamic-umalqura", "japanese",
      "persian", "roc", "dangi", "iso8601"] + foundationExtras)
      .compactMap { cldr in foundation(cldr).map { ($0, cldr) } },
    uniquingKeysWith: { first, _ in first })

  /// Identifiers Foundation offers beyond `Corpora/calendars.txt`; the corpus asks libicu
  /// whether it has each one, and those it lacks run invariant checks only.
  package static let foundationExtras = [
    "bangla", "gujarati", "kannada", "malayalam", "marathi", "odia", "tamil", "telugu", "vikram",
    "vietnamese",
  ]
}
