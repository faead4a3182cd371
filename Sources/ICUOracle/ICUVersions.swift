internal import ICUShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The versions of one ICU backend and of the data it carries; every report states both sides'.
public struct ICUVersions: Sendable, Equatable, Codable {
  /// ICU library version, e.g. `72.1.0`.
  public var icu: String
  /// CLDR data version, e.g. `42.0`.
  public var cldr: String
  /// tz database version, e.g. `2022e`.
  public var tz: String

  public init(icu: String, cldr: String, tz: String) {
    self.icu = icu
    self.cldr = cldr
    self.tz = tz
  }
}

extension ICUBackend {
  /// Reads the library, CLDR and tz versions of this backend.
  public func versions() throws(ICUError) -> ICUVersions {
    let icu = try ICU.cString(self, "u_getVersion", capacity: 32) { buffer, capacity, _ in
      icushim_icu_version(handle, buffer, capacity)
      return Int32(strlen(buffer))
    }
    let cldr = try ICU.cString(self, "ulocdata_getCLDRVersion", capacity: 32) {
      buffer, capacity, status in
      icushim_cldr_version(handle, buffer, capacity, status)
      return Int32(strlen(buffer))
    }
    let tz = try ICU.cString(self, "ucal_getTZDataVersion", capacity: 32) {
      buffer, capacity, status in
      icushim_tz_version(handle, buffer, capacity, status)
      return Int32(strlen(buffer))
    }
    return ICUVersions(icu: icu, cldr: cldr, tz: tz)
  }
}
