import Foundation

/// A results directory read back: its `results.json` and readers of the files beside it.
/// What `merge` and `--baseline` read; any valid JSON serialization of these files reads the
/// same (compact, pretty-printed, keys reordered, filtered), and the JSON Lines files may be
/// gzip-compressed or not.
package struct ResultsDirectory<Head: Decodable & Sendable>: Sendable {
  /// What was read of `results.json`: the whole `RunRecord`, or as much as a reader needs.
  package let record: Head
  /// The `results.json` read.
  package let url: URL
  package let files: RunRecord.Files

  /// Reads `results.json` at `path`, or in the directory `path`.
  ///
  /// - Parameter role: how the command line named it (`--baseline`, `merge`), for errors.
  /// - Throws: `InputError` naming the file (and what is wrong with it) or the schema.
  package init(_ path: URL, role: String, as type: Head.Type = Head.self) throws(InputError) {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory)
    url = isDirectory.boolValue ? path.appendingPathComponent("results.json") : path
    guard exists, let data = FileManager.default.contents(atPath: url.path) else {
      throw InputError("\(role) \(url.path): cannot read the file")
    }
    let decoder = RecordCoding.decoder()
    let schema: String?
    do {
      schema = try decoder.decode(SchemaProbe.self, from: data).schema
    } catch {
      throw InputError("\(role) \(url.path): not a results.json document (\(JSONValueReader.describe(error)))")
    }
    guard schema == RunRecord.schema else {
      throw InputError("\(role) \(url.path): schema \(schema ?? "missing"), expected \(RunRecord.schema)"
        + (schema == nil ? "" : "; re-record it with this conformance (a run without --baseline)"))
    }
    do {
      record = try decoder.decode(Head.self, from: data)
      files = try decoder.decode(FilesProbe.self, from: data).files
    } catch {
      throw InputError("\(role) \(url.path): \(JSONValueReader.describe(error))")
    }
  }

  /// The step records, in plan order.
  package func steps() throws(InputError) -> JSONValueReader {
    try JSONValueReader(path: companion(files.steps).path)
  }

  /// The cases, in plan order.
  package func cases() throws(InputError) -> JSONValueReader {
    try JSONValueReader(path: companion(files.cases).path)
  }

  /// A file beside `results.json`; one that was decompressed since may have lost its `.gz`.
  func companion(_ name: String) -> URL {
    let directory = url.deletingLastPathComponent()
    let named = directory.appendingPathComponent(name)
    let plain = directory.appendingPathComponent(String(name.dropLast(3)))
    if !FileManager.default.fileExists(atPath: named.path), name.hasSuffix(".gz"),
      FileManager.default.fileExists(atPath: plain.path)
    {
      return plain
    }
    return named
  }
}

/// The schema of a results document, read before anything else.
private struct SchemaProbe: Decodable {
  var schema: String?
}

/// The files a results document names.
private struct FilesProbe: Decodable {
  var files: RunRecord.Files
}
