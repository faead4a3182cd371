import Foundation

/// A few top-level members of one JSON object, found without decoding the rest.
///
/// A baseline needs four members of each of ~400,000 case records; `JSONDecoder` builds a
/// map of every member of every record first, which made reading a full sweep's baseline take
/// seconds. This reader walks the object once, checking its structure as it goes (strings,
/// numbers, literals, nesting), and keeps where each wanted member's value lies.
///
/// It only ever answers for what it is sure of: an accessor returns `nil` for a member that
/// is absent or not of the asked type, and the caller then decodes that value with
/// `JSONDecoder` (which accepts it or names the fault). So the two readers cannot disagree.
struct JSONMembers {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var ranges: [Range<Int>?]

  /// The keys a reader wants, in the order it asks for them by index: a record's own
  /// `CodingKeys` (so its readers name no key of their own), or literals for a protocol's.
  struct Names: ExpressibleByArrayLiteral, Sendable {
    let keys: [[UInt8]]

    init<Key: CodingKey>(_ keys: [Key]) { self.keys = keys.map { Array($0.stringValue.utf8) } }
    init(arrayLiteral keys: StaticString...) {
      self.keys = keys.map { Array(UnsafeBufferPointer(start: $0.utf8Start, count: $0.utf8CodeUnitCount)) }
    }
  }

  /// The members `wanted` of the object in `bytes`, or `nil` when `bytes` is not one
  /// well-formed JSON object (with white space around it at most).
  init?(_ bytes: UnsafeBufferPointer<UInt8>, wanted: Names) {
    self.bytes = bytes
    var parser = Parser(bytes: bytes)
    var found = Array<Range<Int>?>(repeating: nil, count: wanted.keys.count)
    let complete = parser.object { key, value in
      let plain = key.contains(UInt8(ascii: "\\")) ? nil : key
      let unescaped = plain == nil ? Parser.unescaped(key) : nil
      for (index, name) in wanted.keys.enumerated() {
        if let plain, plain.elementsEqual(name) { found[index] = value }
        if let unescaped, unescaped.elementsEqual(name) { found[index] = value }
      }
    }
    guard complete, parser.atEnd() else { return nil }
    ranges = found
  }

  /// Member `index` read by `read` when present and not `null`, else `nil`; a member present
  /// that `read` does not read clears `sure` (the caller then leaves the whole object to
  /// `JSONDecoder`).
  func optional<T>(_ index: Int, sure: inout Bool, _ read: (Int) -> T?) -> T? {
    guard has(index) else { return nil }
    let value = read(index)
    if value == nil { sure = false }
    return value
  }

