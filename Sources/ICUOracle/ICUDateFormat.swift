internal import ICUShim

/// One open ICU date format (a UDateFormat of one backend), closed when the object goes away.
public final class ICUDateFormat {
  /// Families of date-format symbols the oracle reads.
  public enum Symbols: Sendable {
    case standaloneNarrowWeekdays, narrowWeekdays, standaloneShortWeekdays
    case standaloneMonths, months

    var shim: ICUShimSymbols {
      switch self {
      case .standaloneNarrowWeekdays: ICUSHIM_SYMBOLS_STANDALONE_NARROW_WEEKDAYS
      case .narrowWeekdays: ICUSHIM_SYMBOLS_NARROW_WEEKDAYS
      case .standaloneShortWeekdays: ICUSHIM_SYMBOLS_STANDALONE_SHORT_WEEKDAYS
      case .standaloneMonths: ICUSHIM_SYMBOLS_STANDALONE_MONTHS
      case .months: ICUSHIM_SYMBOLS_MONTHS
      }
    }
  }

  /// ICU's date styles, for formats opened without a pattern.
  public enum Style: Int32, Sendable {
    case full = 0, long = 1, medium = 2, short = 3
  }

  let handle: OpaquePointer
  /// The ledger that saw this handle open, told again when it closes.
  private let ledger = HandleLedger.current
  public let backend: ICUBackend
  public let locale: String

  /// Opens a format with an explicit pattern (e.g. `yyyy-MM-dd`) for a locale and zone.
  public convenience init(pattern: String, locale: String, zone: String,
                          backend: ICUBackend = .system) throws(ICUError)
  {
    let utf16 = Array(pattern.utf16)
    var status: Int32 = 0
    let opened = icushim_format_open_pattern(
      backend.handle, locale, zone, utf16, Int32(utf16.count), &status)
    try self.init(opened: opened, status: status, backend: backend, locale: locale,
                  operation: "udat_open(pattern: \(pattern), locale: \(locale))")
  }

  /// Opens a format with one of ICU's date styles and no time.
  public convenience init(dateStyle: Style, locale: String, zone: String,
                          backend: ICUBackend = .system) throws(ICUError)
  {
    var status: Int32 = 0
    let opened = icushim_format_open_style(backend.handle, locale, zone, dateStyle.rawValue,
                                           &status)
    try self.init(opened: opened, status: status, backend: backend, locale: locale,
                  operation: "udat_open(style: \(dateStyle), locale: \(locale))")
  }

  private init(opened: OpaquePointer?, status: Int32, backend: ICUBackend, locale: String,
               operation: String) throws(ICUError) {
    self.handle = try ICU.opened(opened, status, backend, operation)
    self.backend = backend
    self.locale = locale
    ledger?.didOpen()
  }

  deinit {
    icushim_format_close(handle)
    ledger?.didClose()
  }

  /// The text of an instant.
  public func format(_ millis: Double) throws(ICUError) -> String {
    try ICU.utf16String(backend, "udat_format(\(locale))") { buffer, capacity, status in
      icushim_format(handle, millis, buffer, capacity, status)
    }
  }

  /// The pattern this format uses.
  public func pattern() throws(ICUError) -> String {
    try ICU.utf16String(backend, "udat_toPattern(\(locale))") { buffer, capacity, status in
      icushim_format_pattern(handle, buffer, capacity, status)
    }
  }

  /// Every symbol of a family, as ICU indexes them (weekdays: index 0 is empty, 1 = Sunday).
  public func symbols(_ family: Symbols) throws(ICUError) -> [String] {
    let count = icushim_format_symbol_count(handle, family.shim)
    var result: [String] = []
    result.reserveCapacity(Int(count))
    for index in 0..<count {
      result.append(
        try ICU.utf16String(backend, "udat_getSymbols(\(family), \(index), \(locale))") {
          buffer, capacity, status in
          icushim_format_symbol(handle, family.shim, index, buffer, capacity, status)
        })
    }
    return result
  }
}
