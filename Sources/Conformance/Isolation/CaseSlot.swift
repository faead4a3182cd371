import Foundation
import Synchronization

/// Twenty-four bytes of a file the parent created, mapped shared: the step and the position
/// of the case the worker is evaluating (each plus one; zero between cases) and whether it is
/// in the case's diagnosis. The worker stores them before each case; the parent reads the
/// file only once the worker has died, so the two processes never touch it at once, and a
/// store costs no system call. Only the evaluating thread writes it.
final class CaseSlot: @unchecked Sendable {
  private let base: UnsafeMutableRawPointer

  /// Maps the file at `path`; `nil` when it cannot be (the worker then runs without one).
  init?(path: String) {
    let descriptor = open(path, O_RDWR)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard let mapped = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      mapped != MAP_FAILED
    else { return nil }
    base = mapped
  }

  deinit { munmap(base, Self.size) }

  static let size = 24

  func enter(step: Int, position: Int) {
    base.storeBytes(of: Int64(step + 1), as: Int64.self)
    base.storeBytes(of: Int64(position + 1), toByteOffset: 8, as: Int64.self)
  }

  func leave() {
    base.storeBytes(of: Int64(0), toByteOffset: 8, as: Int64.self)
    base.storeBytes(of: Int64(0), toByteOffset: 16, as: Int64.self)
  }

  /// The case asks the subject only to explain a difference already found (a diagnosis), or
  /// is back to its own answers: a death in a diagnosis costs the diagnosis, not the case.
  func diagnosing(_ on: Bool) {
    base.storeBytes(of: Int64(on ? 1 : 0), toByteOffset: 16, as: Int64.self)
  }

  /// Creates a zeroed slot file for a worker.
  static func create(at url: URL) throws {
    try Data(count: size).write(to: url)
  }

  /// The case the worker was in when it died: step and position, and whether in its
  /// diagnosis; `nil` between cases.
  static func read(_ url: URL) -> (step: Int, position: Int, diagnosing: Bool)? {
    guard let data = try? Data(contentsOf: url), data.count == size else { return nil }
    let (step, position, diagnosing) = data.withUnsafeBytes {
      ($0.loadUnaligned(as: Int64.self), $0.loadUnaligned(fromByteOffset: 8, as: Int64.self),
       $0.loadUnaligned(fromByteOffset: 16, as: Int64.self))
    }
    guard step > 0, position > 0 else { return nil }
    return (Int(step - 1), Int(position - 1), diagnosing != 0)
  }
}
