import Foundation
import Synchronization

/// The subject answered by an executor process, in rounds, so that a step costs a few
/// batches of questions instead of one process round trip per call.
///
/// A check calls the subject's functions as usual. A call whose question has an answer
/// already gets it; any other call is written down and gets a stand-in answer, and the case
/// is *waiting*: the runner throws its outcome away, sends every question written down
/// during the step's cases in one batch (`flush`), and evaluates the waiting cases again.
/// Calls that depend on an earlier answer (a range's second tap, a field read back) are
/// asked in a later round; each round asks only questions not asked before. No check is
/// rewritten for this: the subject is a set of pure functions of their arguments, and a
/// check already copes with any answer.
///
/// One per worker thread (or worker process); its state is behind a `Mutex` all the same,
/// held across no call of a check.
final class ExecutorClient: Sendable {
  /// What is known of one question.
  enum Known: Sendable {
    case answer(JSONValue)
    case unsupported(String)
    case fault(ExecutorFault)
  }

  /// The worst thing a case met so far: a fault errors it, an unsupported question skips
  /// it, an unanswered one has it evaluated again after the next batch.
  enum Note: Sendable {
    case complete
    case waiting
    case unsupported(String)
    case fault(ExecutorFault)

    var rank: Int {
      switch self {
      case .complete: 0
      case .waiting: 1
      case .unsupported: 2
      case .fault: 3
      }
    }
  }

  private struct Question {
    var text: String
    var function: Subject.Function
    /// Where its faults are counted: its function in its calendar and zone, so a fault in
    /// one zone does not stop another's questions.
    var group: Breaker.Group
  }

  private struct State {
    var known: [String: Known] = [:]
    var pending: [Question] = []
    var pendingTexts: Set<String> = []
    var note = Note.complete
    var triageNote = Note.complete
    var inTriage = false
    var process: ExecutorProcess?
    /// Why the executor could not be started, once it has failed to twice in a row.
    var unstartable: String?
    var failedStarts = 0
    var nextID = 1
    var breaker = Breaker(threshold: 3)
  }

  let command: String
  let hello: ExecutorWire.Hello
  /// How long the executor may write nothing while a question is open.
  let idle: Double
  /// Where each exchange is recorded (`--subject-log`).
  let log: ExecutorLog?
  private let state = Mutex(State())
  /// The last calendar a question named and its protocol text: a step's questions share
  /// one calendar, and writing its text takes ~2 µs where comparing two calendars takes
  /// ~0.5 µs (`==` compares what the text says: identifier, zone, week rules, locale).
  private let lastCalendar = Mutex<(calendar: Calendar, text: String)?>(nil)

  init(command: String, hello: ExecutorWire.Hello, idle: Double, log: ExecutorLog? = nil) {
    self.command = command
    self.hello = hello
    self.idle = idle
    self.log = log
  }

  deinit { close() }

  // MARK: Rounds

  /// Forgets the last step's answers (a step's questions are its own).
  func startStep() {
    state.withLock { state in
      state.known.removeAll(keepingCapacity: true)
    }
  }

  /// A case is about to be evaluated (again).
  func startCase() {
    state.withLock { state in
      state.note = .complete
      state.triageNote = .complete
      state.inTriage = false
    }
  }

  /// From here on the case's calls are triage's: what they meet does not decide the case.
  func startTriage() {
    state.withLock { state in state.inTriage = true }
  }

  /// Whether the case (or its triage, from `startTriage`) has asked a question with no
  /// answer yet: its outcome will be thrown away, so a check asks nothing more to explain it.
  var isWaiting: Bool {
    state.withLock { state in
      if case .waiting = state.inTriage ? state.triageNote : state.note { true } else { false }
    }
  }

  /// What the case met, and what its triage met.
  var notes: (case: Note, triage: Note) {
    state.withLock { ($0.note, $0.triageNote) }
  }

  /// Asks every question written down since the last batch; each gets an answer, or a
  /// fault that errors the cases asking it.
  func flush() {
    state.withLock { state in
      let questions = state.pending
      state.pending.removeAll(keepingCapacity: true)
      state.pendingTexts.removeAll(keepingCapacity: true)
      ask(questions, &state)
    }
  }

