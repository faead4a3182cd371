import Foundation
import PickerLogic

/// Stands between the checks and the subject: sees every call with its arguments as an
/// `Equatable` key, and decides how the answer is obtained (ask now, time it, reuse one).
protocol SubjectHook: AnyObject, Sendable {
  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer
}

extension Subject {
  /// This subject with every call passed through `hook` (`Subject.functions`).
  func intercepted(by hook: any SubjectHook, name: String) -> Subject {
    var subject = self
    subject.name = name
    for entry in Self.functions { entry.intercept(&subject, base: self, hook: hook) }
    return subject
  }
}
