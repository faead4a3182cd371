import Foundation

/// A check whose values are texts in the case's locale. No published formatter covers them
/// here (babel formats Gregorian dates only), but one of their facts has a reference: the
/// script the locale is written in (CLDR, UTS #35) and the script of each letter (Unicode).
protocol ScriptReferenceChecked: Check {}

extension DateTextCheck: ScriptReferenceChecked {}

extension ReferenceData {
  /// A failed text case whose subject writes letters of a script its locale is not written
  /// in, where libicu and Foundation's ICU write none: `logic-defect` by the reference (both
  /// ICUs and the published script agree; the subject loses the locale's script, as
  /// Foundation does for `sr_Cyrl_ME`'s Islamic era, `АХ` → `AH`). `nil` otherwise: two
  /// voices decide.
  func scriptTriage(_ id: CaseID, outcome: Outcome, subjectICU: Value?)
    -> (triage: Triage, detail: [String], reference: ReferenceValue?)?
  {
    guard let locale = id.locale, let letters = letterScripts, let subjectICU else { return nil }
    // The script as both ICUs' releases state it: the finding is that the subject leaves it.
    let (oracleName, oracleRelease) = cldr(for: .oracle, subject: DataReleases())
    let (subjectName, subjectRelease) = cldr(for: .foundation, subject: DataReleases())
    guard let script = oracleRelease?.scripts[locale], subjectRelease?.scripts[locale] == script
    else { return nil }
    let admitted = LetterScripts.admitted(by: script)
    func texts(_ value: Value) -> [String] {
      switch value {
      case .string(let text): [text]
      case .list(let values): values.flatMap(texts)
      default: []
      }
    }
    func strays(_ value: Value) -> [String] {
      Set(texts(value).flatMap(letters.scripts(of:))).subtracting(admitted).sorted()
    }
    let strayed = strays(outcome.actual)
    guard !strayed.isEmpty, strays(outcome.expected).isEmpty, strays(subjectICU).isEmpty else { return nil }
    let releases = oracleName == subjectName ? oracleName : "\(oracleName) and \(subjectName)"
    let reference = ReferenceValue(release: "\(releases), \(letters.release) Scripts.txt", value: .string(script))
    return (.logicDefect, [
      "reference \(releases): \(locale) is written in \(script) (UTS #35 script subtag or likely subtags)",
      "reference \(letters.release) Scripts.txt: the subject's text has \(strayed.joined(separator: ", ")) "
        + "letters; libicu's and Foundation's ICU's have none outside \(script)",
    ], reference)
  }
}