  /// Closes the executor's stdin and waits for it to end.
  func close() {
    let process = state.withLock { state in
      defer { state.process = nil }
      return state.process
    }
    process?.close()
  }

  // MARK: The subject's calls

  /// `calendar` as the protocol describes it (`ExecutorWire.calendar`).
  func wire(_ calendar: Calendar) -> String {
    if let text = lastCalendar.withLock({ last in last?.calendar == calendar ? last?.text : nil }) {
      return text
    }
    let text = ExecutorWire.calendar(calendar)
    lastCalendar.withLock { $0 = (calendar, text) }
    return text
  }

  /// The answer to a question when it is known and reads as `T`; otherwise `placeholder`,
  /// with the case noted as waiting (the question is written down), skipped or errored.
  func answer<T>(_ function: Subject.Function, _ writer: ExecutorWire.Writer, calendar: Calendar?,
                 placeholder: T, read: (JSONValue) -> T?) -> T
  {
    let known: JSONValue? = state.withLock { state in
      if let calendars = hello.calendars, let calendar = calendar.map({ CalendarIdentifiers.cldr($0.identifier) }),
        !calendars.contains(calendar)
      {
        note(.unsupported("the executor \(hello.name) does not compute in the '\(calendar)' calendar "
          + "(it lists \(calendars.sorted().joined(separator: ", ")))"), &state)
        return nil
      }
      switch state.known[writer.text] {
      case .answer(let json)?:
        return json
      case .unsupported(let reason)?:
        note(.unsupported("the executor \(hello.name) answered unsupported: \(reason)"), &state)
      case .fault(let fault)?:
        note(.fault(fault), &state)
      case nil:
        if state.pendingTexts.insert(writer.text).inserted {
          state.pending.append(Question(text: writer.text, function: function,
                                        group: Self.group(function, calendar)))
        }
        note(.waiting, &state)
      }
      return nil
    }
    guard let known else { return placeholder }
    if let value = read(known) { return value }
    let fault = ExecutorFault(
      kind: .malformed("\(function) answered \(ExecutorFault.clip(known.rendered(indent: nil), 200)), "
        + "not \(Self.expected(function))"),
      function: function, question: writer.object)
    state.withLock { state in
      state.known[writer.text] = .fault(fault)
      state.breaker.faulted(Self.group(function, calendar), signature: fault.signature)
      note(.fault(fault), &state)
    }
    return placeholder
  }

  private func note(_ note: Note, _ state: inout State) {
    if state.inTriage {
      if note.rank > state.triageNote.rank { state.triageNote = note }
    } else if note.rank > state.note.rank {
      state.note = note
    }
  }

  /// The breaker's group of a question: its function, calendar and zone.
  static func group(_ function: Subject.Function, _ calendar: Calendar?) -> Breaker.Group {
    Breaker.Group(check: function.description, calendar: calendar.map { CalendarIdentifiers.cldr($0.identifier) },
                  zone: calendar?.timeZone.identifier)
  }

  /// Whether `answer` has the type of `function`'s answers (`expected`): its reader then
  /// reads it.
  static func reads(_ answer: JSONValue, as function: Subject.Function) -> Bool {
    Subject.entry(function).reads(answer)
  }

  /// The type an answer to `function` must have, for a malformed answer's message.
  static func expected(_ function: Subject.Function) -> String {
    Subject.entry(function).expected
  }

  // MARK: Talking to the process

  private static let decoder = JSONDecoder()

