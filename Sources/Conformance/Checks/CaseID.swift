import ICUOracle

/// The stable name of one case, built from its dimension values, so that two runs (and a
/// later `explain`) can refer to the same case.
///
/// Text form: `check|locale=…|calendar=…|fw=…|zone=…|month=yyyy-MM-dd|variant=…`, with only the
/// dimensions the check depends on, always in this order. `month` is the oracle's first local
/// day of the month (proleptic Gregorian), so it names the same month in every calendar.
public struct CaseID: Hashable, Sendable, CustomStringConvertible {
  public var check: String
  public var locale: String?
  public var calendar: String?
  public var firstWeekday: FirstWeekdaySetting?
  public var zone: String?
  public var month: LocalDay?
  public var variant: String?

  public init(check: String, locale: String? = nil, calendar: String? = nil,
              firstWeekday: FirstWeekdaySetting? = nil, zone: String? = nil,
              month: LocalDay? = nil, variant: String? = nil) {
    self.check = check
    self.locale = locale
    self.calendar = calendar
    self.firstWeekday = firstWeekday
    self.zone = zone
    self.month = month
    self.variant = variant
  }

  /// The dimension keys of the text form, in their order.
  public static let keys = ["locale", "calendar", "fw", "zone", "month", "variant"]

  /// The text of one dimension (one of `keys`), or `nil` when the case has none: waivers ask
  /// for one or two per case, millions of times a sweep.
  public func value(of key: String) -> String? {
    switch key {
    case "locale": locale
    case "calendar": calendar
    case "fw": firstWeekday?.description
    case "zone": zone
    case "month": month?.description
    case "variant": variant
    default: nil
    }
  }

  /// The dimension values in id order, as (key, text) pairs.
  public var dimensionValues: [(key: String, value: String)] {
    Self.keys.compactMap { key in value(of: key).map { (key, $0) } }
  }

  /// Each dimension's key and text in id order, without building the list (a merge counts
  /// every failing case's dimensions).
  public func forEachDimension(_ body: (_ key: String, _ value: String) -> Void) {
    if let locale { body("locale", locale) }
    if let calendar { body("calendar", calendar) }
    if let firstWeekday { body("fw", firstWeekday.description) }
    if let zone { body("zone", zone) }
    if let month { body("month", month.description) }
    if let variant { body("variant", variant) }
  }

  public var description: String {
    ([check] + dimensionValues.map { "\($0.key)=\($0.value)" }).joined(separator: "|")
  }

  /// Human coordinates for failure messages: `locale: fa_IR › calendar: persian › fw: 7 › …`.
  public var coordinates: String {
    dimensionValues.map { "\($0.key): \($0.value)" }.joined(separator: " › ")
  }

  /// Parses the text form.
  ///
  /// - Throws: `InputError` naming the part that is not understood.
  public init(parsing text: String) throws(InputError) {
    // A merge and a baseline parse every failing case's id (~600,000 a night): one pass over
    // the bytes reads a well-formed id; anything else is read again below, which names the
    // fault.
    var text = text
    if let parsed = text.withUTF8({ Self.parsed($0) }) {
      self = parsed
      return
    }
    try self.init(checking: text)
  }

  /// The id in `bytes` when it is well formed, else `nil`.
  private static func parsed(_ bytes: UnsafeBufferPointer<UInt8>) -> CaseID? {
    let bar = UInt8(ascii: "|")
    var start = 0
    while start < bytes.count, bytes[start] != bar { start += 1 }
    guard start > 0 else { return nil }
    var id = CaseID(check: String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<start]), as: UTF8.self))
    var lastKey = -1
    while start < bytes.count {
      var end = start + 1
      var equals = -1
      while end < bytes.count, bytes[end] != bar {
        if equals < 0, bytes[end] == UInt8(ascii: "=") { equals = end }
        end += 1
      }
      guard equals > start, equals + 1 < end,
        let position = Self.keyBytes.firstIndex(where: { $0.elementsEqual(bytes[(start + 1)..<equals]) }),
        position > lastKey
      else { return nil }
      lastKey = position
      let value = UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end])
      switch position {
      case 0: id.locale = String(decoding: value, as: UTF8.self)
      case 1: id.calendar = String(decoding: value, as: UTF8.self)
      case 2:
        if value.count == 1, (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(value[0]) {
          id.firstWeekday = .fixed(Int(value[0] - UInt8(ascii: "0")))
        } else if value.elementsEqual("own".utf8) {
          id.firstWeekday = .own
        } else {
          return nil
        }
      case 3: id.zone = String(decoding: value, as: UTF8.self)
      case 4:
        guard let day = LocalDay(isoBytes: value) else { return nil }
        id.month = day
      default: id.variant = String(decoding: value, as: UTF8.self)
      }
      start = end
    }
    return id
  }

  private static let keyBytes = keys.map { Array($0.utf8) }

  /// Parses the text form, naming what is not understood.
  private init(checking text: String) throws(InputError) {
    let parts = text.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
    guard let check = parts.first, !check.isEmpty else {
      throw InputError("case id '\(text)' has no check")
    }
    self.init(check: String(Substring(check)))
    var lastKey = -1
    for part in parts.dropFirst() {
      guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else {
        throw InputError("case id '\(text)': '\(Substring(part))' is not key=value")
      }
      let key = part[..<equals]
      let value = String(Substring(part[part.index(after: equals)...]))
      guard let position = Self.keys.firstIndex(where: { $0.utf8.elementsEqual(key) }),
        position > lastKey, !value.isEmpty
      else {
        throw InputError("case id '\(text)': unexpected '\(Substring(part))'")
      }
      lastKey = position
      switch position {
      case 0: locale = value
      case 1: calendar = value
      case 2:
        guard let setting = FirstWeekdaySetting(value) else {
          throw InputError("case id '\(text)': fw=\(value) is not own or 1…7")
        }
        firstWeekday = setting
      case 3: zone = value
      case 4:
        guard let day = LocalDay(isoText: value) else {
          throw InputError("case id '\(text)': month=\(value) is not yyyy-MM-dd")
        }
        month = day
      default: variant = value
      }
    }
  }
}

extension CaseID: Codable {
  /// A case id is written as its text form, the one `explain` and waivers read.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(parsing: text)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                              debugDescription: error.message))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