  /// Whether member `index` is present and not `null`.
  func has(_ index: Int) -> Bool {
    guard let range = ranges[index] else { return false }
    return !(range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n"))
  }

  /// Member `index` as a string, or `nil` when absent or not a string.
  func string(_ index: Int) -> String? {
    text(index).flatMap(Self.string)
  }

  /// Member `index` as an integer written without fraction or exponent, or `nil`.
  func int(_ index: Int) -> Int? {
    text(index).flatMap(Self.int)
  }

  /// Member `index` as a number, or `nil` when absent or not a number.
  func double(_ index: Int) -> Double? {
    text(index).flatMap(Self.double)
  }

  /// The integer `bytes` hold, written without fraction or exponent, or `nil`.
  static func int(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var value = 0
    var negative = false
    var digits = 0
    for (position, byte) in bytes.enumerated() {
      if position == 0 && byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard byte >= 0x30, byte <= 0x39, digits < 18 else { return nil }
      value = value * 10 + Int(byte - 0x30)
      digits += 1
    }
    return digits > 0 ? (negative ? -value : value) : nil
  }

  /// The number `bytes` hold (a JSON number, already checked by the walk), or `nil`.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard let first = bytes.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { return nil }
    return Double(String(decoding: bytes, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
  }

  /// Every member of the object in `bytes` in order, keys unescaped; `nil` when `bytes` is
  /// not one well-formed object, a key is held twice or names a lone surrogate.
  static func all(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: String, value: UnsafeBufferPointer<UInt8>)]? {
    var parser = Parser(bytes: bytes)
    var members: [(key: String, value: UnsafeBufferPointer<UInt8>)] = []
    var keys: Set<String> = []
    var sure = true
    let complete = parser.object { key, value in
      guard let unescaped = Parser.unescaped(key) else { return sure = false }
      let name = String(decoding: unescaped, as: UTF8.self)
      if !keys.insert(name).inserted { sure = false }
      members.append((name, UnsafeBufferPointer(rebasing: bytes[value])))
    }
    guard complete, sure, parser.atEnd() else { return nil }
    return members
  }

  /// The object of integers in `bytes` (a step's `skipReasons`, a worker's `slowReads`), or
  /// `nil` when it is not one.
  static func counts(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: Int]? {
    guard let members = all(bytes) else { return nil }
    var counts: [String: Int] = [:]
    for (key, value) in members {
      guard let count = int(value) else { return nil }
      counts[key] = count
    }
    return counts
  }

  /// The integers of the array in `bytes`, or `nil` when it is not an array of them.
  static func ints(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int]? { array(bytes, int) }

  /// The strings and nulls of the array in `bytes`, or `nil` when it is not an array of them.
  static func optionalStrings(_ bytes: UnsafeBufferPointer<UInt8>) -> [String?]? {
    array(bytes) { element in element.elementsEqual("null".utf8) ? .some(nil) : string(element).map { .some($0) } }
  }

  /// The elements of the array in `bytes`, each read by `element`; `nil` when it is not one
  /// well-formed array or an element does not read.
  static func array<Element>(_ bytes: UnsafeBufferPointer<UInt8>,
                             _ element: (UnsafeBufferPointer<UInt8>) -> Element?) -> [Element]? {
    var parser = Parser(bytes: bytes)
    var values: [Element] = []
    var sure = true
    let complete = parser.array { range in
      guard sure, let value = element(UnsafeBufferPointer(rebasing: bytes[range])) else { return sure = false }
      values.append(value)
    }
    guard complete, sure, parser.atEnd() else { return nil }
    return values
  }

  /// The string `bytes` hold (quotes included), or `nil` when they hold another value.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
    return Parser.unescaped(UnsafeBufferPointer(rebasing: bytes[1..<bytes.count - 1]))
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// The case value (`Value`) `bytes` hold, when they hold one: null, a boolean, an integer
  /// without fraction or exponent, a string, or an array of these. `nil` otherwise, and the
  /// caller decodes it with `JSONDecoder`, which reads a value the same way or names the fault.
  /// (`Value`'s `Decodable` tries each kind in turn, an error for each miss: reading a month
  /// of cells that way was most of what a merge's abridging cost.)
  static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
    switch bytes.first {
    case UInt8(ascii: "\""):
      var parser = Parser(bytes: bytes)
      guard parser.value(), parser.atEnd() else { return nil }
      return string(bytes).map(Value.string)
    case UInt8(ascii: "["): return array(bytes, value).map(Value.list)
    case UInt8(ascii: "n"): return bytes.elementsEqual("null".utf8) ? .null : nil
    case UInt8(ascii: "t"): return bytes.elementsEqual("true".utf8) ? .bool(true) : nil
    case UInt8(ascii: "f"): return bytes.elementsEqual("false".utf8) ? .bool(false) : nil
    default:
      var parser = Parser(bytes: bytes)
      guard parser.value(), parser.atEnd() else { return nil }
      return int(bytes).map(Value.int)
    }
  }

  /// Where member `index`'s JSON text lies in the bytes read.
  func range(_ index: Int) -> Range<Int>? { ranges[index] }

  /// Member `index`'s JSON text in place (an object to read members of in turn).
  func text(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
    ranges[index].map { UnsafeBufferPointer(rebasing: bytes[$0]) }
  }

  /// Member `index`'s JSON text, for `JSONDecoder`.
  func raw(_ index: Int) -> Data? {
    ranges[index].map { Data(UnsafeBufferPointer(rebasing: bytes[$0])) }
  }

  /// A recursive-descent walk over JSON text (RFC 8259) that keeps only positions.
  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Objects and arrays within one value; deeper text is refused, never a stack overflow.
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func atEnd() -> Bool {
      skipSpace()
      return position == bytes.count
    }