  /// Asks `questions` until each has an answer or a fault. A question open when the
  /// executor ended is asked again alone in a new one: only if that ends it too is the
  /// question at fault (an executor that buffers its answers loses some when it dies).
  private func ask(_ questions: [Question], _ state: inout State) {
    var open = questions[...]
    var suspect = false
    var batchCount = 0
    while !open.isEmpty {
      // What the breaker has stopped (before this batch, or by a fault in it) is not asked.
      open = open.filter { question in
        guard let signature = state.breaker.trip(question.group)?.signature else { return true }
        state.known[question.text] = .fault(ExecutorFault(
          kind: .notRun(signature), function: question.function, question: question.text))
        return false
      }[...]
      if open.isEmpty { break }
      guard let process = running(&state) else {
        for question in open {
          state.known[question.text] = .fault(ExecutorFault(
            kind: .unstartable(state.unstartable ?? "unknown"), function: question.function,
            question: question.text))
        }
        return
      }
      // Where a fault's signature tripped the breaker elsewhere, one question of a new
      // calendar and zone goes first, alone: if it meets the same fault, the rest are not asked.
      if !suspect {
        var probes = Set<Breaker.Group>()
        let (first, later) = open.reduce(into: ([Question](), [Question]())) { split, question in
          if !state.breaker.probe(question.group) || probes.insert(question.group).inserted {
            split.0.append(question)
          } else {
            split.1.append(question)
          }
        }
        for group in probes { state.breaker.probed(group) }
        open = ArraySlice(first + later)
        batchCount = first.count
      }
      let batch = suspect ? open.prefix(1) : open.prefix(batchCount)
      var ids: [Int: Int] = [:]
      var text: [UInt8] = []
      // Each question's line as sent, for the log.
      var sent: [Int: Range<Int>] = [:]
      for (offset, question) in zip(batch.indices, batch) {
        ids[state.nextID] = offset
        let start = text.count
        text += Array("{\"id\":\(state.nextID),\(question.text)}".utf8)
        sent[offset] = start..<text.count
        text.append(UInt8(ascii: "\n"))
        state.nextID += 1
      }
      let log = self.log
      let sentText = text
      let sentLine = { (offset: Int) in sentText[sent[offset] ?? 0..<0] }
      var answered = Set<Int>()
      // Moved out, so the closure below updates them without copying.
      var known = state.known
      state.known = [:]
      var breaker = state.breaker
      let end = process.exchange(text, idle: idle) { line in
        let reply = line.withUnsafeBufferPointer({ MemberDecoder.decode(ExecutorWire.Reply.self, from: $0) }) ?? {
          SlowReads.count(.executorReply)
          return try? Self.decoder.decode(ExecutorWire.Reply.self, from: Data(line))
        }()
        let index: Int
        if let reply, let id = reply.id, let at = ids[id], !answered.contains(at) {
          index = at
          let question = open[at]
          log?.exchanged(sentLine(at), answer: line)
          if let reason = reply.unsupported {
            known[question.text] = .unsupported(reason)
          } else if let message = reply.error {
            let fault = ExecutorFault(kind: .error(message), function: question.function,
                                      question: question.text)
            known[question.text] = .fault(fault)
            breaker.faulted(question.group, signature: fault.signature)
          } else if reply.hasAnswer, let answer = reply.answer, Self.reads(answer, as: question.function) {
            known[question.text] = .answer(answer)
            breaker.completed(question.group)
          } else if reply.hasAnswer, let answer = reply.answer {
            // An answer of the wrong type is a fault like any other: the breaker counts it.
            let fault = ExecutorFault(
              kind: .malformed("\(question.function) answered \(ExecutorFault.clip(answer.rendered(indent: nil), 200)), "
                + "not \(Self.expected(question.function))"),
              function: question.function, question: question.text)
            known[question.text] = .fault(fault)
            breaker.faulted(question.group, signature: fault.signature)
          } else {
            let fault = ExecutorFault(
              kind: .malformed("its line has none of answer, unsupported, error: "
                + ExecutorFault.clip(String(decoding: line, as: UTF8.self), 200)),
              function: question.function, question: question.text)
            known[question.text] = .fault(fault)
            breaker.faulted(question.group, signature: fault.signature)
          }
        } else {
          // Not an answer to an open question: it stands for the first one still open.
          guard let at = batch.indices.first(where: { !answered.contains($0) }) else { return true }
          index = at
          let why = reply == nil ? "not a JSON answer" : "no open question has its id"
          log?.fault(sentLine(at), "\(why): " + ExecutorFault.clip(String(decoding: line, as: UTF8.self), 200))
          let fault = ExecutorFault(
            kind: .malformed("\(why): " + ExecutorFault.clip(String(decoding: line, as: UTF8.self), 200)),
            function: open[at].function, question: open[at].text)
          known[open[at].text] = .fault(fault)
          breaker.faulted(open[at].group, signature: fault.signature)
        }
        answered.insert(index)
        return answered.count == batch.count
      }
      state.known = known
      state.breaker = breaker
      let unanswered = batch.indices.filter { !answered.contains($0) }
      switch end {
      case .answered:
        open = open[batch.endIndex...]
        suspect = false
      case .silent(let seconds):
        // Silence is not asked twice: the first open question is the one it is stuck on.
        let first = unanswered[0]
        fail(open[first], .silent(seconds: seconds), process, sent: sentLine(first), &state)
        state.process = nil
        process.close()
        open = ArraySlice(unanswered.dropFirst().map { open[$0] } + open[batch.endIndex...])
        suspect = false
      case .ended(let kind):
        state.process = nil
        process.close()
        let first = unanswered.first ?? batch.endIndex
        if suspect || batch.count == 1 {
          if first < batch.endIndex { fail(open[first], kind, process, sent: sentLine(first), &state) }
          open = ArraySlice(unanswered.dropFirst().map { open[$0] } + open[batch.endIndex...])
          suspect = false
        } else {
          open = ArraySlice(unanswered.map { open[$0] } + open[batch.endIndex...])
          suspect = true
        }
      }
    }
  }

