import Foundation
import ICUOracle

/// Whose claim a reference value is read for: the oracle's release (libicu's CLDR), the
/// subject's (the release it declares, `Subject.releases`), Foundation's ICU's (triage's
/// second ICU; the subject's too for the seeds' logic), or the newest the reference carries.
/// Month tables have one release, which every side is held to.
enum ReferenceSide: CaseIterable {
  case oracle, subject, foundation, newest
}

/// A check the published reference covers: it computes a case's expectation from the
/// reference at one side's release, in the shape of the check's expected value.
protocol ReferenceChecked: Check {
  /// The voice's name (`CLDR 46 (babel 2.17.0)`) and what it says of the case.
  func reference(_ id: CaseID, in data: ReferenceData, side: ReferenceSide,
                 context: EvaluationContext) -> (name: String, answer: ReferenceAnswer)
  /// Whether the reference may fail a case the subject and libicu agree on (`shared-defect`):
  /// only where its values are vetted data, and once per fact rather than once per zone.
  func referenceJudgesPasses(_ id: CaseID, in data: ReferenceData) -> Bool
  /// Whether `releases` name the release this check's reference is read at (a CLDR
  /// release for the weekday checks; month tables have one release for every side).
  func declares(_ releases: DataReleases) -> Bool
}

extension ReferenceChecked {
  func declares(_ releases: DataReleases) -> Bool { true }
}

/// What one release of the reference says of a case.
enum ReferenceAnswer: Equatable {
  /// The value, and what it was computed from when that helps a reader (`day 1 is …`).
  case value(Value, note: String? = nil)
  /// The release has no value for the case, and why.
  case missing(String)

  var value: Value? {
    if case .value(let value, _) = self { return value }
    return nil
  }
}

extension ReferenceData {
  /// The CLDR release a side claims, as the weekday checks read it (`subject`: the releases
  /// the run's subject declares).
  func cldr(for side: ReferenceSide, subject: DataReleases) -> (name: String, release: CLDRRelease?) {
    let key: String? = switch side {
    case .oracle: oracleCLDR
    case .subject: subject.cldrRelease
    case .foundation: foundationCLDR
    case .newest: newestCLDR?.release
    }
    guard let key else { return ("the subject's CLDR (it declares none)", nil) }
    let release = cldr[key]
    return (release?.name ?? "CLDR \(key)", release)
  }

  /// A case's triage by three voices, and the detail lines that show each release's value
  /// (the oracle's, the subject's, the newest; a release two sides share is shown once).
  ///
  /// - Parameter subjectICU: the expectation computed through Foundation's own ICU.
  func triage(_ id: CaseID, check: any ReferenceChecked, outcome: Outcome, subjectICU: Value?,
              context: EvaluationContext) -> (triage: Triage, detail: [String], reference: ReferenceValue?)
  {
    var values: [ReferenceSide: Value] = [:]
    var names: [ReferenceSide: String] = [:]
    var detail: [String] = []
    var shown: Set<String> = []
    for side in ReferenceSide.allCases {
      let (name, answer) = check.reference(id, in: self, side: side, context: context)
      values[side] = answer.value
      names[side] = name
      guard shown.insert(name).inserted else { continue }
      switch answer {
      case .value(let value, let note):
        detail.append("reference \(name): \(value)" + (note.map { " (\($0))" } ?? ""))
      case .missing(let why):
        detail.append("reference \(name): no value (\(why))")
      }
    }
    guard let oracleRelease = values[.oracle] else { return (.noReference, detail, nil) }
    guard let subjectRelease = values[.subject] else {
      // A release the subject does not declare decides nothing for it.
      return (check.declares(context.subject.releases) ? .noReference : .undeclared, detail, nil)
    }
    let triage = Triage.classify(oracle: outcome.expected, subject: outcome.actual,
                                 subjectICU: subjectICU, oracleRelease: oracleRelease,
                                 subjectRelease: subjectRelease,
                                 foundationRelease: values[.foundation] ?? subjectRelease)
    if triage == .oracleStale, let subject = names[.subject], let oracle = names[.oracle] {
      detail.append("oracle-stale: the subject follows \(subject), the release it declares; libicu follows "
        + "\(oracle), its own older release")
    }
    // The value that decided, where a label rests on it (not `unclassified`).
    let reference = triage == .unclassified ? nil
      : names[.subject].map { ReferenceValue(release: $0, value: subjectRelease) }
    return (triage, detail, reference)
  }
}
