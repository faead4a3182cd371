import Foundation

/// A check the published reference covers: it computes a case's expectation from one
/// release's data, in the shape of the check's expected value.
protocol ReferenceChecked: Check {
  func reference(_ id: CaseID, cldr: ReferenceData.CLDRRelease) -> ReferenceAnswer
}

/// What one release of the reference says of a case.
enum ReferenceAnswer: Equatable {
  case value(Value)
  /// The release has no value for the case, and why.
  case missing(String)
}

extension ReferenceData {
  /// A failed case's triage by three voices, and the detail lines that show each release's
  /// value (the oracle's, the subject's, the newest).
  ///
  /// - Parameter subjectICU: the expectation computed through Foundation's own ICU.
  func triage(_ id: CaseID, check: any ReferenceChecked, outcome: Outcome, subjectICU: Value?)
    -> (triage: Triage, detail: [String])
  {
    var releases: [CLDRRelease] = []
    for release in [cldr[oracleCLDR], subjectCLDR.flatMap { cldr[$0] }, newestCLDR].compactMap({ $0 })
    where !releases.contains(where: { $0.release == release.release }) {
      releases.append(release)
    }
    var values: [String: Value] = [:]
    var detail: [String] = []
    for release in releases {
      switch check.reference(id, cldr: release) {
      case .value(let value):
        values[release.release] = value
        detail.append("reference \(release.name): \(value)")
      case .missing(let why):
        detail.append("reference \(release.name): no value (\(why))")
      }
    }
    guard let oracleRelease = values[oracleCLDR] else {
      if cldr[oracleCLDR] == nil {
        detail.append("reference: Corpora/reference has no CLDR \(oracleCLDR) (libicu's release)")
      }
      return (.noReference, detail)
    }
    guard let subjectCLDR, let subjectRelease = values[subjectCLDR] else {
      if subjectCLDR.map({ cldr[$0] == nil }) ?? true {
        detail.append("reference: Corpora/reference has no CLDR \(subjectCLDR ?? "?") (Foundation's ICU's release)")
      }
      return (.noReference, detail)
    }
    let triage = Triage.classify(oracle: outcome.expected, subject: outcome.actual,
                                 subjectICU: subjectICU, oracleRelease: oracleRelease,
                                 subjectRelease: subjectRelease)
    return (triage, detail)
  }
}
