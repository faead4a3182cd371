import Foundation

/// A problem with the run's input (a corpus, waiver or baseline file, or an option) that is
/// refused before any work: exit code 2, naming the value or `file:line` at fault.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
