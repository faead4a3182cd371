import Foundation
import ICUOracle

/// A failure of the harness itself (not of the subject, not of the input): exit code 3.
public struct HarnessError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
