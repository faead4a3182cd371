internal import ICUShim

/// The time zones one ICU backend knows.
///
/// libicu treats an id it does not know as GMT without an error, so every zone id goes
/// through `canonicalID(of:)` before the oracle opens a calendar with it.
public struct ZoneCatalog: Sendable {
  public let backend: ICUBackend

  public init(backend: ICUBackend = .system) { self.backend = backend }

  /// Which system zone ids to list.
  public enum Selection: Sendable {
    /// Every id, aliases such as `US/Eastern` included.
    case any
    /// Canonical ids only (`America/New_York`, `Etc/GMT+5`).
    case canonical
    /// Canonical ids tied to a location (no `Etc/…`).
    case canonicalLocation

    var shim: ICUShimZoneSet {
      switch self {
      case .any: ICUSHIM_ZONES_ANY
      case .canonical: ICUSHIM_ZONES_CANONICAL
      case .canonicalLocation: ICUSHIM_ZONES_CANONICAL_LOCATION
      }
    }
  }

  /// Every system zone id of a selection.
  public func ids(_ selection: Selection = .any) throws(ICUError) -> [String] {
    let set = selection.shim
    let joined = try ICU.cString(backend, "ucal_openTimeZoneIDEnumeration", capacity: 1 << 14) {
      buffer, capacity, status in
      icushim_zone_ids(backend.handle, set, buffer, capacity, status)
    }
    return joined.split(separator: "\0").map(String.init)
  }

  /// The canonical id of a zone id (`US/Eastern` → `America/New_York`), or `nil` when the
  /// backend does not know the id as a system zone.
  public func canonicalID(of zone: String) -> String? {
    guard zone.utf8.count < 120, zone.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
    var isSystem: Int8 = 0
    let id = try? ICU.cString(backend, "ucal_getCanonicalTimeZoneID(\(zone))") {
      buffer, capacity, status in
      icushim_canonical_zone_id(backend.handle, zone, buffer, capacity, &isSystem, status)
    }
    guard let id, isSystem != 0 else { return nil }
    return id
  }
}
