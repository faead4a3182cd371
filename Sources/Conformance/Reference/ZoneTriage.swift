import Foundation
import ICUOracle

/// A check whose expectation comes from the zone's clock and libicu's month tables alone, so
/// a tz release of the reference can compute it again with its own transitions.
protocol ZoneReferenceChecked: Check {
  /// Whether the subject's answer reads zone data besides the calendar's clock (a formatter
  /// reads the system's zone files): then every failure is evaluated at the releases, else
  /// only where their clocks differ around the case's month, the only place the tz data can
  /// be why the sides differ.
  var readsOtherZoneData: Bool { get }
}

extension ZoneReferenceChecked {
  var readsOtherZoneData: Bool { false }
}

extension MonthDaysCheck: ZoneReferenceChecked {
  // Triaged at the releases on every failure since it was first, as the field is.
  var readsOtherZoneData: Bool { true }
}
extension FieldRoundtripCheck: ZoneReferenceChecked {
  var readsOtherZoneData: Bool { true }
}
extension MonthGridCheck: ZoneReferenceChecked {}
extension MonthPagingCheck: ZoneReferenceChecked {}
extension RangeRolesCheck: ZoneReferenceChecked {}
extension SameDayClosingCheck: ZoneReferenceChecked {}
extension StayNightsCheck: ZoneReferenceChecked {}
extension ReturnClampCheck: ZoneReferenceChecked {}

extension EvaluationContext {
  /// This worker's context whose zones are `release`'s (kept per release), sharing the
  /// subject's kept answers.
  func zoneReference(_ release: ZoneRelease) -> EvaluationContext {
    if let context = zoneReferences[release.release] { return context }
    let context = EvaluationContext(corpus: corpus, subject: subject,
                                    clocks: { zone in try? release.table(zone) })
    context.answers = answers
    context.primary = self
    zoneReferences[release.release] = context
    return context
  }
}

extension ReferenceData {
  /// Whether `zone`'s wall clock differs between `releases` from `from` to `to` (its offset
  /// at the start, or a change of offset): where it does not, no tz release can tell the
  /// sides apart. A release that lacks the zone or the span differs (its evaluation says
  /// why).
  static func clocksDiffer(_ zone: String, _ releases: [ZoneRelease], from: Double, to: Double) -> Bool {
    var first: (offset: Int32, changes: [ZoneTransition])?
    for release in releases {
      guard let table = (try? release.table(zone)) ?? nil, let offset = try? table.offset(at: from).total,
        let transitions = try? table.transitions(from: from, to: to)
      else { return true }
      // Only the wall clock: a change of name or DST flag alone moves no local date.
      let changes = transitions.filter { $0.offsetBefore != $0.offsetAfter }.map {
        ZoneTransition(instant: $0.instant, offsetBefore: $0.offsetBefore, offsetAfter: $0.offsetAfter,
                       dstBefore: 0, dstAfter: 0)
      }
      guard let known = first else {
        first = (offset, changes)
        continue
      }
      if known.offset != offset || known.changes != changes { return true }
    }
    return false
  }

