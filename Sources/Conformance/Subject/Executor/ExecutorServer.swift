import Foundation
import PickerLogic

/// `conformance executor`: the executor protocol answered with the seeds' logic
/// (`PickerLogic`), as the harness calls it in-process. It is the reference an executor in
/// another language can be compared with, and what measures the protocol itself: a sweep
/// through it must read exactly as an in-process one (a test compares them case by case),
/// and `bench` times it against the in-process subject.
///
/// Answers are written when no further question is waiting in stdin, so a batch costs a
/// few writes (the protocol asks for a flush after each answer; an answer that waits in
/// this buffer is followed at once by the next).
package enum ExecutorServer {
  /// A question's fields: every function's arguments, each optional.
  struct Question: Decodable, Equatable {
    var id: Int
    var function: String
    var `protocol`: String?
    var month, old, new, day, start, end, comeback, departure, date: Double?
    var offset: Int?
    var calendar: CalendarFields?
    var selection: SelectionFields?
    var kind, text, locale: String?
    var actions: [ActionFields]?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, function, `protocol`, month, old, new, day, start, end, comeback, departure, date, offset
      case calendar, selection, kind, text, locale, actions
    }
  }

  struct CalendarFields: Decodable, Hashable {
    var identifier: String
    var timeZone: String
    var firstWeekday: Int
    var minimumDaysInFirstWeek: Int
    var locale: String

    enum CodingKeys: String, CodingKey {
      case identifier, timeZone, firstWeekday, minimumDaysInFirstWeek, locale
    }
  }

  struct SelectionFields: Decodable, Equatable {
    var start: Double?
    var end: Double?

    enum CodingKeys: String, CodingKey { case start, end }
  }

  struct ActionFields: Decodable, Equatable {
    var action: String
    var date: Double?

    enum CodingKeys: String, CodingKey { case action, date }
  }

  /// A deliberate fault, for tests of what the harness makes of a misbehaving executor:
  /// `kind:function[:text]` misbehaves on the questions to `function` whose line holds
  /// `text` (a calendar, a zone, an instant).
  package struct Misbehaviour: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
      /// A trap (`fatalError`), as a crashing executor dies.
      case crash
      /// `exit(7)` before answering.
      case exit
      /// An endless loop that spends CPU.
      case hang
      /// A line that is not JSON instead of the answer.
      case garbage
      /// An answer of the wrong type (a string).
      case wrongType = "wrong-type"
      /// An `error` answer.
      case error
      /// An `unsupported` answer.
      case unsupported
      /// Text answers (and symbols) that try to escape every report: markup, CDATA's end,
      /// control characters, a terminal escape; to any other function, the same text on
      /// stderr and an exit (it reaches the case's pattern and detail).
      case hostile
      /// A text answer whose bytes are not UTF-8.
      case invalidUTF8 = "invalid-utf8"
      /// An integer answer (leadingBlanks, nights) one more than the right one: a wrong
      /// value, not a fault.
      case offByOne = "off-by-one"
      /// The right answer, a quarter of a second late: an executor that answers steadily,
      /// whose batch of questions outlasts a worker's request limit.
      case slow
    }

    package var kind: Kind
    package var function: String
    package var match: String?

    /// Reads `kind:function[:text]`.
    package init(_ spec: String) throws(InputError) {
      let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
      guard parts.count >= 2, let kind = Kind(rawValue: parts[0]),
        Subject.Function.allCases.contains(where: { $0.description == parts[1] })
      else {
        throw InputError("--misbehave '\(spec)': expected <kind>:<function>[:<text>], kind one of "
          + Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", function one of "
          + Subject.Function.allCases.map(\.description).joined(separator: ", "))
      }
      (self.kind, self.function, self.match) = (kind, parts[1], parts.count > 2 ? parts[2] : nil)
    }

    /// The hostile text: it closes the page's script, opens an image that runs code, ends a
    /// CDATA section, and holds C0 controls and a terminal escape.
    package static let hostileText = "</script><img src=x onerror=alert(1)>]]>\u{1}\u{8}\u{1b}[31mred"
  }

  /// Serves stdin until it closes. `subject` answers (the seeds' logic unless a test gives
  /// another); `misbehaviours` are faults on purpose, for tests.
  ///
  /// The questions its fast reader left to `JSONDecoder` are not silent: at the end their
  /// count is appended to `slowReads` as a line (`bench` sums them), or, without that file,
  /// said on stderr when there were any.
  package static func run(subject: Subject = .pickerLogic, misbehaviours: [Misbehaviour] = [],
                         slowReads: URL? = nil) {
    var server = Server(subject: subject)
    defer { report(slowReads: server.slowReads, to: slowReads) }
    server.misbehaviours = misbehaviours
    var input: [UInt8] = []
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    func send() {
      guard !output.isEmpty else { return }
      output.withUnsafeBytes { bytes in
        var sent = 0
        while sent < bytes.count {
          let count = write(1, bytes.baseAddress! + sent, bytes.count - sent)
          if count <= 0 { break }
          sent += count
        }
      }
      output.removeAll(keepingCapacity: true)
    }
    // A slow executor answers steadily: each answer as soon as it is known.
    let steady = misbehaviours.contains { $0.kind == .slow }
    while true {
      var start = 0
      while let newline = input[start...].firstIndex(of: UInt8(ascii: "\n")) {
        if let answer = server.answer(input[start..<newline]) {
          output += answer
          output.append(UInt8(ascii: "\n"))
          if steady { send() }
        }
        start = newline + 1
      }
      input.removeSubrange(..<start)
      send()
      let count = read(0, &chunk, chunk.count)
      if count <= 0 { return }
      input += chunk[..<count]
    }
  }

  /// Says how many questions were left to `JSONDecoder` (see `run`). One `write` of a short
  /// line to a file opened for appending: executors of parallel workers do not interleave.
  static func report(slowReads count: Int, to file: URL?) {
    guard let file else {
      if count > 0 {
        FileHandle.standardError.write(Data("conformance executor: \(count) questions left to JSONDecoder\n".utf8))
      }
      return
    }
    let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else {
      FileHandle.standardError.write(Data("conformance executor: cannot append to \(file.path): \(String(cString: strerror(errno)))\n".utf8))
      return
    }
    let line = Array("\(count)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    close(descriptor)
  }

  struct Server {
    let subject: Subject
    var misbehaviours: [Misbehaviour] = []
    var calendars: [CalendarFields: Calendar] = [:]
    var locales: [String: Locale] = [:]
    let decoder = JSONDecoder()
    /// Questions the fast reader was not sure of, read by `decoder` instead.
    var slowReads = 0

    init(subject: Subject) { self.subject = subject }

    /// The answer line to one question line; `nil` for a line that is not a question.
    mutating func answer(_ line: ArraySlice<UInt8>) -> [UInt8]? {
      let question: Question
      do {
        if let fast = line.withUnsafeBufferPointer({ MemberDecoder.decode(Question.self, from: $0) }) {
          question = fast
        } else {
          slowReads += 1
          question = try decoder.decode(Question.self, from: Data(line))
        }
      } catch {
        // No id to answer with: say so where a person looks.
        FileHandle.standardError.write(Data("conformance executor: not a question: \(error)\n".utf8))
        return nil
      }
      if !misbehaviours.isEmpty, case let text = String(decoding: line, as: UTF8.self), let fault = misbehaviours.first(where: {
        $0.function == question.function && $0.match.map(text.contains) != false
      }) {
        if fault.kind == .offByOne, let right = try? value(question), let number = Int(right) {
          return Array("{\"id\":\(question.id),\"answer\":\(number + 1)}".utf8)
        }
        if let line = misbehave(fault.kind, question) { return line }
      }
      do {
        return Array("{\"id\":\(question.id),\"answer\":\(try value(question))}".utf8)
      } catch let unsupported as Unsupported {
        return Self.line(question.id, "unsupported", unsupported.reason)
      } catch {
        return Self.line(question.id, "error", "\(error)")
      }
    }

    static func line(_ id: Int, _ member: String, _ message: String) -> [UInt8] {
      var text = "{\"id\":\(id),\"\(member)\":"
      JSONValue.writeString(message, into: &text)
      return Array((text + "}").utf8)
    }

    /// The line a misbehaving executor writes instead of the answer; `nil` to answer after all
    /// (`slow`, once it has waited).
    private func misbehave(_ kind: Misbehaviour.Kind, _ question: Question) -> [UInt8]? {
      switch kind {
      case .crash: fatalError("conformance executor: crashing on purpose (--misbehave crash:\(question.function))")
      case .exit:
        FileHandle.standardError.write(Data("conformance executor: exiting on purpose\n".utf8))
        Foundation.exit(7)
      case .hang:
        while true {}
      case .garbage: return Array("this is not JSON".utf8)
      case .wrongType: return Array("{\"id\":\(question.id),\"answer\":\"nope\"}".utf8)
      case .error: return Self.line(question.id, "error", "misbehaving on purpose")
      case .unsupported: return Self.line(question.id, "unsupported", "misbehaving on purpose")
      case .hostile where !["text", "weekdaySymbols"].contains(question.function):
        FileHandle.standardError.write(Data((Misbehaviour.hostileText + "\n").utf8))
        Foundation.exit(7)
      case .hostile:
        let answer = question.function == "weekdaySymbols"
          ? Self.strings(Array(repeating: Misbehaviour.hostileText, count: 7))
          : { var text = ""; JSONValue.writeString(Misbehaviour.hostileText, into: &text); return text }()
        return Array("{\"id\":\(question.id),\"answer\":\(answer)}".utf8)
      case .invalidUTF8:
        return Array("{\"id\":\(question.id),\"answer\":\"caf".utf8) + [0xC3, 0x28, 0xFF] + Array("\"}".utf8)
      case .offByOne:
        return Self.line(question.id, "error", "off-by-one applies to integer answers (leadingBlanks, nights)")
      case .slow:
        usleep(250_000)
        return nil
      }
    }

    struct Unsupported: Error { var reason: String }

    struct Missing: Error, CustomStringConvertible {
      var field: String
      var description: String { "the question has no '\(field)'" }
    }

    private mutating func value(_ question: Question) throws -> String {
      func need<T>(_ value: T?, _ field: String) throws -> T {
        guard let value else { throw Missing(field: field) }
        return value
      }
      func instant(_ value: Double?, _ field: String) throws -> Date {
        Date(timeIntervalSince1970: try need(value, field))
      }
      func calendar() throws -> Calendar { try self.calendar(try need(question.calendar, "calendar")) }
      switch question.function {
      case "hello":
        let functions = Subject.Function.allCases.map { "\"\($0)\"" }.joined(separator: ",")
        var hello = "{\"name\":"
        JSONString.append(subject.name, to: &hello)
        let shares = WaiverSubjects.allCases.filter { $0 != .any && subject.shares.contains($0) }
          .map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        // The data it computes with: the served subject's (Foundation's, unless declared).
        let releases = subject.releases
        let data = [("cldr", releases.cldr), ("tz", releases.tz), ("icu", releases.icu)]
          .compactMap { key, value in value.map { "\"\(key)\":\"\($0)\"" } }.joined(separator: ",")
        return hello + ",\"version\":\"conformance executor\",\"functions\":[\(functions)],\"shares\":[\(shares)],"
          + "\"data\":{\(data)}}"
      case "leadingBlanks":
        return String(subject.leadingBlanks(try instant(question.month, "month"), try calendar()))
      case "weekdaySymbols":
        return Self.strings(subject.weekdaySymbols(try calendar()))
      case "closes":
        return subject.closes(try instant(question.old, "old"), try instant(question.new, "new"),
                              try calendar()) ? "true" : "false"
      case "selecting":
        return ExecutorWire.selection(subject.selecting(
          try instant(question.day, "day"), try selection(question), try calendar()))
      case "role":
        return "\"\(subject.role(try instant(question.day, "day"), try selection(question), try calendar()).rawValue)\""
      case "days":
        return "[" + subject.days(try instant(question.month, "month"), try calendar())
          .map { ExecutorWire.Writer.number($0.timeIntervalSince1970) }.joined(separator: ",") + "]"
      case "paging":
        return subject.paging(try instant(question.month, "month"), try need(question.offset, "offset"),
                              try calendar())
          .map { ExecutorWire.Writer.number($0.timeIntervalSince1970) } ?? "null"
      case "nights":
        return String(subject.nights(try instant(question.start, "start"), try instant(question.end, "end"),
                                     try calendar()))
      case "clampedReturn":
        return ExecutorWire.Writer.number(subject.clampedReturn(
          try instant(question.comeback, "comeback"), try instant(question.departure, "departure"))
          .timeIntervalSince1970)
      case "text":
        let kindName = try need(question.kind, "kind")
        guard let kind = DateText(rawValue: kindName) else { throw Unsupported(reason: "no text '\(kindName)'") }
        var text = ""
        JSONValue.writeString(subject.text(kind, try instant(question.date, "date"), try calendar(),
                                           locale(try need(question.locale, "locale"))), into: &text)
        return text
      case "fieldDate":
        return subject.fieldDate(try need(question.text, "text"), try calendar(),
                                 locale(try need(question.locale, "locale")))
          .map { ExecutorWire.Writer.number($0.timeIntervalSince1970) } ?? "null"
      case "disclosure":
        let kindName = try need(question.kind, "kind")
        guard let kind = DisclosureRow.Kind(rawValue: kindName) else {
          throw Unsupported(reason: "no disclosure row '\(kindName)'")
        }
        let actions = try need(question.actions, "actions").map { action throws -> DisclosureAction in
          action.action == "tap" ? .tap : .select(try instant(action.date, "date"))
        }
        let snapshots = subject.disclosure(kind, try instant(question.start, "start"), actions, try calendar(),
                                           locale(try need(question.locale, "locale")))
        return "[" + snapshots.map { snapshot in
          var text = "{\"expanded\":\(snapshot.isExpanded),\"label\":"
          JSONValue.writeString(snapshot.label, into: &text)
          return text + "}"
        }.joined(separator: ",") + "]"
      default:
        throw Unsupported(reason: "no function '\(question.function)'")
      }
    }

    private func selection(_ question: Question) throws -> Subject.Selection {
      guard let fields = question.selection else { throw Missing(field: "selection") }
      return Subject.Selection(start: fields.start.map(Date.init(timeIntervalSince1970:)),
                               end: fields.end.map(Date.init(timeIntervalSince1970:)))
    }

    private mutating func locale(_ identifier: String) -> Locale {
      if let locale = locales[identifier] { return locale }
      let locale = Locale(identifier: identifier)
      locales[identifier] = locale
      return locale
    }

    /// The calendar as the harness builds its own (`SubjectCalendars`): only what differs
    /// from the identifier's defaults is set, in the same order.
    private mutating func calendar(_ fields: CalendarFields) throws -> Calendar {
      if let calendar = calendars[fields] { return calendar }
      guard let identifier = CalendarIdentifiers.foundation(fields.identifier) else {
        throw Unsupported(reason: "Foundation has no calendar '\(fields.identifier)'")
      }
      guard let zone = TimeZone(identifier: fields.timeZone) else {
        throw Unsupported(reason: "Foundation does not know time zone '\(fields.timeZone)'")
      }
      var calendar = Calendar(identifier: identifier)
      calendar.timeZone = zone
      if calendar.locale?.identifier ?? "" != fields.locale { calendar.locale = locale(fields.locale) }
      if calendar.firstWeekday != fields.firstWeekday { calendar.firstWeekday = fields.firstWeekday }
      if calendar.minimumDaysInFirstWeek != fields.minimumDaysInFirstWeek {
        calendar.minimumDaysInFirstWeek = fields.minimumDaysInFirstWeek
      }
      if calendars.count >= 4096 { calendars.removeAll(keepingCapacity: true) }
      calendars[fields] = calendar
      return calendar
    }

    static func strings(_ strings: [String]) -> String {
      var text = "["
      for (index, string) in strings.enumerated() {
        if index > 0 { text += "," }
        JSONValue.writeString(string, into: &text)
      }
      return text + "]"
    }
  }
}
