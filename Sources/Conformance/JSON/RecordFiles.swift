import CZlib
import Foundation
import Synchronization

/// How records become JSON and back: one encoder configuration for every file and message,
/// and `JSONDecoder` for every reader. Keys are sorted so that a file does not depend on
/// hashing (a merge of shards writes the same bytes as a single run).
package enum RecordCoding {
  /// One record per line (JSON Lines, worker messages).
  package static func lineEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// A document a person may open (`results.json`).
  package static func documentEncoder() -> JSONEncoder {
    let encoder = lineEncoder()
    encoder.outputFormatting.insert(.prettyPrinted)
    return encoder
  }

  package static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  /// One record as one line of JSON (no newline).
  package static func line<T: Encodable>(_ value: T, encoder: JSONEncoder) -> Data {
    do {
      return try encoder.encode(value)
    } catch {
      // Our records hold strings, integers, finite doubles and nested containers only.
      fatalError("a record did not encode: \(error)")
    }
  }
}
