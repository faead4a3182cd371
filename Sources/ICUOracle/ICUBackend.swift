internal import ICUShim

/// One ICU implementation the oracle can compute with.
///
/// `system` is the libicu this package links: the oracle proper. `foundation` is the copy of
/// ICU inside Foundation (`swift_` symbols of lib_FoundationICU.so): computing the same
/// expectation through it tells a data difference (CLDR, tz) from a logic defect.
public struct ICUBackend: Sendable, Hashable, CustomStringConvertible {
  /// The address of the shim's table of this ICU's entry points: a C static, filled once
  /// and never written again, so the value is an identifier that any thread may use.
  private let address: UInt
  /// The shim's handle for this ICU (`icushim_backend *`).
  var handle: OpaquePointer { OpaquePointer(bitPattern: address)! }
  /// `libicu` or `foundation-icu`.
  public let name: String

  /// The system libicu (libicu-dev): the oracle.
  public static let system = ICUBackend(handle: icushim_system_backend(), name: "libicu")

  private init(handle: OpaquePointer, name: String) {
    address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))
    self.name = name
  }

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

  public static func == (lhs: ICUBackend, rhs: ICUBackend) -> Bool { lhs.address == rhs.address }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  func errorName(_ status: Int32) -> String {
    String(cString: icushim_error_name(handle, status))
  }
}
