import Foundation
import ICUOracle

/// A failure of the harness itself (not of the subject, not of the input): exit code 3.
package struct HarnessError: Error, CustomStringConvertible, Sendable {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}
