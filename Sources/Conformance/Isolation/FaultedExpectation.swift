import Foundation

/// libicu's side of a case whose subject faulted: the check evaluated in the parent against
/// placeholder answers (no code of the subject runs, nor an injected fault), so the page,
/// JUnit and the case file say what the case should have answered; libicu's expectation does
/// not depend on the subject.
final class FaultedExpectation: @unchecked Sendable {
  private let lock = NSLock()
  private let context: EvaluationContext
  private let checks: [any Check]

  init(corpus: Corpus, subject: Subject, checks: [any Check]) {
    context = EvaluationContext(corpus: corpus, subject: Self.placeheld(subject))
    self.checks = checks
  }

  /// The expected value of `id`, a case of `checks[checkIndex]`; `.null` when libicu gives
  /// none (the check errs or skips without the subject).
  func expected(_ id: CaseID, checkIndex: Int) -> Value {
    // One context, its caches unshared: slots fault one at a time through it.
    lock.withLock { Self.expected(id, check: checks[checkIndex], context: context) }
  }

  /// `subject` with every function answering its placeholder: none of its code runs.
  static func placeheld(_ subject: Subject) -> Subject {
    var asked = subject
    for entry in Subject.functions { entry.placehold(&asked) }
    return asked
  }

  /// libicu's expected value of `id` in `context`, whose subject is `placeheld`; `.null`
  /// when libicu gives none. `explain` of a faulted case asks it too.
  static func expected(_ id: CaseID, check: any Check, context: EvaluationContext) -> Value {
    let oracle = context.outcome(of: id, check: check)
    return oracle.verdict == .errored || oracle.verdict == .skipped ? .null : oracle.expected
  }
}
