import Foundation

/// JSON text read in place (RFC 8259): the walk `MemberDecoder` finds members and elements
/// with, and the scalars it reads, each `nil` for anything it is not sure of.
enum JSONText {
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

  /// Whether `bytes` start as a number does (the walk has checked the rest).
  static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first else { return false }
    return first == UInt8(ascii: "-") || (0x30...0x39).contains(first)
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

  /// The finite number `bytes` hold (a JSON number, already checked by the walk), or `nil`.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard isNumber(bytes) else { return nil }
    return Double(String(decoding: bytes, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
  }

  /// The string `bytes` hold (quotes included), or `nil` when they hold another value.
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
    return unescaped(UnsafeBufferPointer(rebasing: bytes[1..<bytes.count - 1]))
      .map { String(decoding: $0, as: UTF8.self) }
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

  /// Whether `bytes` are one JSON value, white space around it at most.
  static func isValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var parser = Parser(bytes: bytes)
    return parser.value() && parser.atEnd()
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

  static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: UInt32(byte - 0x30)
    case 0x41...0x46: UInt32(byte - 0x41 + 10)
    case 0x61...0x66: UInt32(byte - 0x61 + 10)
    default: nil
    }
  }

  /// A recursive-descent walk over JSON text (RFC 8259) that keeps only positions.
  struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    /// Objects and arrays within one value; deeper text is refused, never a stack overflow.
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) { (self.bytes, self.position) = (bytes, position) }

    mutating func atEnd() -> Bool {
      skipSpace()
      return position == bytes.count
    }

    /// Walks the object here, handing `visit` where each member's key lies (its body between
    /// the quotes, escapes as written) and its value; `false` when it is not an object.
    mutating func object(_ visit: (Range<Int>, Range<Int>) -> Void) -> Bool {
      skipSpace()
      guard take(UInt8(ascii: "{")) else { return false }
      skipSpace()
      if take(UInt8(ascii: "}")) { return true }
      while true {
        skipSpace()
        let keyStart = position
        guard string() else { return false }
        let key = keyStart + 1..<position - 1
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
              (0..<4).allSatisfy({ JSONText.hexDigit(bytes[position + $0]) != nil })
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
      while position < bytes.count, JSONText.isSpace(bytes[position]) { position += 1 }
    }
  }
}
