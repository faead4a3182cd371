import Foundation
import ICUOracle

/// Both sides' versions, stated in every report: the two ICUs differ in data (CLDR, tz) as
/// well as in code, and a reader needs to know which pair was compared.
package struct RunVersions: Sendable, Codable, Equatable {
  /// The Swift compiler that built the harness (and so the Foundation it runs on).
  package var swift: String
  /// The oracle: the system libicu.
  package var oracle: ICUVersions
  /// The ICU bundled with Foundation, read through its `swift_` symbols, when exposed.
  package var subjectICU: ICUVersions?
  /// Why `subjectICU` is missing.
  package var subjectICUProblem: String?
  /// Foundation's own answer for its tz data version (`TimeZone.timeZoneDataVersion`).
  package var subjectTimeZoneData: String
  /// The executor that answered for the subject (`py-picker 1.0 (exec:python3 x.py)`), when
  /// one did: its data and code are its own, Foundation's versions above are then triage's.
  package var subjectExecutor: String?
  /// The team's own functions that answered for the subject (ConformanceKit), by their name:
  /// their code, on this Foundation. `nil` for the built-in subject and an executor.
  package var subjectFunctions: String?
  /// The data releases the run's subject declares (`Subject.releases`): what triage and a
  /// waiver's `subjectCLDR`/`subjectTZ` judge it by. Foundation's for the seeds' logic; an
  /// executor's from its `hello` (none when it declares none). `nil` in results written
  /// before subjects declared releases, which were judged by Foundation's.
  package var subjectReleases: DataReleases?

  /// The releases the subject is judged by (`subjectReleases`, else Foundation's).
  package var judgedReleases: DataReleases { subjectReleases ?? .foundation }

  /// Who answered for the subject, in reports' words: `Foundation` for the seeds' logic, else
  /// the executor's or the team's subject's name.
  package var subjectSide: String {
    subjectExecutor.map { String($0.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
      ?? subjectFunctions ?? "Foundation"
  }

  /// These versions with the run's subject named: its executor or team functions, and the
  /// data releases it declares.
  package func naming(_ subject: Subject) -> RunVersions {
    var versions = self
    versions.subjectExecutor = subject.executor.map { "\(subject.name) (exec:\($0.command))" }
    versions.subjectFunctions = subject.isOwn ? subject.name : nil
    versions.subjectReleases = subject.releases
    return versions
  }

  /// Reads the versions of this process's libicu and Foundation.
  package static func current() throws -> RunVersions {
    let oracle = try Corpus.harness { try ICUBackend.system.versions() }
    let subjectICU = try ICUBackend.foundation.map { backend in
      try Corpus.harness { try backend.versions() }
    }
    return RunVersions(
      swift: swiftVersion, oracle: oracle, subjectICU: subjectICU,
      subjectICUProblem: ICUBackend.foundationProblem,
      subjectTimeZoneData: TimeZone.timeZoneDataVersion)
  }

  /// The language version this file was compiled with, to the minor version.
  static var swiftVersion: String {
    #if swift(>=7.0)
      "7.0 or later"
    #elseif swift(>=6.4)
      "6.4"
    #elseif swift(>=6.3)
      "6.3"
    #elseif swift(>=6.2)
      "6.2"
    #elseif swift(>=6.1)
      "6.1"
    #else
      "6.0"
    #endif
  }

  /// One line for consoles: `subject Foundation (ICU 76.1, CLDR 46.0, tz 2025b) vs …`.
  package var summary: String {
    let subject = subjectICU.map { "ICU \($0.icu), CLDR \($0.cldr), tz \(subjectTimeZoneData)" }
      ?? "tz \(subjectTimeZoneData); its ICU is not visible: \(subjectICUProblem ?? "?")"
    let oracleText = "oracle: libicu \(oracle.icu) (CLDR \(oracle.cldr), tz \(oracle.tz))"
    if let subjectExecutor {
      return "subject: \(subjectExecutor), \(judgedReleases.summary); "
        + "triage's second ICU: Foundation on Swift \(swift) (\(subject)); " + oracleText
    }
    if let subjectFunctions {
      let declared = judgedReleases == .foundation ? "" : ", declaring \(judgedReleases.summary)"
      return "subject: \(subjectFunctions), a team's functions on Foundation on Swift \(swift) (\(subject))"
        + declared + "; " + oracleText
    }
    return "subject: Foundation on Swift \(swift) (\(subject)); " + oracleText
  }
}
