import Foundation

/// A `Decoder` over JSON text that reads each object's members by key where they lie, so a
/// record's `init(from:)` is its only reader, on every path.
///
/// `JSONDecoder` maps every value of a document before the first `init(from:)` runs, which
/// made reading a full sweep's cases, steps and baseline, and an executor's questions, cost
/// seconds. This decoder walks an object once to find its members and reads a value only
/// when it is asked for.
///
/// It answers only what it is sure `JSONDecoder` answers alike: plain integers, finite
/// numbers, strings, booleans, null, objects (each key once) and arrays. Anything else (a
/// fraction read as an integer, a lone surrogate, a key twice, text that is not JSON, a
/// `Date`, `Data`, `URL` or `Decimal`, a super decoder) makes the read unsure, and `decode`
/// returns `nil`: the caller then decodes with `JSONDecoder`, which reads the same value or
/// names the fault. Its own errors carry no coding path, for the same reason.
struct MemberDecoder: Decoder, SingleValueDecodingContainer {
  let reading: Reading
  /// Where this value's text lies in the read's bytes.
  let range: Range<Int>

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The value's JSON text, for a type that reads its own (`Value`); valid while the read lasts.
  var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: reading.bytes[range]) }

  /// `T` as its `init(from:)` reads the JSON text in `bytes`, or `nil` when this decoder is
  /// not sure `JSONDecoder` would read it alike.
  ///
  /// - Parameter leaving: keys read as absent wherever they are (a value the caller reads
  ///   later, if ever, from its range: `Reading.range(ofRootMember:)`).
  static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>,
                                   leaving: [String] = []) -> T? {
    read(T.self, from: bytes, leaving: leaving)?.value
  }

  /// The same, with the read, whose root members' ranges the caller may still ask for while
  /// `bytes` lives.
  static func read<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>,
                                 leaving: [String] = []) -> (value: T, reading: Reading)? {
    // JSONDecoder refuses text that is not UTF-8 anywhere, read or not.
    if bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) == nil { return nil }
    var start = 0
    var end = bytes.count
    while start < end, JSONText.isSpace(bytes[start]) { start += 1 }
    while end > start, JSONText.isSpace(bytes[end - 1]) { end -= 1 }
    guard start < end else { return nil }
    let reading = Reading(bytes: bytes, root: start..<end, leaving: leaving)
    // A container checks its own text as it walks it; a single value at the root is checked here.
    if bytes[start] != UInt8(ascii: "{"), bytes[start] != UInt8(ascii: "[") {
      guard JSONText.isValue(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return nil }
    }
    guard let value = try? reading.decode(T.self, at: start..<end), reading.sure else { return nil }
    return (value, reading)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(try Members<Key>(reading, range))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try Elements(reading, range) }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { reading.isNull(range) }
  func decode(_ type: Bool.Type) throws -> Bool { try reading.bool(range) }
  func decode(_ type: String.Type) throws -> String { try reading.string(range) }
  func decode(_ type: Double.Type) throws -> Double { try reading.double(range) }
  func decode(_ type: Float.Type) throws -> Float { throw reading.unsure() }
  func decode(_ type: Int.Type) throws -> Int { try reading.int(range) }
  func decode(_ type: Int8.Type) throws -> Int8 { try reading.integer(range) }
  func decode(_ type: Int16.Type) throws -> Int16 { try reading.integer(range) }
  func decode(_ type: Int32.Type) throws -> Int32 { try reading.integer(range) }
  func decode(_ type: Int64.Type) throws -> Int64 { try reading.integer(range) }
  func decode(_ type: UInt.Type) throws -> UInt { try reading.integer(range) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try reading.integer(range) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try reading.integer(range) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try reading.integer(range) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try reading.integer(range) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try reading.decode(T.self, at: range) }

  /// One read: its text, the keys it leaves, and whether every answer so far is one
  /// `JSONDecoder` gives alike.
  final class Reading {
    let bytes: UnsafeBufferPointer<UInt8>
    let root: Range<Int>
    let leaving: [String]
    private(set) var sure = true
    /// The root object's members, once read.
    private var rootMembers: [Member] = []

    init(bytes: UnsafeBufferPointer<UInt8>, root: Range<Int>, leaving: [String]) {
      (self.bytes, self.root, self.leaving) = (bytes, root, leaving)
    }

    /// Where the root object's member `name` lies, read or left (while `bytes` lives).
    func range(ofRootMember name: String) -> Range<Int>? {
      var name = name
      return name.withUTF8 { wanted in rootMembers.first { $0.isNamed(wanted, in: bytes) }?.value }
    }

    /// An error that makes the whole read unsure, whoever catches it.
    func unsure() -> any Error {
      sure = false
      return Unsure()
    }

    func mismatch(_ type: Any.Type, _ what: String) -> any Error {
      DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "expected \(what)"))
    }

    func decode<T: Decodable>(_ type: T.Type, at range: Range<Int>) throws -> T {
      // JSONDecoder reads these by its strategies, not by their own `init(from:)`.
      if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
        throw unsure()
      }
      return try T(from: MemberDecoder(reading: self, range: range))
    }

    func isNull(_ range: Range<Int>) -> Bool {
      range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n")
    }

    func bool(_ range: Range<Int>) throws -> Bool {
      switch (range.count, bytes[range.lowerBound]) {
      case (4, UInt8(ascii: "t")): return true
      case (5, UInt8(ascii: "f")): return false
      default: throw mismatch(Bool.self, "a boolean")
      }
    }

    func string(_ range: Range<Int>) throws -> String {
      guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { throw mismatch(String.self, "a string") }
      guard let string = JSONText.string(UnsafeBufferPointer(rebasing: bytes[range])) else { throw unsure() }
      return string
    }

    func int(_ range: Range<Int>) throws -> Int {
      let text = UnsafeBufferPointer(rebasing: bytes[range])
      guard JSONText.isNumber(text) else { throw mismatch(Int.self, "a number") }
      guard let value = JSONText.int(text) else { throw unsure() }
      return value
    }

    func integer<T: FixedWidthInteger>(_ range: Range<Int>) throws -> T {
      guard let value = T(exactly: try int(range)) else { throw unsure() }
      return value
    }

    func double(_ range: Range<Int>) throws -> Double {
      let text = UnsafeBufferPointer(rebasing: bytes[range])
      guard JSONText.isNumber(text) else { throw mismatch(Double.self, "a number") }
      guard let value = JSONText.double(text) else { throw unsure() }
      return value
    }

    /// The members of the object at `range`, checked as they are walked.
    func members(_ range: Range<Int>) throws -> [Member] {
      guard range.count > 0, bytes[range.lowerBound] == UInt8(ascii: "{") else {
        throw mismatch([String: Any].self, "an object")
      }
      var parser = JSONText.Parser(bytes: bytes, position: range.lowerBound)
      var members: [Member] = []
      members.reserveCapacity(16)
      var clear = true
      let complete = parser.object { key, value in
        var member = Member(key: key, unescaped: nil, value: value)
        if bytes[key].contains(UInt8(ascii: "\\")) {
          member.unescaped = JSONText.unescaped(UnsafeBufferPointer(rebasing: bytes[key]))
          if member.unescaped == nil { clear = false }
        }
        if members.contains(where: { $0.hasSameKey(as: member, in: bytes) }) { clear = false }
        members.append(member)
      }
      guard complete, clear, parser.position == range.upperBound else { throw unsure() }
      if range == root { rootMembers = members }
      return members
    }

    /// The elements of the array at `range`, checked as they are walked.
    func elements(_ range: Range<Int>) throws -> [Range<Int>] {
      guard range.count > 0, bytes[range.lowerBound] == UInt8(ascii: "[") else {
        throw mismatch([Any].self, "an array")
      }
      var parser = JSONText.Parser(bytes: bytes, position: range.lowerBound)
      var elements: [Range<Int>] = []
      let complete = parser.array { elements.append($0) }
      guard complete, parser.position == range.upperBound else { throw unsure() }
      return elements
    }
  }

  /// An answer `JSONDecoder` might give otherwise: the read is left to it.
  struct Unsure: Error {}

  /// Where one member's key (between its quotes) and value lie.
  struct Member {
    var key: Range<Int>
    /// The key's bytes, when it is written with escapes.
    var unescaped: [UInt8]?
    var value: Range<Int>

    func isNamed(_ name: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      if let unescaped { return unescaped.elementsEqual(name) }
      return key.count == name.count && bytes[key].elementsEqual(name)
    }

    func hasSameKey(as other: Member, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      if let unescaped = other.unescaped { return unescaped.withUnsafeBufferPointer { isNamed($0, in: bytes) } }
      return isNamed(UnsafeBufferPointer(rebasing: bytes[other.key]), in: bytes)
    }

    func name(in bytes: UnsafeBufferPointer<UInt8>) -> String {
      unescaped.map { String(decoding: $0, as: UTF8.self) } ?? String(decoding: bytes[key], as: UTF8.self)
    }
  }

  /// An object's members by key.
  struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reading: Reading
    let members: [Member]

    init(_ reading: Reading, _ range: Range<Int>) throws {
      (self.reading, members) = (reading, try reading.members(range))
    }

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
      members.compactMap { member in
        let name = member.name(in: reading.bytes)
        return reading.leaving.contains(name) ? nil : Key(stringValue: name)
      }
    }

    /// Where the value of `key` lies, or `nil` when the object has no such member (or the
    /// read leaves it).
    private func find(_ key: Key) -> Range<Int>? {
      var name = key.stringValue
      if !reading.leaving.isEmpty, reading.leaving.contains(name) { return nil }
      let bytes = reading.bytes
      return name.withUTF8 { wanted in members.first { $0.isNamed(wanted, in: bytes) }?.value }
    }

    private func value(_ key: Key) throws -> Range<Int> {
      guard let range = find(key) else {
        throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no member '\(key.stringValue)'"))
      }
      return range
    }

    /// The value of `key` read by `read`, or `nil` when absent or null (one lookup).
    private func ifPresent<T>(_ key: Key, _ read: (Range<Int>) throws -> T) throws -> T? {
      guard let range = find(key), !reading.isNull(range) else { return nil }
      return try read(range)
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { reading.isNull(try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reading.bool(value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reading.string(value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reading.double(value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw reading.unsure() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reading.int(value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reading.integer(value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reading.integer(value(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reading.integer(value(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reading.integer(value(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reading.integer(value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reading.integer(value(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reading.integer(value(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reading.integer(value(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reading.integer(value(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try reading.decode(T.self, at: value(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try ifPresent(key, reading.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      try ifPresent(key, reading.string)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      try ifPresent(key, reading.double)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try ifPresent(key, reading.int) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      try ifPresent(key) { range in try reading.decode(T.self, at: range) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      KeyedDecodingContainer(try Members<NestedKey>(reading, value(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try Elements(reading, value(key))
    }

    func superDecoder() throws -> any Decoder { throw reading.unsure() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw reading.unsure() }
  }

  /// An array's elements in order.
  struct Elements: UnkeyedDecodingContainer {
    let reading: Reading
    let elements: [Range<Int>]
    private(set) var currentIndex = 0

    init(_ reading: Reading, _ range: Range<Int>) throws {
      (self.reading, elements) = (reading, try reading.elements(range))
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element read by `read`, moving past it only when it reads.
    private mutating func next<T>(_ read: (Range<Int>) throws -> T) throws -> T {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "the array has ended"))
      }
      let value = try read(elements[currentIndex])
      currentIndex += 1
      return value
    }

    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, reading.isNull(elements[currentIndex]) else { return false }
      currentIndex += 1
      return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(reading.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(reading.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(reading.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { throw reading.unsure() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(reading.int) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(reading.integer) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(reading.integer) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(reading.integer) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(reading.integer) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(reading.integer) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(reading.integer) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(reading.integer) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(reading.integer) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(reading.integer) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let reading = reading
      return try next { range in try reading.decode(T.self, at: range) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      let reading = reading
      return try next { range in KeyedDecodingContainer(try Members<NestedKey>(reading, range)) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let reading = reading
      return try next { range in try Elements(reading, range) }
    }

    mutating func superDecoder() throws -> any Decoder { throw reading.unsure() }
  }
}
