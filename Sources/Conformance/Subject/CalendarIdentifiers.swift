import Foundation

/// Maps CLDR calendar identifiers (the corpus's spelling) to Foundation's.
public enum CalendarIdentifiers {
  /// Foundation's identifier for a CLDR one, or `nil` when Foundation has no such calendar.
  public static func foundation(_ cldr: String) -> Calendar.Identifier? {
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
    default: nil
    }
  }
}