    /// Walks the object here, handing `visit` each member's key (its body between the
    /// quotes, escapes as written) and its value's range; `false` when it is not an object.
    mutating func object(_ visit: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) -> Bool {
      skipSpace()
      guard take(UInt8(ascii: "{")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "}")) { return true }
      while true {
        skipSpace()
        let keyStart = position
        guard string() else { return false }
        let key = UnsafeBufferPointer(rebasing: bytes[keyStart + 1..<position - 1])
        skipSpace()
        guard take(UInt8(ascii: ":")) else { return false }
        skipSpace()
        let valueStart = position
        guard value() else { return false }
        visit(key, valueStart..<position)
        skipSpace()
        if take(UInt8(ascii: ",")) { continue }
        return take(UInt8(ascii: "}"))
      }
    }

    /// Walks the array here, handing `visit` each element's range; `false` when it is not one.
    mutating func array(_ visit: (Range<Int>) -> Void) -> Bool {
      skipSpace()
      guard take(UInt8(ascii: "[")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "]")) { return true }
      while true {
        skipSpace()
        let start = position
        guard value() else { return false }
        visit(start..<position)
        skipSpace()
        if take(UInt8(ascii: ",")) { continue }
        return take(UInt8(ascii: "]"))
      }
    }

    /// Moves past one value; `false` when the text here is not one.
    mutating func value() -> Bool {
      guard position < bytes.count else { return false }
      switch bytes[position] {
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true)
      case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false)
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return number()
      }
    }

    private mutating func container(close: UInt8, keyed: Bool) -> Bool {
      guard depth < 64 else { return false }
      depth += 1
      defer { depth -= 1 }
      position += 1
      skipSpace()
      if take(close) { return true }
      while true {
        skipSpace()
        if keyed {
          guard string() else { return false }
          skipSpace()
          guard take(UInt8(ascii: ":")) else { return false }
          skipSpace()
        }
        guard value() else { return false }
        skipSpace()
        if take(UInt8(ascii: ",")) { continue }
        return take(close)
      }
    }

    /// Moves past a string, checking its escapes and that it holds no control character.
    private mutating func string() -> Bool {
      guard take(UInt8(ascii: "\"")) else { return false }
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return true
        case UInt8(ascii: "\\"):
          guard position < bytes.count else { return false }
          let escape = bytes[position]
          position += 1
          if escape == UInt8(ascii: "u") {
            guard position + 4 <= bytes.count,
              (0..<4).allSatisfy({ Self.hexDigit(bytes[position + $0]) != nil })
            else { return false }
            position += 4
          } else if !"\"\\/bfnrt".utf8.contains(escape) {
            return false
          }
        case 0..<0x20: return false
        default: continue
        }
      }
      return false
    }

    /// Moves past a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() -> Bool {
      _ = take(UInt8(ascii: "-"))
      if take(UInt8(ascii: "0")) {
        // No leading zeros.
      } else {
        guard digits() else { return false }
      }
      if take(UInt8(ascii: ".")) { guard digits() else { return false } }
      if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
        if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
        guard digits() else { return false }
      }
      return true
    }

    private mutating func digits() -> Bool {
      let start = position
      while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
      return position > start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard position + count <= bytes.count,
        UnsafeBufferPointer(rebasing: bytes[position..<position + count])
          .elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
      else { return false }
      position += count
      return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    private mutating func skipSpace() {
      while position < bytes.count {
        switch bytes[position] {
        case 0x20, 0x0A, 0x0D, 0x09: position += 1
        default: return
        }
      }
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
      switch byte {
      case 0x30...0x39: UInt32(byte - 0x30)
      case 0x41...0x46: UInt32(byte - 0x41 + 10)
      case 0x61...0x66: UInt32(byte - 0x61 + 10)
      default: nil
      }
    }

    /// The UTF-8 bytes a string's body (between its quotes, already checked) stands for;
    /// `nil` for an escape that names a lone surrogate (left to `JSONDecoder` to judge).
    static func unescaped(_ body: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
      guard body.contains(UInt8(ascii: "\\")) else { return Array(body) }
      var output: [UInt8] = []
      output.reserveCapacity(body.count)
      var index = 0
      func hex4(_ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | hexDigit(body[at + $1])! }
      }
      while index < body.count {
        let byte = body[index]
        index += 1
        guard byte == UInt8(ascii: "\\") else {
          output.append(byte)
          continue
        }
        let escape = body[index]
        index += 1
        switch escape {
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = hex4(index)
          index += 4
          if (0xD800..<0xDC00).contains(scalar) {
            guard index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
              body[index + 1] == UInt8(ascii: "u")
            else { return nil }
            let low = hex4(index + 2)
            guard (0xDC00..<0xE000).contains(low) else { return nil }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            index += 6
          }
          guard let unicode = Unicode.Scalar(scalar) else { return nil }
          output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: output.append(escape)
        }
      }
      return output
    }
  }
}

/// A record type a reader can take from a few top-level members (`JSONMembers`), the way a
/// baseline reads case and step records; `init(members:)` returns `nil` for anything it is
/// not sure of, and that value is decoded with `JSONDecoder` instead.
protocol MemberDecodable: Decodable, Sendable {
  static var members: JSONMembers.Names { get }
  /// Whose count a value `init(members:)` declines adds to.
  static var slowReader: SlowReads.Reader { get }
  init?(members: JSONMembers)
}
