import ICUOracle

/// The stable name of one case, built from its dimension values, so that two runs (and a
/// later `explain`) can refer to the same case.
///
/// Text form: `check|locale=…|calendar=…|fw=…|zone=…|month=yyyy-MM-dd|variant=…`, with only the
/// dimensions the check depends on, always in this order. `month` is the oracle's first local
/// day of the month (proleptic Gregorian), so it names the same month in every calendar.
package struct CaseID: Hashable, Sendable, CustomStringConvertible {
  package var check: String
  package var locale: String?
  package var calendar: String?
  package var firstWeekday: FirstWeekdaySetting?
  package var zone: String?
  package var month: LocalDay?
  package var variant: String?

  package init(check: String, locale: String? = nil, calendar: String? = nil,
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

  /// The dimension keys of the text form, in their order: `Dimension`'s.
  package static let keys = Dimension.allCases.map(\.rawValue)

  /// The text of one dimension, or `nil` when the case has none.
  package func value(of dimension: Dimension) -> String? {
    switch dimension {
    case .locale: locale
    case .calendar: calendar
    case .firstWeekday: firstWeekday?.description
    case .zone: zone
    case .month: month?.description
    case .variant: variant
    }
  }

  /// The text of one dimension by its key (one of `keys`), or `nil` when the case has none
  /// or the key is none: waivers ask for one or two per case, millions of times a sweep.
  package func value(of key: String) -> String? {
    Dimension(rawValue: key).flatMap { value(of: $0) }
  }

  /// The dimension values in id order, as (key, text) pairs.
  package var dimensionValues: [(key: String, value: String)] {
    Dimension.allCases.compactMap { dimension in value(of: dimension).map { (dimension.rawValue, $0) } }
  }

  /// Each dimension's key and text in id order, without building the list (a merge counts
  /// every failing case's dimensions).
  package func forEachDimension(_ body: (_ key: String, _ value: String) -> Void) {
    for dimension in Dimension.allCases {
      if let value = value(of: dimension) { body(dimension.rawValue, value) }
    }
  }

  package var description: String {
    ([check] + dimensionValues.map { "\($0.key)=\($0.value)" }).joined(separator: "|")
  }

  /// Human coordinates for failure messages: `locale: fa_IR › calendar: persian › fw: 7 › …`.
  package var coordinates: String {
    dimensionValues.map { "\($0.key): \($0.value)" }.joined(separator: " › ")
  }

  /// Parses the text form.
  ///
  /// - Throws: `InputError` naming the part that is not understood.
  package init(parsing text: String) throws(InputError) {
    // One pass over the bytes: a merge and a baseline parse every failing case's id
    // (~600,000 a night), and splitting it into strings first was most of what a merge's
    // reading threads spent.
    var utf8 = text
    self = try utf8.withUTF8 { Self.parse($0, text: text) }.get()
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> Result<CaseID, InputError> {
    func string(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    let bar = UInt8(ascii: "|")
    var start = 0
    while start < bytes.count, bytes[start] != bar { start += 1 }
    guard start > 0 else { return .failure(InputError("case id '\(text)' has no check")) }
    var id = CaseID(check: string(0..<start))
    var lastKey = -1
    while start < bytes.count {
      let part = start + 1
      var end = part
      var equals: Int?
      while end < bytes.count, bytes[end] != bar {
        if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
        end += 1
      }
      guard let equals else {
        return .failure(InputError("case id '\(text)': '\(string(part..<end))' is not key=value"))
      }
      guard let position = keyBytes.firstIndex(where: { $0.elementsEqual(bytes[part..<equals]) }),
        position > lastKey, equals + 1 < end
      else { return .failure(InputError("case id '\(text)': unexpected '\(string(part..<end))'")) }
      lastKey = position
      let value = (equals + 1)..<end
      switch position {
      case 0: id.locale = string(value)
      case 1: id.calendar = string(value)
      case 2:
        // A digit as the id writes it, else what `FirstWeekdaySetting` reads ("own").
        let digit = value.count == 1 ? bytes[value.lowerBound] &- UInt8(ascii: "0") : 0
        guard let setting = (1...7).contains(digit) ? .fixed(Int(digit)) : FirstWeekdaySetting(string(value)) else {
          return .failure(InputError("case id '\(text)': fw=\(string(value)) is not own or 1…7"))
        }
        id.firstWeekday = setting
      case 3: id.zone = string(value)
      case 4:
        guard let day = LocalDay(isoBytes: UnsafeBufferPointer(rebasing: bytes[value])) ?? LocalDay(isoText: string(value))
        else { return .failure(InputError("case id '\(text)': month=\(string(value)) is not yyyy-MM-dd")) }
        id.month = day
      default: id.variant = string(value)
      }
      start = end
    }
    return .success(id)
  }

  private static let keyBytes = keys.map { Array($0.utf8) }
}

extension CaseID: Codable {
  /// A case id is written as its text form, the one `explain` and waivers read.
  package init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(parsing: text)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                              debugDescription: error.message))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
