import CZlib
import Foundation
import Synchronization

/// Reads a sequence of JSON values from a file, gzip-compressed or plain: one per line as
/// this program writes them, or any other whitespace between them (`jq .` output).
///
/// The file is read in chunks; values are decoded with `JSONDecoder`, many at a time (one
/// call per batch costs far less than one per value), so a large file is never held whole.
/// An error names the file and the line the offending value starts on.
package final class JSONValueReader {
  private let file: gzFile
  package let path: String
  private var buffer: [UInt8] = []
  private var position = 0
  private var finished = false
  /// The line the next byte is on.
  private var line = 1
  private let decoder = RecordCoding.decoder()

  /// - Throws: `InputError` naming the file when it cannot be opened.
  package init(path: String) throws(InputError) {
    guard let file = gzopen(path, "rb") else {
      throw InputError("\(path): cannot read the file (\(String(cString: strerror(errno))))")
    }
    gzbuffer(file, 1 << 20)
    self.file = file
    self.path = path
  }

  deinit { gzclose(file) }

  /// The next value decoded as `T`, or `nil` at the end of the file.
  ///
  /// - Throws: `InputError` naming `path:line` when the text is not JSON or not a `T`.
  package func next<T: Decodable>(_ type: T.Type) throws(InputError) -> T? {
    try next(T.self, upTo: 1).first
  }

  /// Up to `count` next values decoded as `T`; empty at the end of the file.
  ///
  /// - Throws: `InputError` naming `path:line` when a value is not JSON or not a `T`.
  package func next<T: Decodable>(_ type: T.Type, upTo count: Int) throws(InputError) -> [T] {
    guard let batch = try nextBatch(upTo: count) else { return [] }
    return try batch.decode(T.self, decoder: decoder)
  }

  /// Every remaining value decoded as `T`, handed to `body` a batch at a time in file order.
  /// Batches are decoded on every core, in rounds, while reading and `body` stay on this
  /// thread: decoding is most of a large file's cost.
  package func forEachBatch<T: Decodable & Sendable>(
    _ type: T.Type, _ body: ([T]) throws(InputError) -> Void
  ) throws(InputError) {
    try forEachBatch(decode: { batch throws(InputError) in
      try batch.decode(T.self, decoder: RecordCoding.decoder())
    }, body)
  }

  /// The same for a record `MemberDecoder` reads where it can: several times faster than
  /// `JSONDecoder`, which maps every member of a batch first.
  func forEachBatch<T: MemberDecodable & Sendable>(
    _ type: T.Type, _ body: ([T]) throws(InputError) -> Void
  ) throws(InputError) {
    try forEachBatch(decode: { batch throws(InputError) in try batch.decodeMembers(T.self) }, body)
  }

  /// Reads batches on this thread and decodes them on the others as they come, at most a
  /// few per core ahead, handing each to `body` here in file order: reading (inflating and
  /// finding each value's end) is serial, so decoding runs beside it, not after it.
  func forEachBatch<T: Sendable>(
    decode: @escaping @Sendable (Batch) throws(InputError) -> [T],
    _ body: ([T]) throws(InputError) -> Void
  ) throws(InputError) {
    let window = ProcessInfoCores.count * 4
    let decoded = Monitor([Int: Result<[T], InputError>]())
    let running = DispatchGroup()
    defer { running.wait() }
    var (read, delivered) = (0, 0)
    /// Hands `body` the batches decoded so far, in order, waiting for the next one while
    /// more than `outstanding` are read and not delivered.
    func deliver(keepingAtMost outstanding: Int) throws(InputError) {
      while delivered < read {
        let next = delivered
        let result = read - delivered > outstanding
          ? decoded.wait(until: { $0[next] != nil }, then: { $0.removeValue(forKey: next) })
          : decoded.update { $0.removeValue(forKey: next) }
        guard let result else { return }
        delivered += 1
        try body(try result.get())
      }
    }
    while let batch = try nextBatch(upTo: 1024) {
      let number = read
      read += 1
      // One core (a worker's forked child, which has no queue threads): decoded here.
      guard window > 4 else {
        decoded.update { $0[number] = Result { () throws(InputError) in try decode(batch) } }
        try deliver(keepingAtMost: 0)
        continue
      }
      DispatchQueue.global().async(group: running) {
        let result = Result { () throws(InputError) in try decode(batch) }
        decoded.update { $0[number] = result }
      }
      try deliver(keepingAtMost: window - 1)
    }
    try deliver(keepingAtMost: 0)
  }

  /// Up to `count` next values as one JSON array, not yet decoded (so that batches can be
  /// decoded on several threads); `nil` at the end of the file.
  package func nextBatch(upTo count: Int) throws(InputError) -> Batch? {
    var batch = Batch(path: path)
    while batch.starts.count < count, let (line, bytes) = try nextValue() {
      if !batch.starts.isEmpty { batch.array.append(UInt8(ascii: ",")) }
      batch.starts.append((line, batch.array.count))
      batch.array.append(contentsOf: bytes)
    }
    guard !batch.starts.isEmpty else { return nil }
    batch.array.append(UInt8(ascii: "]"))
    return batch
  }

  /// Values read as one JSON array, and where each starts in it and in the file.
  package struct Batch: Sendable {
    let path: String
    var array = Data([UInt8(ascii: "[")])
    var starts: [(line: Int, offset: Int)] = []

    /// The values decoded as `T`.
    ///
    /// - Throws: `InputError` naming `path:line` of the first value that is not a `T`.
    package func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder) throws(InputError) -> [T] {
      do {
        return try decoder.decode([T].self, from: array)
      } catch {
        // Decode each value alone to name the one at fault.
        for (index, start) in starts.enumerated() {
          do {
            _ = try decoder.decode(T.self, from: array[valueRange(index)])
          } catch {
            throw InputError("\(path):\(start.line): \(JSONValueReader.describe(error))")
          }
        }
        throw InputError("\(path):\(starts[0].line): \(JSONValueReader.describe(error))")
      }
    }

    /// The values read by `MemberDecoder` where it is sure, else decoded alone by
    /// `JSONDecoder`, which also names the value at fault.
    func decodeMembers<T: MemberDecodable & Sendable>(_ type: T.Type) throws(InputError) -> [T] {
      var values = [T?](repeating: nil, count: starts.count)
      array.withUnsafeBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        for index in starts.indices {
          values[index] = MemberDecoder.decode(T.self, from: UnsafeBufferPointer(rebasing: bytes[valueRange(index)]))
        }
      }
      let decoder = RecordCoding.decoder()
      SlowReads.count(T.slowReader, values.count { $0 == nil })
      for index in values.indices where values[index] == nil {
        do {
          values[index] = try decoder.decode(T.self, from: array[valueRange(index)])
        } catch {
          throw InputError("\(path):\(starts[index].line): \(JSONValueReader.describe(error))")
        }
      }
      return values.map { $0! }
    }

    /// Each value's bytes and the line it starts on, handed to `body` in order.
    func map<T>(_ body: (UnsafeBufferPointer<UInt8>, _ line: Int) throws(InputError) -> T)
      throws(InputError) -> [T]
    {
      var values: [T] = []
      values.reserveCapacity(starts.count)
      // `withUnsafeBytes` rethrows untyped: the fault is carried out of it instead.
      let fault: InputError? = array.withUnsafeBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        do throws(InputError) {
          for index in starts.indices {
            values.append(try body(UnsafeBufferPointer(rebasing: bytes[valueRange(index)]), starts[index].line))
          }
          return nil
        } catch {
          return error
        }
      }
      if let fault { throw fault }
      return values
    }

    /// Where value `index` lies in `array`.
    private func valueRange(_ index: Int) -> Range<Int> {
      let end = index + 1 < starts.count ? starts[index + 1].offset - 1 : array.count - 1
      return starts[index].offset..<end
    }
  }

  /// What a decoding error says, in a reader's words.
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "no \"\(Self.path(context.codingPath + [key]))\""
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\"\(Self.path(context.codingPath))\" is not what it should be (\(context.debugDescription))"
    case DecodingError.dataCorrupted(let context):
      return context.codingPath.isEmpty ? "not JSON (\(context.debugDescription))"
        : "\"\(Self.path(context.codingPath))\": \(context.debugDescription)"
    default:
      return "\(error)"
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }

  /// Where a value being scanned stands: inside a string, after a backslash, how deep.
  private struct Scan {
    var depth = 0
    var inString = false
    var escaped = false
    var lines = 0
  }

  /// The bytes of the next top-level value and the line it starts on.
  private func nextValue() throws(InputError) -> (Int, ArraySlice<UInt8>)? {
    guard try skipWhiteSpace() else { return nil }
    let start = line
    var scan = Scan()
    var scanned = 0
    while true {
      let from = position + scanned
      let (end, bad) = buffer.withUnsafeBufferPointer { bytes in
        Self.scan(bytes, from: from, state: &scan)
      }
      if let bad {
        throw InputError("\(path):\(start): expected an object, found '\(Character(Unicode.Scalar(bad)))'")
      }
      if let end {
        line += scan.lines
        let value = buffer[position..<end]
        position = end
        return (start, value)
      }
      scanned = buffer.count - position
      // Keep the value's bytes from its start; `fill` drops what came before.
      guard fill() else { throw InputError("\(path):\(start): truncated (a value never ends)") }
    }
  }

  /// Scans from `from` to the end of the value; its end, `nil` when the buffer ends first,
  /// or the byte that cannot start a value.
  private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, state: inout Scan)
    -> (end: Int?, bad: UInt8?)
  {
    var index = from
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if state.inString {
        if state.escaped {
          state.escaped = false
        } else if byte == 0x5C {
          state.escaped = true
        } else if byte == 0x22 {
          state.inString = false
        }
        continue
      }
      switch byte {
      case 0x22: state.inString = true
      case 0x7B, 0x5B: state.depth += 1
      case 0x7D, 0x5D: state.depth -= 1
      case 0x0A: state.lines += 1
      default: if state.depth == 0 { return (nil, byte) }
      }
      if state.depth == 0 { return (index, nil) }
    }
    return (nil, nil)
  }

  /// Moves past white space between values; `false` at the end of the file.
  private func skipWhiteSpace() throws(InputError) -> Bool {
    while true {
      if position == buffer.count {
        guard fill() else { return false }
        continue
      }
      let byte = buffer[position]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return true }
      if byte == 0x0A { line += 1 }
      position += 1
    }
  }

  /// Reads the next chunk, dropping what was consumed before `position`; `false` at the end.
  private func fill() -> Bool {
    guard !finished else { return false }
    if position > 0 {
      buffer.removeFirst(position)
      position = 0
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    let count = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
    guard count > 0 else {
      finished = true
      return false
    }
    buffer.append(contentsOf: chunk[..<Int(count)])
    return true
  }
}
