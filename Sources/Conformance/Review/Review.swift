import Foundation
import ICUOracle

/// What a run knows to expect: active waivers and the baseline. Applied to each case by the
/// thread or worker process that evaluated it, so the case's record carries its waiver and
/// baseline class; the step records count the matches.
package final class Review: Sendable {
  package let waivers: [Waiver]
  /// Waivers that do not apply to this run, and why (expired, versions).
  package let inactive: [(waiver: Waiver, reason: String)]
  /// Waivers about other subjects than this run's (`Waiver.subjects`), and whom each is
  /// about: not applied, and not stale either.
  package let otherSubjects: [(waiver: Waiver, reason: String)]
  package let baseline: Baseline?
  /// What a failure that triage finds `oracle-stale` becomes (`--oracle-stale`).
  package let oracleStale: OracleStalePolicy
  /// Per check id: the waivers that name it or match it by glob, in file order.
  private let byCheck: [String: [Int]]
  private let wildcard: [Int]
  /// The same, keeping only the waivers a passing case can match (those not limited to
  /// failures): most waivers name a pattern or a triage class, so most passes try none.
  private let byCheckForPasses: [String: [Int]]
  private let wildcardForPasses: [Int]

  package init(waivers file: [Waiver], about subject: Subject, baseline: Baseline?,
              versions: RunVersions, today: LocalDay, oracleStale: OracleStalePolicy = .apart) {
    self.oracleStale = oracleStale
    let (all, others) = WaiverFile.about(subject, file)
    otherSubjects = others.map { ($0, "about \($0.subjects.described), not \(subject.name)") }
    var active: [Waiver] = []
    var inactive: [(Waiver, String)] = []
    for waiver in all {
      if let reason = waiver.inactiveReason(today: today, versions: versions) {
        inactive.append((waiver, reason))
      } else {
        active.append(waiver)
      }
    }
    self.waivers = active
    self.inactive = inactive
    self.baseline = baseline
    var byCheck: [String: [Int]] = [:]
    var wildcard: [Int] = []
    for (index, waiver) in active.enumerated() {
      if waiver.checks.contains(where: { $0.text.contains(where: { "*?!".contains($0) }) }) {
        wildcard.append(index)
      } else {
        for check in waiver.checks { byCheck[check.text, default: []].append(index) }
      }
    }
    // Merged once per known check, not once per case.
    for check in Set(byCheck.keys).union(CheckCatalog.all.map(\.id)) {
      byCheck[check] = ((byCheck[check] ?? []) + wildcard).sorted()
    }
    self.byCheck = byCheck
    self.wildcard = wildcard
    let passable = { (indices: [Int]) in indices.filter { !active[$0].failuresOnly } }
    self.byCheckForPasses = byCheck.mapValues(passable)
    self.wildcardForPasses = passable(wildcard)
  }

  /// The review of a run of `subject` today, and the versions it judges waivers by: this
  /// process's libicu and Foundation, the subject named. A run, its workers and explain
  /// each review their cases with one made here.
  package static func ofRun(_ subject: Subject, waivers: [Waiver], baseline: Baseline?,
                            oracleStale: OracleStalePolicy = .apart) throws
    -> (review: Review, versions: RunVersions)
  {
    let versions = try RunVersions.current().naming(subject)
    return (Review(waivers: waivers, about: subject, baseline: baseline, versions: versions,
                   today: .today, oracleStale: oracleStale), versions)
  }

  /// A review with nothing to expect (every failure is unexpected).
  package static func none(versions: RunVersions) -> Review {
    Review(waivers: [], about: .pickerLogic, baseline: nil, versions: versions, today: LocalDay(julianDay: 0))
  }

  /// Applies waivers and the baseline to a case: sets its review's waiver and baseline class,
  /// never its verdict.
  ///
  /// A case that newly fails against the baseline is waived only by a waiver whose scope
  /// lists it; a waiver that would have waived it otherwise is named (`outOfScope`), and the
  /// case counts as a new failure.
  package func apply(_ record: inout CaseRecord) {
    let baselineClass = baseline?.classify(record)
    record.review.baseline = baselineClass
    // libicu's older data is not the subject's failure, and needs no waiver.
    if oracleStale == .apart, record.outcome.verdict == .failed, record.review.triage == .oracleStale {
      record.review.oracleStale = true
      return
    }
    let newlyFailing = baselineClass == .newFailure
    // In file order: the first waiver that matches explains the case.
    let verdict = record.outcome.verdict
    let failing = record.outcome.isFailure
    let candidates = failing ? byCheck[record.id.check] ?? wildcard
      : verdict == .passed ? byCheckForPasses[record.id.check] ?? wildcardForPasses : []
    var contradicted: Waiver?
    var unscoped: Waiver?
    for index in candidates {
      let waiver = waivers[index]
      guard waiver.matches(record.id) else { continue }
      guard failing else {
        if waiver.failuresOnly { continue }
        record.review.waiver = waiver.id
        break
      }
      switch waiver.judge(record) {
      case .outside: continue
      case .waives:
        guard !newlyFailing || waiver.scopeLists(record.id) else {
          unscoped = unscoped ?? waiver
          continue
        }
        record.review.waiver = waiver.id
      case .contradicted:
        // A later waiver may still explain the case; only a case none explains contradicts.
        contradicted = contradicted ?? waiver
        continue
      }
      break
    }
    guard record.review.waiver == nil else { return }
    if let contradicted {
      record.review.contradicts = contradicted.id
      record.outcome.detail.append(
        "waiver '\(contradicted.id)' matches this case but claims triage "
          + "\(contradicted.triage?.rawValue ?? "?"); its triage is "
          + "\(record.review.triage?.rawValue ?? "none"), so it does not waive it")
    }
    if let unscoped {
      record.review.outOfScope = unscoped.id
      record.outcome.detail.append(
        "waiver '\(unscoped.id)' matches this case, but the case passed in the baseline and "
          + (unscoped.scope == nil ? "the waiver states no scope"
            : "the waiver's scope (\(unscoped.scopeText)) does not list it")
          + ": it was written for other cases, so this new failure is not waived")
    }
  }
}

