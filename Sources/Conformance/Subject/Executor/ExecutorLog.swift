import Foundation
import Synchronization

/// `--subject-log FILE`: every question an executor was asked, with what came back, one
/// JSON line each (`Schemas/executor-transcript.schema.json`):
/// `{"question": <the line sent>, "answer": <the line received>}`, or `"fault"` (a sentence)
/// in place of `answer` when no JSON line came back for it (a crash, a silence, garbage).
///
/// The run's processes (the parent's `hello`, each worker's executors) append to one file:
/// the parent creates it, and each line is one `write` to a descriptor opened with
/// `O_APPEND`, so lines of different processes never interleave.
final class ExecutorLog: Sendable, Equatable {
  static func == (one: ExecutorLog, other: ExecutorLog) -> Bool { one === other }

  let url: URL
  private let descriptor: Mutex<Int32>

  /// Opens the log; `truncating` (the run's parent) empties it first.
  ///
  /// - Throws: `InputError` naming the path when it cannot be opened.
  init(_ url: URL, truncating: Bool) throws(InputError) {
    let flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0)
    let fd = open(url.path, flags, 0o644)
    guard fd >= 0 else {
      throw InputError("--subject-log \(url.path): \(String(cString: strerror(errno)))")
    }
    self.url = url
    descriptor = Mutex(fd)
  }

  deinit { descriptor.withLock { _ = close($0) } }

  /// A question and the answer line that came back for it (JSON, as received).
  func exchanged(_ question: some Collection<UInt8>, answer: some Collection<UInt8>) {
    write(Array("{\"question\":".utf8) + question + Array(",\"answer\":".utf8) + answer + Array("}\n".utf8))
  }

  /// A question no JSON line came back for, and why.
  func fault(_ question: some Collection<UInt8>, _ why: String) {
    var text = ""
    JSONValue.writeString(why, into: &text)
    write(Array("{\"question\":".utf8) + question + Array(",\"fault\":\(text)}\n".utf8))
  }

  private func write(_ line: [UInt8]) {
    descriptor.withLock { fd in
      line.withUnsafeBytes { bytes in
        var sent = 0
        while sent < bytes.count {
          let count = Glibc.write(fd, bytes.baseAddress! + sent, bytes.count - sent)
          if count < 0 && errno == EINTR { continue }
          if count <= 0 { return }
          sent += count
        }
      }
    }
  }
}
