import Foundation

extension RunComparison {
  /// The two runs' cases files line by line (`compare --lines`): every byte of every case
  /// line, in plan order, values, detail and explain command included. What the case-by-case
  /// comparison reads is a few fields of the cases that did not pass; a redesign that only
  /// changes how results are written keeps every byte.
  ///
  /// A line's explain command names the binary that ran and the corpora it read by their
  /// absolute paths, each build its own: they read as `CONFORMANCE` and `CORPORA` on both
  /// sides (corpora whose contents differ show in the values). Members named in `except` (of a
  /// case line, or of its review) are left out of both sides: a crash's detail, say, when
  /// the builds compared differ in it on purpose.
  ///
  /// - Returns: what to print, whether every line is the same, and how many were compared.
  /// - Throws: `InputError` naming the file and line that cannot be read.
  static func lines(before: ResultsDirectory<RunRecord>, after: ResultsDirectory<RunRecord>,
                    except: Set<String>, show: Int) throws(InputError)
    -> (lines: [String], same: Bool, compared: Int)
  {
    let (first, second) = (try CaseLines(before), try CaseLines(after))
    var (compared, differing) = (0, 0)
    var examples: [String] = []
    while true {
      let (one, other) = (try first.next(), try second.next())
      guard let one, let other else {
        // Each side counted to its end.
        while try first.next() != nil {}
        while try second.next() != nil {}
        let counts = one == nil && other == nil ? []
          : ["  before has \(first.count) lines, after \(second.count) (one ended at line \(compared + 1))"]
        let same = counts.isEmpty && differing == 0
        let exceptText = except.isEmpty ? "" : " (leaving out \(except.sorted().joined(separator: ", ")))"
        return (["case lines: \(compared) compared\(exceptText), \(differing) differ"] + examples + counts, same, compared)
      }
      compared += 1
      let (left, right) = (Self.comparable(one, except: except), Self.comparable(other, except: except))
      guard left != right else { continue }
      differing += 1
      if examples.count < show { examples.append("  line \(compared): " + Self.difference(left, right)) }
    }
  }

  /// A case line as it is compared: the binary's and the corpora's paths in its explain
  /// command read as `CONFORMANCE` and `CORPORA`, and the members `except` names left out.
  static func comparable(_ line: [UInt8], except: Set<String>) -> [UInt8] {
    guard !except.isEmpty else { return anonymized(line) }
    let value = line.withUnsafeBufferPointer { MemberDecoder.decode(JSONValue.self, from: $0) }
      ?? (try? JSONDecoder().decode(JSONValue.self, from: Data(line)))
    guard case .object(let members)? = value else { return anonymized(line) }
    let kept = members.filter { !except.contains($0.0) }.map { key, value in
      guard key == "review", case .object(let review) = value else { return (key, value) }
      return (key, JSONValue.object(review.filter { !except.contains($0.0) }))
    }
    return anonymized(Array(JSONValue.object(kept).rendered(indent: nil, depth: .max).utf8))
  }

