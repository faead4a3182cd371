import Foundation

/// What the user asked to sweep, before validation: one selection per dimension. A worker
/// process is told it in its setup line (`WorkerSetup.Run`), hence `Codable`.
public struct CorpusRequest: Sendable, Equatable, Codable {
  /// A dimension's values: the core corpus, everything libicu knows, a list, or a file.
  public enum Selection: Sendable, Equatable, Codable {
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
  package var transitionSample: Corpus.TransitionSample?
  /// Every month in every zone, instead of transition months outside the month-sweep zones.
  public var exhaustive = false
  /// How the oracle computes (`--oracle`).
  package var oracleMode: Corpus.OracleMode = .tables
  /// Which zones sweep every month; `nil`: per offset for `--time-zones all`, else the
  /// zones without transitions.
  package var monthSweep: Corpus.MonthSweep?
  /// Where the corpus files live (`Corpora/`).
  public var corporaDirectory: URL

  public init(corporaDirectory: URL) { self.corporaDirectory = corporaDirectory }

  /// The years the oracle's tz data and the subject's can both speak for.
  public static let supportedYears = 1900...2100
}

extension CorpusRequest {
  enum CodingKeys: String, CodingKey {
    case locales, calendars, firstWeekdays, zones, years, transitionSample, exhaustive, oracleMode
    case monthSweep, corporaDirectory
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    corporaDirectory = try container.decode(FilePath.self, forKey: .corporaDirectory).url
    locales = try container.decode(Selection.self, forKey: .locales)
    calendars = try container.decode(Selection.self, forKey: .calendars)
    firstWeekdays = try container.decode([FirstWeekdaySetting].self, forKey: .firstWeekdays)
    zones = try container.decode(Selection.self, forKey: .zones)
    years = try container.decode(ClosedRange<Int>.self, forKey: .years)
    transitionSample = try container.decodeIfPresent(Corpus.TransitionSample.self, forKey: .transitionSample)
    exhaustive = try container.decode(Bool.self, forKey: .exhaustive)
    oracleMode = try container.decode(Corpus.OracleMode.self, forKey: .oracleMode)
    monthSweep = try container.decodeIfPresent(Corpus.MonthSweep.self, forKey: .monthSweep)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(locales, forKey: .locales)
    try container.encode(calendars, forKey: .calendars)
    try container.encode(firstWeekdays, forKey: .firstWeekdays)
    try container.encode(zones, forKey: .zones)
    try container.encode(years, forKey: .years)
    try container.encodeIfPresent(transitionSample, forKey: .transitionSample)
    try container.encode(exhaustive, forKey: .exhaustive)
    try container.encode(oracleMode, forKey: .oracleMode)
    try container.encodeIfPresent(monthSweep, forKey: .monthSweep)
    try container.encode(FilePath(corporaDirectory), forKey: .corporaDirectory)
  }
}

/// A file URL as the command line gave it: its path, relative when it was (`Corpora`), read
/// back with `URL(fileURLWithPath:)` in the same working directory. `URL`'s own coding reads
/// a relative URL back as an absolute one, and a path a run prints (the reference data's
/// `Corpora/reference`) would then differ between a worker and its parent.
struct FilePath: Codable, Sendable, Equatable {
  var url: URL

  init(_ url: URL) { self.url = url }

  init(from decoder: any Decoder) throws {
    url = URL(fileURLWithPath: try decoder.singleValueContainer().decode(String.self))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(url.relativePath)
  }
}
