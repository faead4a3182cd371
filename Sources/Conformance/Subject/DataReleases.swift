import Foundation
import ICUOracle

/// The data releases a subject declares it carries: an executor's `hello` (`"data"`), a
/// team's `SubjectFunctions`, Foundation's own for the seeds' logic. Triage reads the
/// published reference (`Corpora/reference`) at these releases to tell whether the subject
/// follows its own data, and a waiver's `subjectCLDR` and `subjectTZ` are matched against
/// them. A release the subject does not declare is `nil`: a label that would need it says
/// so, and never reads another side's release in its place.
public struct DataReleases: Sendable, Codable, Equatable {
  /// The CLDR release as `major.minor` (`46.0`; a declared `46` reads `46.0`).
  public var cldr: String?
  /// The IANA tz release (`2025b`).
  public var tz: String?
  /// The ICU version, where the subject computes with one (`76.1`).
  public var icu: String?

  public init(cldr: String? = nil, tz: String? = nil, icu: String? = nil) {
    self.cldr = cldr.map { $0.contains(".") ? $0 : $0 + ".0" }
    self.tz = tz
    self.icu = icu
  }

  /// Foundation's on this machine: its ICU's CLDR and version (when its ICU is visible) and
  /// the tz release it states (`TimeZone.timeZoneDataVersion`).
  public static let foundation: DataReleases = {
    let icu = ICUBackend.foundation.flatMap { try? $0.versions() }
    return DataReleases(cldr: icu?.cldr, tz: TimeZone.timeZoneDataVersion, icu: icu?.icu)
  }()

  /// The CLDR major release the reference files are named by (`46`).
  var cldrRelease: String? { cldr.map(ReferenceData.major) }

  /// `CLDR 46.0, tz 2025b, ICU 76.1`, or `no data releases declared`.
  public var summary: String {
    let parts = [cldr.map { "CLDR \($0)" }, tz.map { "tz \($0)" }, icu.map { "ICU \($0)" }].compactMap { $0 }
    return parts.isEmpty ? "no data releases declared" : parts.joined(separator: ", ")
  }
}