  /// `line` with the path of the binary its explain command starts read as `CONFORMANCE`,
  /// and the value of its `--corpora` as `CORPORA`:
  /// `"explain":"[CONFORMANCE_FAULT=… ]/abs/path/conformance explain … --corpora /abs/Corpora"`.
  static func anonymized(_ line: [UInt8]) -> [UInt8] {
    guard var start = Self.find(#""explain":""#, in: line, from: 0).map({ $0 + 11 }) else { return line }
    if Self.find("CONFORMANCE_FAULT=", in: line, from: start) == start {
      guard let space = line[start...].firstIndex(of: UInt8(ascii: " ")) else { return line }
      start = space + 1
    }
    guard start < line.count, line[start] == UInt8(ascii: "/"),
      let end = Self.find(" explain ", in: line, from: start)
    else { return line }
    var anonymized = Array(line[..<start])
    anonymized.reserveCapacity(line.count)
    anonymized += "CONFORMANCE".utf8
    // The command's end: the JSON string's closing quote (a quote inside it is escaped).
    var close = end
    while close < line.count, line[close] != UInt8(ascii: "\"") {
      close += line[close] == UInt8(ascii: "\\") ? 2 : 1
    }
    // The words after the binary, read as the shell reads them (`ShellWords`): bare, or
    // quoted with a quote inside written '\'' (in the line's JSON, '\\''); the one after
    // `--corpora` is its path.
    var word = end + 1
    var previous: Range<Int>?
    while word < close {
      if line[word] == UInt8(ascii: " ") { word += 1; continue }
      var after = word
      if line[after] == UInt8(ascii: "'") {
        after += 1
        while after < close {
          if line[after] == UInt8(ascii: "'") {
            if Self.find(#"'\\''"#, in: line, from: after) == after { after += 5; continue }
            after += 1
            break
          }
          after += 1
        }
      } else {
        while after < close, line[after] != UInt8(ascii: " ") { after += 1 }
      }
      if let previous, line[previous].elementsEqual("--corpora".utf8) {
        anonymized += line[end..<word]
        anonymized += "CORPORA".utf8
        anonymized += line[after...]
        return anonymized
      }
      (previous, word) = (word..<after, after)
    }
    anonymized += line[end...]
    return anonymized
  }

  /// Where `text` first occurs in `line` at or after `from`.
  private static func find(_ text: StaticString, in line: [UInt8], from: Int) -> Int? {
    let wanted = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    return line.withUnsafeBufferPointer { bytes in
      var position = from
      while position + wanted.count <= bytes.count {
        guard let first = bytes[position...].firstIndex(of: wanted[0]) else { return nil }
        if first + wanted.count <= bytes.count,
          UnsafeBufferPointer(rebasing: bytes[first..<first + wanted.count]).elementsEqual(wanted)
        {
          return first
        }
        position = first + 1
      }
      return nil
    }
  }

  /// Which member of two differing lines differs first (and the case's id), or the lines'
  /// starts when they are not objects.
  static func difference(_ left: [UInt8], _ right: [UInt8]) -> String {
    let read = { (line: [UInt8]) -> [(String, JSONValue)]? in
      guard case .object(let members)? = line.withUnsafeBufferPointer({ MemberDecoder.decode(JSONValue.self, from: $0) })
      else { return nil }
      return members
    }
    guard let one = read(left), let other = read(right) else {
      return "\(String(decoding: left.prefix(80), as: UTF8.self)) → \(String(decoding: right.prefix(80), as: UTF8.self))"
    }
    let id = one.first { $0.0 == "id" }.map { $0.1.rendered(indent: nil) } ?? "(no id)"
    let keys = one.map(\.0) + other.map(\.0).filter { key in !one.contains { $0.0 == key } }
    let text = { (members: [(String, JSONValue)], key: String) in
      members.first { $0.0 == key }.map { $0.1.rendered(indent: nil, depth: .max) } ?? "(none)"
    }
    guard let key = keys.first(where: { text(one, $0) != text(other, $0) }) else {
      return "\(id): its members' order or spacing differs"
    }
    // 80 characters of each side from a little before where they part (an explain command
    // or a month of cells differs past its first 80).
    let (left, right) = (Array(text(one, key)), Array(text(other, key)))
    let parting = zip(left, right).prefix { $0 == $1 }.count
    let from = parting > 60 ? parting - 20 : 0
    let shown = { (text: [Character]) in
      (from > 0 ? "…" : "") + String(text.dropFirst(from).prefix(80)) + (text.count > from + 80 ? "…" : "")
    }
    return "\(id): \(key) \(shown(left)) → \(shown(right))"
  }

  /// A run's case lines one at a time, read a batch ahead.
  private final class CaseLines {
    private let reader: JSONValueReader
    private var batch: [[UInt8]] = []
    private var index = 0
    private(set) var count = 0

    init(_ run: ResultsDirectory<RunRecord>) throws(InputError) { reader = try run.cases() }

    func next() throws(InputError) -> [UInt8]? {
      if index == batch.count {
        guard let next = try reader.nextBatch(upTo: 1024) else { return nil }
        batch = try next.map { bytes, _ in Array(bytes) }
        index = 0
      }
      defer { (index, count) = (index + 1, count + 1) }
      return batch[index]
    }
  }
}
