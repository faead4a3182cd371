import Foundation
import PickerLogic

/// An executor a subject is answered by: the command, what it said of itself, its limit.
struct ExecutorSpec: Sendable, Equatable {
  var command: String
  var hello: ExecutorWire.Hello
  /// Seconds it may write nothing while a question is open (`CONFORMANCE_EXECUTOR_TIMEOUT`).
  var idle: Double
  /// Where every exchange is recorded (`--subject-log`), if anywhere.
  var log: ExecutorLog?

  static let defaultIdle = 5.0

  /// The idle limit from the environment, or the default.
  ///
  /// - Throws: `InputError` for a value that is not a positive number.
  static func idleFromEnvironment() throws(InputError) -> Double {
    guard let text = ProcessInfo.processInfo.environment["CONFORMANCE_EXECUTOR_TIMEOUT"] else {
      return defaultIdle
    }
    guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
      throw InputError("CONFORMANCE_EXECUTOR_TIMEOUT='\(text)' is not a positive number of seconds")
    }
    return seconds
  }
}

extension Subject {
  /// The subject an executor answers (`--subject exec:'<command>'`): started once here to
  /// read its `hello` (a command that does not start or greet is bad input, exit 2), then
  /// once per worker, each with its own process (`EvaluationContext.worker`).
  ///
  /// - Parameters:
  ///   - log: `--subject-log`'s file; the run's parent passes `truncating` (it starts the
  ///     file), its workers append to it.
  public static func executor(command: String, log: URL? = nil, truncating: Bool = true)
    throws(InputError) -> Subject
  {
    let idle = try ExecutorSpec.idleFromEnvironment()
    let log = try log.map { url throws(InputError) in try ExecutorLog(url, truncating: truncating) }
    let (process, hello) = try ExecutorClient.start(command, idle: idle, log: log)
    process.close()
    var subject = Subject.pickerLogic
    subject.name = hello.name + (hello.version.map { " \($0)" } ?? "")
    subject.missing = Set(Function.allCases).subtracting(hello.functions)
    subject.missingReasons = hello.reasons.reduce(into: [:]) { reasons, entry in
      if let function = Function.allCases.first(where: { $0.description == entry.key }) {
        reasons[function] = entry.value
      }
    }
    subject.executor = ExecutorSpec(command: command, hello: hello, idle: idle, log: log)
    return subject
  }
}