  /// A failed case of a zone check, classified by the tz releases each side claims: libicu's
  /// (2022e), Foundation's (2025b), and the system's zone files, which Foundation's formatter
  /// reads; `nil` when the reference lacks those releases (two voices decide then).
  ///
  /// Each release evaluates the case again with its own transitions. Values are compared as
  /// each side writes them (a day's start as wall time and offset, by the side's own clock):
  /// equal text is the same instant and offset, and a pass means the subject's answer.
  func zoneTriage(_ id: CaseID, check: any Check, outcome: Outcome, second: Outcome,
                  context: EvaluationContext) -> (triage: Triage, detail: [String], reference: ReferenceValue?)?
  {
    // The subject is held to the release it declares; one that declares none is left to two
    // voices.
    guard let zone = id.zone, let oracleTZ, let subjectTZ = context.subject.releases.tz,
      let atOracleRelease = zones[oracleTZ], let atSubjectRelease = zones[subjectTZ]
    else { return nil }
    let atFoundationRelease = foundationTZ.flatMap { zones[$0] } ?? atSubjectRelease
    // The releases vary the zone only: where the two ICUs' months differ (libicu 72's Chinese
    // months), the zone is not the question, and two voices decide.
    var length: Int32 = 31
    if let calendar = id.calendar, let day = id.month,
      let ours = context.corpus.monthTables[calendar]?.month(startingOn: day)
    {
      let middle = ours.firstDay.adding(days: ours.length / 2)
      guard let theirs = context.corpus.triage?.monthTables[calendar],
        let index = theirs.index(containing: middle),
        theirs.months[index].firstDay == ours.firstDay, theirs.months[index].length == ours.length
      else { return nil }
      length = ours.length
    }
    if let checked = check as? any ZoneReferenceChecked, !checked.readsOtherZoneData, let day = id.month,
      !Self.clocksDiffer(zone, [atOracleRelease, atSubjectRelease, atFoundationRelease],
                         from: day.adding(days: -40).utcMidnightMillis,
                         to: day.adding(days: length + 40).utcMidnightMillis)
    { return nil }
    var detail: [String] = []
    // A case reads no zone but its own, so releases whose tables for it answer alike (most
    // zones, in every release: one shared table, `ZoneTablesAlike`) give one outcome:
    // evaluated once, reported under each name.
    var evaluated: [(table: ZoneTable, result: Outcome)] = []
    func evaluate(_ release: ZoneRelease) -> Outcome? {
      guard let table = (try? release.table(zone)) ?? nil else {
        detail.append("reference \(release.name): no zone \(zone)")
        return nil
      }
      let result: Outcome
      if let known = evaluated.first(where: { $0.table === table }) {
        result = known.result
      } else {
        context.answers?.startReplay()
        result = context.zoneReference(release).outcome(of: id, check: check)
        evaluated.append((table, result))
      }
      switch result.verdict {
      case .passed:
        detail.append("reference \(release.name): the subject's answer")
      case .failed:
        let text = result.expected.description
        detail.append("reference \(release.name): " + (text.count > 300 ? text.prefix(300) + "…" : text))
      case .errored, .skipped, .notRun:
        detail.append("reference \(release.name): could not compute (\(result.detail.first ?? "?"))")
        return nil
      }
      return result
    }
    let atOracle = evaluate(atOracleRelease)
    let atSubject = atSubjectRelease === atOracleRelease ? atOracle : evaluate(atSubjectRelease)
    let atFoundation = atFoundationRelease === atSubjectRelease ? atSubject
      : atFoundationRelease === atOracleRelease ? atOracle : evaluate(atFoundationRelease)
    let atSystem = zones["system"].flatMap { $0 === atSubjectRelease ? nil : evaluate($0) }
    // A release that cannot compute the case (a zone it lacks, a date before its tables)
    // decides nothing: two voices do.
    guard let atOracle, let atSubject, let atFoundation else { return nil }
    guard second.verdict == .passed || second.verdict == .failed else { return (.unclassified, detail, nil) }
    func same(_ a: Outcome, _ b: Outcome) -> Bool {
      switch (a.verdict, b.verdict) {
      case (.passed, .passed): true
      case (.failed, .failed): a.expected == b.expected
      default: false
      }
    }
    var voices = Triage.Voices(
      subjectMatchesItsRelease: atSubject.verdict == .passed,
      oracleMatchesItsRelease: same(outcome, atOracle),
      subjectICUMatchesItsRelease: same(second, atFoundation),
      oracleAgreesWithSubjectICU: second.verdict == .failed && second.expected == outcome.expected,
      subjectAgreesWithSubjectICU: second.verdict == .passed)
    if let atSystem {
      voices.subjectMatchesOtherData = atSystem.verdict == .passed && !same(atSystem, atSubject)
      if voices.subjectMatchesOtherData && !voices.subjectMatchesItsRelease {
        detail.append("the subject reads the system's zone files here (its formatter), which are "
          + "not tz \(subjectTZ)'s for \(zone)")
      }
    }
    // The tz releases are the ICUs' own data, written out: a zone case can show that a side
    // follows an older or other release, or that the subject departs from data it follows.
    // That both ICUs, or libicu alone, depart from every release would more likely be a
    // difference of form (an isdst-only transition that one build lists and another does
    // not) than of data: two voices decide those.
    let triage = Triage.classify(voices)
    guard [.oracleStale, .logicDefect, .subjectData].contains(triage) else { return nil }
    if triage == .oracleStale {
      detail.append("oracle-stale: the subject follows \(atSubjectRelease.name), the release it declares; "
        + "libicu follows \(atOracleRelease.name), its own older release")
    }
    if triage == .subjectData && !voices.subjectMatchesOtherData { return nil }
    // The release the subject declares, in its own words: a pass there is the subject's answer.
    let value = atSubject.verdict == .passed ? outcome.actual : atSubject.expected
    return (triage, detail, ReferenceValue(release: atSubjectRelease.name, value: value))
  }
}
