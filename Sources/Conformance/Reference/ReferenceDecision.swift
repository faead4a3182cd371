/// What the published reference decides of a failed case: its triage, the lines that say
/// why, and the reference's value at the subject's release where one decided.
typealias ReferenceDecision = (triage: Triage, detail: [String], reference: ReferenceValue?)

extension ReferenceData {
  /// The one way a runner asks the reference about a failed case, whichever reference its
  /// check has: weekday data and month tables (`ReferenceChecked`), zone rules
  /// (`ZoneReferenceChecked`) or scripts (`ScriptReferenceChecked`). `nil` when none decides,
  /// and the two ICUs' classification stands.
  ///
  /// - Parameters:
  ///   - second: the case evaluated again through Foundation's ICU.
  ///   - subjectICU: what Foundation's ICU expects of the case, `nil` when it could not say.
  func decide(_ id: CaseID, check: any Check, outcome: Outcome, second: Outcome, subjectICU: Value?,
              context: EvaluationContext) -> ReferenceDecision? {
    if let referenced = check as? any ReferenceChecked {
      return triage(id, check: referenced, outcome: outcome, subjectICU: subjectICU, context: context)
    }
    if check is any ZoneReferenceChecked,
      let decided = zoneTriage(id, check: check, outcome: outcome, second: second, context: context)
    {
      return decided
    }
    if check is any ScriptReferenceChecked {
      return scriptTriage(id, outcome: outcome, subjectICU: subjectICU)
    }
    return nil
  }
}
