import Foundation

/// Why a worker stopped in a case, in a reader's words, with the signature that groups the
/// case in the reports (its pattern) and that the breaker counts.
struct CaseFault: Sendable, Equatable {
  enum Kind: Sendable, Equatable {
    /// The worker died from a signal (a trap is SIGILL or SIGTRAP).
    case signal(String)
    case exited(Int32)
    /// The worker's watchdog stopped the case past its limit.
    case hung(HangNote)
    /// The worker did not answer within the request's limit and was killed.
    case unanswered(seconds: Double)
    /// The worker wrote a reply that does not decode.
    case garbled(String)

    var isHang: Bool {
      if case .hung = self { return true }
      return false
    }
  }

  var kind: Kind
  var crash: CrashReport
  /// The case whose detail has this hang's frames, when this one's were not taken again
  /// (`WorkerRequest.tracedHangs`).
  var framesIn: String? = nil

  /// What stopped the case and where: `trap (SIGILL) in Fault.inject(_:) at Fault.swift:46`,
  /// `hang in the subject's days` (a hang outside the subject: `hang in <frame>`), then the runtime's words when they are the same on every case
  /// (`CrashReport.words`); the runtime's message when no frame is known.
  var signature: String {
    let what: String
    switch kind {
    case .signal(let name): what = ["SIGILL", "SIGTRAP"].contains(name) ? "trap (\(name))" : name
    case .exited(let status): what = "exit \(status)"
    case .hung: what = "hang"
    case .unanswered: what = "no answer"
    case .garbled: what = "garbled reply"
    }
    // A loop is stopped wherever it happens to be (a line of the function, a closure, libm):
    // named by the subject's function it is in, one loop is one signature in every case it
    // holds, in debug and release builds alike.
    if case .hung(let note) = kind, let function = note.function { return "hang in the subject's \(function)" }
    if let frame = crash.executableFrame ?? crash.frame {
      let place = "\(what) in \(Self.line(frame))"
      // A hang's message is the watchdog's own SIGABRT, not the subject's.
      guard !kind.isHang, let words = crash.words else { return place }
      return "\(place): \(words)"
    }
    if let message = crash.message, case .signal = kind { return "\(what): \(message)" }
    return what
  }

  /// The case's detail: what happened, the runtime's message, the frames.
  var detail: [String] {
    var lines: [String]
    switch kind {
    case .signal(let name): lines = ["the worker died from \(name) while evaluating this case"]
    case .exited(let status): lines = ["the worker exited with status \(status) while evaluating this case"]
    case .hung(let note):
      lines = ["hung\(note.function.map { " in the subject's \($0)" } ?? ""): \(Self.seconds(note.cpuSeconds)) s of CPU and \(Self.seconds(note.wallSeconds)) s "
        + "in all, past its limit of \(Self.seconds(note.limit.cpu)) s of CPU or "
        + "\(Self.seconds(note.limit.wall)) s in all (stopped\(framesIn == nil ? " with SIGABRT" : ""))"]
    case .unanswered(let seconds):
      lines = ["the worker did not answer within \(Self.seconds(seconds)) s (killed) while evaluating this case"]
    case .garbled(let why): lines = ["the worker wrote a reply that does not parse (\(why))"]
    }
    // The watchdog's own SIGABRT is no message of the subject's.
    if let message = crash.message, !(kind.isHang && message.hasPrefix("Program crashed: Aborted")) {
      lines.append("message: \(message)")
    }
    if let frame = crash.frame { lines.append("\(kind.isHang ? "stopped in" : "crashed in"): \(frame)") }
    if let own = crash.executableFrame, own != crash.frame { lines.append("called from: \(own)") }
    if let framesIn, crash.frame == nil {
      lines.append("stopped in: not traced again; \(framesIn) met this hang first, and its detail has the frames")
    }
    if crash.message == nil && crash.frame == nil && !crash.tail.isEmpty {
      lines.append("its last output: \(crash.tail)")
    }
    return lines
  }

  /// A frame without its column: faults on one line are one signature.
  static func line(_ frame: String) -> String {
    let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts.suffix(2).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
      return frame
    }
    return parts.dropLast().joined(separator: ":")
  }

  static func seconds(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.0f", value) }
}

/// A worker's death in a reader's words, from its stderr: the runtime's message (a fatal
/// error's text) and the frames that crashed, as Swift's backtracer prints them.
struct CrashReport: Sendable, Equatable {
  var message: String?
  /// The first frame of the crashed thread outside the Swift runtime and the C library
  /// (may be in Foundation).
  var frame: String?
  /// The first frame of the crashed thread in the executable itself (the subject or the
  /// harness, not a library): where a fix would go, and stable across the instants a
  /// spinning loop may be stopped at.
  var executableFrame: String?
  /// The last few non-empty lines, when neither is found.
  var tail: String

