internal import ICUShim

/// The locales one ICU backend knows, and the id handling the oracle needs.
public struct LocaleCatalog: Sendable {
  /// The backend's available locale ids (uloc_getAvailable), in ICU spelling (`zh_Hans_CN`).
  public let available: [String]
  private let known: Set<String>
  /// The available ids with likely subtags added (`de_DE` → `de_Latn_DE`).
  private let knownMaximized: Set<String>
  public let backend: ICUBackend

  /// Reads the available locales of `backend`.
  public init(backend: ICUBackend = .system) throws(ICUError) {
    let joined = try ICU.cString(backend, "uloc_getAvailable", capacity: 1 << 14) {
      buffer, capacity, _ in icushim_available_locales(backend.handle, buffer, capacity)
    }
    self.available = joined.split(separator: "\0").map(String.init)
    self.known = Set(available)
    self.backend = backend
    var maximized: Set<String> = []
    for id in available {
      maximized.insert(try Self.maximized(id, backend: backend))
    }
    self.knownMaximized = maximized
  }

  static func maximized(_ id: String, backend: ICUBackend) throws(ICUError) -> String {
    try ICU.cString(backend, "uloc_addLikelySubtags(\(id))") { buffer, capacity, status in
      icushim_locale_maximized(backend.handle, id, buffer, capacity, status)
    }
  }

  /// The ICU locale id for a spelling from a corpus or the command line: a BCP 47 tag
  /// (`en-US-u-fw-mon`) becomes `en_US@fw=mon`; an ICU id (`en_US@fw=mon`,
  /// `ar_SA@calendar=islamic-umalqura`) stays as it is. Tags never contain `_` or `@`.
  public func icuID(for spelling: String) throws(ICUError) -> String {
    guard spelling.contains("-"), !spelling.contains("_"), !spelling.contains("@") else {
      return spelling
    }
    return try ICU.cString(backend, "uloc_forLanguageTag(\(spelling))") {
      buffer, capacity, status in
      icushim_locale_for_language_tag(backend.handle, spelling, buffer, capacity, status)
    }
  }

  /// Language, script and region of an ICU id, without keywords (`ja_JP@calendar=x` → `ja_JP`).
  public func baseName(of id: String) throws(ICUError) -> String {
    try ICU.cString(backend, "uloc_getBaseName(\(id))") { buffer, capacity, status in
      icushim_locale_base_name(backend.handle, id, buffer, capacity, status)
    }
  }

  /// Whether the backend has data for the locale itself, as opposed to silently falling back
  /// to a parent or to root: its base name is available as written (`de_DE`) or once likely
  /// subtags are added on both sides (`zh_CN` is ICU's `zh_Hans_CN`).
  public func isKnown(_ id: String) -> Bool {
    guard let base = try? baseName(of: id), !base.isEmpty else { return false }
    if known.contains(base) { return true }
    guard let maximized = try? Self.maximized(base, backend: backend) else { return false }
    return knownMaximized.contains(maximized)
  }

  /// The value of a keyword (`fw`, `calendar`, `rg`) in an ICU id, or `nil` when absent.
  public func keyword(_ name: String, in id: String) throws(ICUError) -> String? {
    let value = try ICU.cString(backend, "uloc_getKeywordValue(\(id), \(name))") {
      buffer, capacity, status in
      icushim_locale_keyword(backend.handle, id, name, buffer, capacity, status)
    }
    return value.isEmpty ? nil : value
  }

  /// The id with one keyword set (or replaced), e.g. `calendar=hebrew`.
  public func id(_ id: String, settingKeyword name: String, to value: String) throws(ICUError)
    -> String
  {
    try ICU.cString(backend, "uloc_setKeywordValue(\(id), \(name)=\(value))") {
      buffer, capacity, status in
      icushim_locale_with_keyword(backend.handle, id, name, value, buffer, capacity, status)
    }
  }
}
