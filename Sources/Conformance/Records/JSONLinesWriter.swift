import CZlib
import Foundation
import Synchronization

/// Appends records to a JSON Lines file, gzip-compressed: `cases.jsonl.gz` and
/// `steps.jsonl.gz`. Called from the delivering thread; the mutex makes it safe to hand to
/// the `@Sendable` event handler. Lines are compressed on another thread (`Compressor`), a
/// megabyte at a time, so deflating runs beside what produces them.
package final class JSONLinesWriter: Sendable {
  private struct State {
    var buffer = Data()
    var count = 0
    var isClosed = false
    let encoder = RecordCoding.lineEncoder()
  }

  private let state: Mutex<State>
  private let compressor: Compressor
  package let url: URL
  /// The run's explain command, for the failing cases' lines.
  let explain: CaseExplainer

  /// Creates (or truncates) the file.
  ///
  /// - Throws: `HarnessError` naming the path when it cannot be created.
  package init(url: URL, explain: CaseExplainer = .plain) throws {
    // Level 6 (zlib's default): a full sweep's 130 MB of case lines compress to 4.1 MB,
    // against 5.4 MB at level 1, for about half a second more CPU on the compressing thread
    // (`gzip -1`/`-6` on the same lines: 0.9 s / 1.4 s); it keeps the archive under 25 MB.
    guard let file = gzopen(url.path, "wb6") else {
      throw HarnessError("cannot create \(url.path): \(String(cString: strerror(errno)))")
    }
    gzbuffer(file, 1 << 20)
    self.url = url
    self.explain = explain
    compressor = Compressor(file)
    state = Mutex(State())
  }

  /// How many records were appended.
  package var count: Int { state.withLock { $0.count } }

  package func append<T: Encodable>(_ record: T) {
    state.withLock { state in
      state.buffer.append(RecordCoding.line(record, encoder: state.encoder))
      state.buffer.append(UInt8(ascii: "\n"))
      state.count += 1
      if state.buffer.count > 1 << 20 { flush(&state) }
    }
  }

  /// Appends a case, written directly (`CaseLineWriter`: the bytes the encoder writes).
  package func append(_ record: CaseRecord) {
    append(line: CaseLineWriter.line(record, explain: explain))
  }

  /// Appends a record's line as another writer wrote it (a shard's, which a merge keeps as
  /// it is): one JSON value, without a newline.
  func append(line: Data) {
    state.withLock { state in
      state.buffer.append(line)
      state.buffer.append(UInt8(ascii: "\n"))
      state.count += 1
      if state.buffer.count > 1 << 20 { flush(&state) }
    }
  }

  /// Writes what is buffered and closes the file.
  ///
  /// - Throws: `HarnessError` when the file could not be written (a full disk).
  package func close() throws {
    try state.withLock { state in
      guard !state.isClosed else { return }
      flush(&state)
      state.isClosed = true
      if let fault = compressor.close() {
        throw HarnessError("cannot write \(url.path): \(fault)")
      }
    }
  }

  private func flush(_ state: inout State) {
    guard !state.buffer.isEmpty, !state.isClosed else { return }
    compressor.write(state.buffer)
    state.buffer = Data(capacity: 1 << 20 + 4096)
  }

  deinit {
    state.withLock { state in
      if !state.isClosed { _ = compressor.close() }
    }
  }

  /// Deflates buffers on a serial queue, in order, at most a few ahead of the writer.
  ///
  /// `@unchecked Sendable`: the zlib file is used only on the queue (and by `close` once the
  /// queue is drained), and `fault` only under the queue too.
  private final class Compressor: @unchecked Sendable {
    private let file: gzFile
    private let queue = DispatchQueue(label: "JSONLinesWriter.compress")
    private let slots = DispatchSemaphore(value: 8)
    private var fault: String?

    init(_ file: gzFile) { self.file = file }

    func write(_ chunk: Data) {
      slots.wait()
      queue.async { [self] in
        defer { slots.signal() }
        guard fault == nil else { return }
        let written = chunk.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
        if written != Int32(chunk.count) { fault = "zlib wrote \(written) of \(chunk.count) bytes" }
      }
    }

    /// Waits for the queued buffers and closes the file; what went wrong, if anything.
    func close() -> String? {
      queue.sync {
        let status = gzclose(file)
        if fault == nil, status != Z_OK { fault = "zlib status \(status)" }
        return fault
      }
    }
  }
}