extension ExecutorClient {
  /// `base` (an executor's subject) with every function answered through this client.
  func subject(_ base: Subject) -> Subject {
    var subject = base
    let client = self
    subject.leadingBlanks = { month, calendar in
      var question = ExecutorWire.Writer(function: "leadingBlanks")
      question.instant("month", month)
      question.raw("calendar", client.wire(calendar))
      return client.answer(.leadingBlanks, question, calendar: calendar, placeholder: 0) { $0.integer }
    }
    subject.weekdaySymbols = { calendar in
      var question = ExecutorWire.Writer(function: "weekdaySymbols")
      question.raw("calendar", client.wire(calendar))
      return client.answer(.weekdaySymbols, question, calendar: calendar, placeholder: []) { $0.strings }
    }
    subject.closes = { old, new, calendar in
      var question = ExecutorWire.Writer(function: "closes")
      question.instant("old", old)
      question.instant("new", new)
      question.raw("calendar", client.wire(calendar))
      return client.answer(.closes, question, calendar: calendar, placeholder: false) {
        if case .bool(let value) = $0 { value } else { nil }
      }
    }
    subject.selecting = { day, selection, calendar in
      var question = ExecutorWire.Writer(function: "selecting")
      question.instant("day", day)
      question.raw("selection", ExecutorWire.selection(selection))
      question.raw("calendar", client.wire(calendar))
      return client.answer(.selecting, question, calendar: calendar, placeholder: selection) {
        $0.selection
      }
    }
    subject.role = { day, selection, calendar in
      var question = ExecutorWire.Writer(function: "role")
      question.instant("day", day)
      question.raw("selection", ExecutorWire.selection(selection))
      question.raw("calendar", client.wire(calendar))
      return client.answer(.role, question, calendar: calendar, placeholder: .outside) {
        if case .string(let name) = $0 { Subject.Role(rawValue: name) } else { nil }
      }
    }
    subject.days = { month, calendar in
      var question = ExecutorWire.Writer(function: "days")
      question.instant("month", month)
      question.raw("calendar", client.wire(calendar))
      return client.answer(.days, question, calendar: calendar, placeholder: []) { $0.instants }
    }
    subject.paging = { month, offset, calendar in
      var question = ExecutorWire.Writer(function: "paging")
      question.instant("month", month)
      question.int("offset", offset)
      question.raw("calendar", client.wire(calendar))
      return client.answer(.paging, question, calendar: calendar, placeholder: nil) {
        if case .null = $0 { .some(nil) } else { $0.instant.map { .some($0) } }
      }
    }
    subject.nights = { start, end, calendar in
      var question = ExecutorWire.Writer(function: "nights")
      question.instant("start", start)
      question.instant("end", end)
      question.raw("calendar", client.wire(calendar))
      return client.answer(.nights, question, calendar: calendar, placeholder: 0) { $0.integer }
    }
    subject.clampedReturn = { comeback, departure in
      var question = ExecutorWire.Writer(function: "clampedReturn")
      question.instant("comeback", comeback)
      question.instant("departure", departure)
      return client.answer(.clampedReturn, question, calendar: nil, placeholder: comeback) { $0.instant }
    }
    subject.text = { kind, date, calendar, locale in
      var question = ExecutorWire.Writer(function: "text")
      // Both field variants show the same text; only what it is compared with differs.
      question.string("kind", kind == .fieldISO ? DateText.field.rawValue : kind.rawValue)
      question.instant("date", date)
      question.raw("calendar", client.wire(calendar))
      question.string("locale", locale.identifier)
      return client.answer(.text, question, calendar: calendar, placeholder: "") {
        if case .string(let text) = $0 { text } else { nil }
      }
    }
    subject.fieldDate = { text, calendar, locale in
      var question = ExecutorWire.Writer(function: "fieldDate")
      question.string("text", text)
      question.raw("calendar", client.wire(calendar))
      question.string("locale", locale.identifier)
      return client.answer(.fieldDate, question, calendar: calendar, placeholder: nil) {
        if case .null = $0 { .some(nil) } else { $0.instant.map { .some($0) } }
      }
    }
    subject.disclosure = { kind, start, actions, calendar, locale in
      var question = ExecutorWire.Writer(function: "disclosure")
      question.string("kind", kind.rawValue)
      question.instant("start", start)
      question.raw("actions", ExecutorWire.actions(actions))
      question.raw("calendar", client.wire(calendar))
      question.string("locale", locale.identifier)
      return client.answer(.disclosure, question, calendar: calendar, placeholder: []) {
        $0.snapshots
      }
    }
    return subject
  }
}

extension JSONValue {
  var strings: [String]? {
    guard case .array(let items) = self else { return nil }
    var strings: [String] = []
    for item in items {
      guard case .string(let text) = item else { return nil }
      strings.append(text)
    }
    return strings
  }

  var instants: [Date]? {
    guard case .array(let items) = self else { return nil }
    var dates: [Date] = []
    for item in items {
      guard let date = item.instant else { return nil }
      dates.append(date)
    }
    return dates
  }

  var selection: Subject.Selection? {
    guard let members else { return nil }
    var selection = Subject.Selection()
    for (key, value) in members {
      if case .null = value { continue }
      guard let date = value.instant else { return nil }
      switch key {
      case "start": selection.start = date
      case "end": selection.end = date
      default: return nil
      }
    }
    return selection
  }

  var snapshots: [DisclosureSnapshot]? {
    guard case .array(let items) = self else { return nil }
    var snapshots: [DisclosureSnapshot] = []
    for item in items {
      guard let members = item.members, case .bool(let expanded)? = members["expanded"],
        case .string(let label)? = members["label"]
      else { return nil }
      snapshots.append(DisclosureSnapshot(isExpanded: expanded, label: label))
    }
    return snapshots
  }
}
