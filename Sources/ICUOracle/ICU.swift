internal import ICUShim

/// Namespace for the oracle's access to ICU through the C shim.
public enum ICU {}

/// A failed ICU call: the status code, its symbolic name, and what was being attempted.
public struct ICUError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The ICU UErrorCode value (positive: failure).
  public var status: Int32
  /// ICU's name for the status, e.g. `U_ILLEGAL_ARGUMENT_ERROR`.
  public var name: String
  /// The operation and its inputs, e.g. `ucal_open(locale: xx, zone: Nowhere)`.
  public var operation: String

  public var description: String { "\(operation) failed: \(name) (\(status))" }
}

extension ICU {
  /// Throws when `status` is a failure; ICU warnings (negative codes) count as success.
  static func check(_ status: Int32, _ backend: ICUBackend, _ operation: @autoclosure () -> String)
    throws(ICUError)
  {
    guard status > 0 else { return }
    throw ICUError(status: status, name: backend.errorName(status), operation: operation())
  }

  /// The handle a shim `open` function returned, or the error it reported (a failure status,
  /// or no handle at all: the shim's allocation failed).
  static func opened(_ handle: OpaquePointer?, _ status: Int32, _ backend: ICUBackend,
                     _ operation: @autoclosure () -> String) throws(ICUError) -> OpaquePointer {
    try check(status, backend, operation())
    guard let handle else {
      throw ICUError(status: 7, name: "U_MEMORY_ALLOCATION_ERROR", operation: operation())
    }
    return handle
  }

  /// Reads a C string that ICU writes into a caller's buffer.
  static func cString(
    _ backend: ICUBackend, _ operation: @autoclosure () -> String,
    capacity: Int = 128,
    _ body: (UnsafeMutablePointer<CChar>, Int32, UnsafeMutablePointer<Int32>) -> Int32
  ) throws(ICUError) -> String {
    let units = try buffer(backend, operation(), capacity: capacity, body)
    return String(decoding: units.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Reads UTF-16 text that ICU writes into a caller's buffer.
  static func utf16String(
    _ backend: ICUBackend, _ operation: @autoclosure () -> String,
    capacity: Int = 64,
    _ body: (UnsafeMutablePointer<UInt16>, Int32, UnsafeMutablePointer<Int32>) -> Int32
  ) throws(ICUError) -> String {
    String(decoding: try buffer(backend, operation(), capacity: capacity, body), as: UTF16.self)
  }

  /// Runs an ICU call that fills a buffer and returns the length it needs, retrying once at
  /// that length when the first buffer was too small (U_BUFFER_OVERFLOW_ERROR, or no room
  /// left for the terminator).
  static func buffer<Unit: FixedWidthInteger>(
    _ backend: ICUBackend, _ operation: @autoclosure () -> String, capacity: Int,
    _ body: (UnsafeMutablePointer<Unit>, Int32, UnsafeMutablePointer<Int32>) -> Int32
  ) throws(ICUError) -> ArraySlice<Unit> {
    var capacity = capacity
    for _ in 0..<2 {
      var status: Int32 = 0
      var buffer = [Unit](repeating: 0, count: capacity + 1)
      let length = buffer.withUnsafeMutableBufferPointer { pointer in
        body(pointer.baseAddress!, Int32(capacity), &status)
      }
      if status == 15 || Int(length) >= capacity {
        capacity = Int(length) + 1
        continue
      }
      try check(status, backend, operation())
      return buffer.prefix(Int(length))
    }
    throw ICUError(status: 15, name: "U_BUFFER_OVERFLOW_ERROR", operation: operation())
  }

  /// How many calendars and formats are open over both backends (for leak tests).
  public static var openHandleCount: Int { Int(icushim_open_handle_count()) }
}
