internal import ICUShim

/// One open ICU pattern generator (a UDateTimePatternGenerator of one backend), closed when
/// the object goes away.
///
/// Opening one reads the locale's whole skeleton data (about a millisecond in libicu 72), so
/// a caller that asks several skeletons of one locale keeps it.
public final class ICUPatternGenerator {
  let handle: OpaquePointer
  /// The ledger that saw this handle open, told again when it closes.
  private let ledger = HandleLedger.current
  public let backend: ICUBackend
  /// The ICU locale id it was opened for, with its calendar keyword.
  public let locale: String

  public init(locale: String, backend: ICUBackend = .system) throws(ICUError) {
    var status: Int32 = 0
    let opened = icushim_pattern_generator_open(backend.handle, locale, &status)
    self.handle = try ICU.opened(opened, status, backend, "udatpg_open(\(locale))")
    self.backend = backend
    self.locale = locale
    ledger?.didOpen()
  }

  deinit {
    icushim_pattern_generator_close(handle)
    ledger?.didClose()
  }

  /// The locale's best pattern for a skeleton (udatpg_getBestPattern), e.g. `yMMMM`.
  public func bestPattern(skeleton: String) throws(ICUError) -> String {
    let utf16 = Array(skeleton.utf16)
    return try ICU.utf16String(backend, "udatpg_getBestPattern(\(skeleton), \(locale))") {
      buffer, capacity, status in
      icushim_best_pattern(handle, utf16, Int32(utf16.count), buffer, capacity, status)
    }
  }
}