/// What a case that fails only because libicu's data is older becomes (`--oracle-stale`):
/// the published reference shows the subject following the release it declares, and libicu
/// its own older release.
public enum OracleStalePolicy: String, Sendable, Codable, CaseIterable {
  /// Counted and shown apart as `oracle-stale`, never a failure (the default).
  case apart
  /// A failure, as before subjects declared their releases: a waiver must explain it.
  case fail
}

/// When the run's exit status is 1 (`--fail-on`).
public enum FailOn: String, Sendable, CaseIterable {
  /// Failures not seen before: no baseline counterpart, a new case, or a changed value.
  case new
  /// New failures and unexpected passes (the default).
  case unexpected
  /// Any failed, errored, waived case or unexpected pass.
  case any
  /// Never: the reports say everything, the exit status nothing.
  case none

  /// Whether the rule counts a case against the run: what turns the exit status, the JUnit
  /// file and the page red. (`reason` counts the same cases.)
  package func counts(_ record: CaseRecord) -> Bool {
    switch self {
    case .none: false
    case .any: [.failed, .errored, .waived, .unexpectedPass].contains(record.status)
    case .new: record.isNewFailure
    case .unexpected: record.isNewFailure || record.status == .unexpectedPass
    }
  }

  /// The verdict as every surface words it (console, page, its data): `exit 1: <reason>`,
  /// or `exit 0: nothing for --fail-on <rule>`.
  package func exitLine(_ counts: StatusCounts, newFailures: Int) -> String {
    verdict(counts, newFailures: newFailures).line
  }

  /// Whether the rule fires, and the exit line that says so.
  package func verdict(_ counts: StatusCounts, newFailures: Int) -> (fires: Bool, line: String) {
    guard let reason = reason(counts, newFailures: newFailures) else {
      return (false, "exit 0: nothing for --fail-on \(rawValue)")
    }
    return (true, "exit 1: " + reason)
  }

  /// Why the rule fires for these counts, or `nil` when it does not.
  package func reason(_ counts: StatusCounts, newFailures: Int) -> String? {
    switch self {
    case .none:
      return nil
    case .any:
      let total = counts.failed + counts.errored + counts.waived + counts.unexpectedPass
      return total > 0
        ? "\(CountText.counted(total, "case")) did not pass (\(CountText.number(counts.waived)) of them waived) (--fail-on any)"
        : nil
    case .new:
      return newFailures > 0 ? "\(CountText.counted(newFailures, "new failure")) (--fail-on new)" : nil
    case .unexpected:
      var parts: [String] = []
      if newFailures > 0 { parts.append(CountText.counted(newFailures, "new failure")) }
      if counts.unexpectedPass > 0 {
        parts.append(CountText.counted(counts.unexpectedPass, "unexpected pass", plural: "unexpected passes"))
      }
      return parts.isEmpty ? nil : parts.joined(separator: " and ") + " (--fail-on unexpected)"
    }
  }
}
