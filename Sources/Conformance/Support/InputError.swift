import Foundation

/// A problem with the run's input (a corpus, waiver or baseline file, or an option) that is
/// refused before any work: exit code 2, naming the value or `file:line` at fault.
package struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}
