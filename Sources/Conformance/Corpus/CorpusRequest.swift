import Foundation

/// What the user asked to sweep, before validation: one selection per dimension.
public struct CorpusRequest: Sendable, Equatable {
  /// A dimension's values: the core corpus, everything libicu knows, a list, or a file.
  public enum Selection: Sendable, Equatable {
    case core
    case all
    case list([String])
    /// A file in the corpus format (`value | reason`; the reason may be omitted here).
    case file(String)

    /// Parses `core`, `all`, `@path` or a comma-separated list.
    public init(parsing text: String) {
      switch text {
      case "core": self = .core
      case "all": self = .all
      default:
        if text.hasPrefix("@") {
          self = .file(String(text.dropFirst()))
        } else {
          self = .list(text.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
          })
        }
      }
    }
  }

  public var locales: Selection = .core
  public var calendars: Selection = .core
  public var firstWeekdays: [FirstWeekdaySetting] = FirstWeekdaySetting.all
  public var zones: Selection = .core
  public var years: ClosedRange<Int> = Corpus.defaultYears
  /// `nil`: `shapes` for the core zones, `all` otherwise.
  public var transitionSample: Corpus.TransitionSample?
  /// Every month in every zone, instead of transition months outside the month-sweep zones.
  public var exhaustive = false
  /// How the oracle computes (`--oracle`).
  public var oracleMode: Corpus.OracleMode = .tables
  /// Which zones sweep every month; `nil`: per offset for `--time-zones all`, else the
  /// zones without transitions.
  public var monthSweep: Corpus.MonthSweep?
  /// Where the corpus files live (`Corpora/`).
  public var corporaDirectory: URL

  public init(corporaDirectory: URL) { self.corporaDirectory = corporaDirectory }

  /// The years the oracle's tz data and the subject's can both speak for.
  public static let supportedYears = 1900...2100
}
