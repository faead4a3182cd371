/// A check's steps counted as JUnit testcases.
package struct TestcaseCounts: Sendable, Codable, Equatable {
  package var tests = 0
  package var failures = 0
  package var errors = 0
  package var skipped = 0
}
