/// Which subjects the difference a waiver explains is about.
package enum WaiverSubjects: String, Sendable, CaseIterable {
  /// The seeds' logic: the built-in subject, its mutants, an executor that says it is it.
  case seeds
  /// Any subject that computes with this harness's Foundation (its calendars, formatters
  /// and data): a Foundation defect, or Foundation's data.
  case foundation
  /// Any subject: libicu's own age or defects, where a published table disagrees with both
  /// ICUs. The default for a waiver that names none (a file of a team's own is about its
  /// subject).
  case any

  /// Who, in a sentence's words.
  package var described: String {
    switch self {
    case .seeds: "the seeds' logic"
    case .foundation: "subjects that compute with Foundation"
    case .any: "any subject"
    }
  }
}
