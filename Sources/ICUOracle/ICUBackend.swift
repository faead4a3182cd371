internal import ICUShim

/// One ICU implementation the oracle can compute with.
///
/// `system` is the libicu this package links: the oracle proper. `foundation` is the copy of
/// ICU inside Foundation (`swift_` symbols of lib_FoundationICU.so): computing the same
/// expectation through it tells a data difference (CLDR, tz) from a logic defect.
public struct ICUBackend: @unchecked Sendable, Hashable, CustomStringConvertible {
  let handle: OpaquePointer
  /// `libicu` or `foundation-icu`.
  public let name: String

  /// The system libicu (libicu-dev): the oracle.
  public static let system = ICUBackend(handle: icushim_system_backend(), name: "libicu")

  /// Foundation's bundled ICU, or `nil` when this toolchain does not expose it.
  public static let foundation: ICUBackend? = icushim_foundation_backend().map {
    ICUBackend(handle: $0, name: "foundation-icu")
  }

  /// Why `foundation` is `nil` (missing library or symbol), or `nil` when it is available.
  public static var foundationProblem: String? {
    let problem = String(cString: icushim_foundation_backend_problem())
    return problem.isEmpty ? nil : problem
  }

  public var description: String { name }

  public static func == (lhs: ICUBackend, rhs: ICUBackend) -> Bool { lhs.handle == rhs.handle }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  func errorName(_ status: Int32) -> String {
    String(cString: icushim_error_name(handle, status))
  }
}