  private func fail(_ question: Question, _ kind: ExecutorFault.Kind, _ process: ExecutorProcess,
                    sent: ArraySlice<UInt8>, _ state: inout State)
  {
    let fault = ExecutorFault(kind: kind, function: question.function, question: question.text,
                              stderr: process.stderr.text)
    log?.fault(sent, fault.detail[0])
    state.known[question.text] = .fault(fault)
    state.breaker.faulted(question.group, signature: fault.signature)
  }

  /// The running executor, started (and greeted) when there is none.
  private func running(_ state: inout State) -> ExecutorProcess? {
    if let process = state.process { return process }
    if state.unstartable != nil { return nil }
    do {
      let (process, _) = try Self.start(command, idle: idle, log: log)
      state.failedStarts = 0
      state.process = process
      return process
    } catch {
      state.failedStarts += 1
      if state.failedStarts >= 2 { state.unstartable = error.message }
      return nil
    }
  }

  /// Starts the command and asks it `hello`.
  ///
  /// - Throws: `InputError` naming the command when it cannot start or its hello is wrong.
  static func start(_ command: String, idle: Double, log: ExecutorLog? = nil) throws(InputError)
    -> (ExecutorProcess, ExecutorWire.Hello)
  {
    let process = try ExecutorProcess(command: command)
    var reply: ExecutorWire.Reply?
    var first = ""
    let question = "{\"id\":0,\"function\":\"hello\",\"protocol\":\"\(ExecutorWire.protocolName)\"}\n"
    let end = process.exchange(Array(question.utf8), idle: max(idle, 10)) { line in
      first = String(decoding: line, as: UTF8.self)
      reply = try? decoder.decode(ExecutorWire.Reply.self, from: Data(line))
      if reply != nil {
        log?.exchanged(question.utf8.dropLast(), answer: line)
      } else {
        log?.fault(question.utf8.dropLast(), "not a JSON answer: " + ExecutorFault.clip(first, 200))
      }
      return true
    }
    func refuse(_ why: String) -> InputError {
      process.killGroup()
      process.close()
      let words = process.stderr.text.split(separator: "\n").suffix(3).joined(separator: " | ")
      return InputError("--subject exec:'\(command)': \(why)" + (words.isEmpty ? "" : " (its stderr: \(words))"))
    }
    switch end {
    case .answered: break
    case .silent(let seconds):
      log?.fault(question.utf8.dropLast(), "no answer within \(CaseFault.seconds(seconds)) s")
      throw refuse("no answer to hello within \(CaseFault.seconds(seconds)) s")
    case .ended: log?.fault(question.utf8.dropLast(), "it ended before answering")
    }
    switch end {
    case .answered, .silent: break
    case .ended(.exited(let status)): throw refuse("it exited with status \(status) before answering hello")
    case .ended(.signal(let name)): throw refuse("it died from \(name) before answering hello")
    case .ended: throw refuse("it ended before answering hello")
    }
    guard let reply, reply.id == 0 else {
      throw refuse("its first line is not an answer to hello (id 0): \(ExecutorFault.clip(first, 200))")
    }
    if let error = reply.error { throw refuse("it answered hello with error: \(error)") }
    do {
      return (process, try ExecutorWire.Hello(reply.answer))
    } catch {
      throw refuse(error.message)
    }
  }
}