  /// The message's words without its `file:line: Fatal error:` lead, when they name no value
  /// (hold no digit, as `Range requires lowerBound <= upperBound` or `Index out of range`):
  /// the same on every case the fault stops, so they can name the group (and the breaker
  /// still counts one signature). A message that names the case, an index or an address
  /// would split a storm into one pattern a case.
  var words: String? {
    // The backtracer's headline restates the signal, which the signature already names.
    guard let message, !message.hasPrefix(Self.headline) else { return nil }
    var text = message[...]
    for lead in ["Fatal error:", "Precondition failed:", "Assertion failed:"] {
      if let found = text.range(of: lead) {
        text = text[found.upperBound...]
        break
      }
    }
    let words = text.trimmingCharacters(in: .whitespaces)
    guard !words.isEmpty, words.count <= 120, !words.contains(where: { $0.isNumber }) else { return nil }
    return words
  }

  init(_ stderr: String) {
    let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    message = lines.first { $0.contains("Fatal error:") || $0.contains("Precondition failed") }
      ?? lines.first { $0.hasPrefix("*** \(Self.headline)") }
        .map { Self.withoutAddress($0.trimmingCharacters(in: CharacterSet(charactersIn: "* "))) }
    frame = nil
    executableFrame = nil
    if let crashed = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) {
      for line in lines[(crashed + 1)...] {
        if line.hasPrefix("Thread ") || line == "Registers:" { break }
        guard let first = line.first, first.isNumber, line.contains(" in "),
          !line.contains("[system]"), !line.contains("[thunk]"),
          !line.contains(" in libswiftCore.so"), !line.contains(" in libc.so")
        else { continue }
        if frame == nil { frame = Self.frame(line) }
        if Self.image(line).map({ !$0.contains(".so") }) == true {
          executableFrame = Self.frame(line)
          break
        }
      }
    }
    tail = lines.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")
  }

  static let headline = "Program crashed:"

  /// `Program crashed: Illegal instruction at 0x00007fe645af9361` → `Program crashed: Illegal
  /// instruction`. The address is where the code or the data was in this process, which
  /// address-space randomization moves in every worker, so two nights of one fault would read
  /// differently. A null address stays: `Bad pointer dereference at 0x0000000000000000` is a
  /// fact of the code.
  static func withoutAddress(_ headline: String) -> String {
    guard let at = headline.range(of: " at 0x", options: .backwards) else { return headline }
    let digits = headline[at.upperBound...]
    guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), digits.contains(where: { $0 != "0" })
    else { return headline }
    return String(headline[..<at.lowerBound])
  }

  /// `1 [ra] 0x… Fault.inject(_:) + 753 in conformance at /x/Fault.swift:46:7` →
  /// `Fault.inject(_:) at Fault.swift:46:7`. An optimized build's `specialized Fault.inject(_:)`
  /// reads the same: a fault's signature, which waivers and baselines match, is the code's,
  /// not the build's.
  static func frame(_ line: String) -> String {
    var text = Substring(line)
    // Drop the frame number, the [ra] marks and the address.
    while let space = text.firstIndex(of: " "),
      text[..<space].allSatisfy({ $0.isNumber }) || text.hasPrefix("[") || text.hasPrefix("0x")
    {
      text = text[text.index(after: space)...].drop { $0 == " " }
    }
    var symbol = text.range(of: " + ").map { String(text[..<$0.lowerBound]) } ?? String(text)
    if symbol.hasPrefix("specialized ") { symbol.removeFirst("specialized ".count) }
    symbol = symbol.replacingOccurrences(of: " in specialized ", with: " in ")
    guard let at = text.range(of: " at ", options: .backwards) else { return symbol }
    let location = text[at.upperBound...].split(separator: "/").last.map(String.init) ?? ""
    return location.isEmpty ? symbol : "\(symbol) at \(location)"
  }

  /// The image a frame line is in: `conformance`, `libFoundationEssentials.so`.
  static func image(_ line: String) -> String? {
    guard let inRange = line.range(of: " in ", options: .backwards) else { return nil }
    let rest = line[inRange.upperBound...]
    return String(rest.prefix { $0 != " " })
  }
}

extension ChildProcess.Exit {
  /// The fault a child that ended so is: its signal, or its exit status.
  var faultKind: CaseFault.Kind {
    switch self {
    case .signal(let signal): .signal(ChildProcess.signalName(signal))
    case .exited(let status): .exited(status)
    }
  }
}

/// How long one case may run in a worker: CPU seconds of the evaluating thread, so a loaded
/// machine does not make a clean case look hung, and wall seconds, much longer, for a case
/// that blocks without spending CPU.
struct CaseLimit: Codable, Sendable, Equatable {
  var cpu: Double
  var wall: Double
}

/// A case that ran past its limit, as the worker's watchdog reports it before stopping it.
struct HangNote: Codable, Sendable, Equatable {
  var step: Int
  var position: Int
  var cpuSeconds: Double
  var wallSeconds: Double
  var limit: CaseLimit
  /// The subject's function the case was in (`SubjectActivity`), which names the hang.
  var function: String?
  /// Stopped in the case's diagnosis (`EvaluationContext.diagnosis`), past its own limit:
  /// the case is asked again without it, never errored for it.
  var diagnosis: Bool?
}
