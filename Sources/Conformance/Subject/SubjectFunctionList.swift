import Foundation
import PickerLogic

extension Subject {
  /// Every function of a subject, once: what the hook (`intercepted(by:name:)`), a team's
  /// functions (`SubjectFunctions.subject`) and an executor's questions
  /// (`ExecutorClient.subject(_:)`) are derived from. A function's entry names where a
  /// `Subject` keeps it, where a team gives it, the key of each argument in its question
  /// (ExecutorProtocol.md; the question's keys in the arguments' order) and what a case sees
  /// while that question waits for its answer.
  static let functions: [any AnyFunctionEntry] = [
    FunctionEntry<Date, Calendar, Int>(
      .leadingBlanks, \.leadingBlanks, given: { $0.leadingBlanks.map(SubjectCall.init) }, keys: ["month", "calendar"],
      placeholder: .init { _, _ in 0 }),
    FunctionEntry<Calendar, [String]>(
      .weekdaySymbols, \.weekdaySymbols, given: { $0.weekdaySymbols.map(SubjectCall.init) }, keys: ["calendar"],
      placeholder: .init { _ in [] }),
    FunctionEntry<Date, Date, Calendar, Bool>(
      .closes, \.closes, given: { $0.closes.map(SubjectCall.init) }, keys: ["old", "new", "calendar"],
      placeholder: .init { _, _, _ in false }),
    FunctionEntry<Date, Selection, Calendar, Selection>(
      .selecting, \.selecting, given: { $0.selecting.map(SubjectCall.init) }, keys: ["day", "selection", "calendar"],
      placeholder: .init { _, selection, _ in selection }),
    FunctionEntry<Date, Selection, Calendar, Role>(
      .role, \.role, given: { $0.role.map(SubjectCall.init) }, keys: ["day", "selection", "calendar"],
      placeholder: .init { _, _, _ in .outside }),
    FunctionEntry<Date, Calendar, [Date]>(
      .days, \.days, given: { $0.days.map(SubjectCall.init) }, keys: ["month", "calendar"], placeholder: .init { _, _ in [] }),
    FunctionEntry<Date, Int, Calendar, Date?>(
      .paging, \.paging, given: { $0.paging.map(SubjectCall.init) }, keys: ["month", "offset", "calendar"],
      placeholder: .init { _, _, _ in nil }),
    FunctionEntry<Date, Date, Calendar, Int>(
      .nights, \.nights, given: { $0.nights.map(SubjectCall.init) }, keys: ["start", "end", "calendar"],
      placeholder: .init { _, _, _ in 0 }),
    FunctionEntry<Date, Date, Date>(
      .clampedReturn, \.clampedReturn, given: { $0.clampedReturn.map(SubjectCall.init) }, keys: ["comeback", "departure"],
      placeholder: .init { comeback, _ in comeback }),
    FunctionEntry<DateText, Date, Calendar, Locale, String>(
      .text, \.text, given: { $0.text.map(SubjectCall.init) }, keys: ["kind", "date", "calendar", "locale"],
      placeholder: .init { _, _, _, _ in "" }),
    FunctionEntry<String, Calendar, Locale, Date?>(
      .fieldDate, \.fieldDate, given: { $0.fieldDate.map(SubjectCall.init) }, keys: ["text", "calendar", "locale"],
      placeholder: .init { _, _, _ in nil }),
    FunctionEntry<DisclosureRow.Kind, Date, [DisclosureAction], Calendar, Locale, [DisclosureSnapshot]>(
      .disclosure, \.disclosure, given: { $0.disclosure.map(SubjectCall.init) }, keys: ["kind", "start", "actions", "calendar", "locale"],
      placeholder: .init { _, _, _, _, _ in [] }),
  ]

  /// `function`'s entry in `functions` (which lists them in `Function`'s order).
  static func entry(_ function: Function) -> any AnyFunctionEntry { functions[function.rawValue] }

  /// What code over every function does with one of them, whatever its types.
  protocol AnyFunctionEntry: Sendable {
    var function: Subject.Function { get }
    /// `subject`'s function becomes `base`'s, each call passed through `hook`.
    func intercept(_ subject: inout Subject, base: Subject, hook: any SubjectHook)
    /// `subject`'s function becomes the team's; `false` when they have none.
    func take(_ functions: SubjectFunctions, into subject: inout Subject) -> Bool
    /// `subject`'s function becomes a stand-in that is never called (its checks are
    /// skipped).
    func standIn(_ subject: inout Subject)
    /// `subject`'s function becomes a question to `client`'s executor.
    func ask(_ client: ExecutorClient, in subject: inout Subject)
    /// `subject`'s function becomes its placeholder answer: no code of the subject runs.
    func placehold(_ subject: inout Subject)
    /// Whether an executor's answer reads as this function's answer.
    func reads(_ answer: JSONValue) -> Bool
    /// The type of its answers, for a malformed answer's message.
    var expected: String { get }
  }

  /// One function's entry: its types are its arguments' and its answer's.
  struct FunctionEntry<each Argument: WireArgument, Answer: WireAnswer>: AnyFunctionEntry {
    let function: Subject.Function
    let call: WritableKeyPath<Subject, SubjectCall<repeat each Argument, Answer>> & Sendable
    /// The team's function, if they gave one (a closure: a key path cannot reach a closure of
    /// variadic type from generic code).
    let given: @Sendable (SubjectFunctions) -> SubjectCall<repeat each Argument, Answer>?
    let keys: [String]
    let placeholder: SubjectCall<repeat each Argument, Answer>
    /// What `intercept` does, made in `init`, where this entry's types are known, so the
    /// compiler specializes it. Made in `intercept`, which runs generic over
    /// `any AnyFunctionEntry`, each call built its key's type at run time (`perf` of a core
    /// run: 2.7 % more CPU than the hand-written hook it replaced, most of it in the runtime's
    /// tuple-metadata cache).
    private let interceptor: @Sendable (inout Subject, Subject, any SubjectHook) -> Void

    init(_ function: Subject.Function, _ call: WritableKeyPath<Subject, SubjectCall<repeat each Argument, Answer>> & Sendable,
         given: @escaping @Sendable (SubjectFunctions) -> SubjectCall<repeat each Argument, Answer>?, keys: [String],
         placeholder: SubjectCall<repeat each Argument, Answer>) {
      var arity = 0
      for _ in repeat (each Argument).self { arity += 1 }
      precondition(keys.count == arity, "\(function): \(keys.count) question keys for \(arity) arguments")
      (self.function, self.call, self.given, self.keys, self.placeholder) = (function, call, given, keys, placeholder)
      interceptor = { subject, base, hook in
        // Triage's reuse, on every call of a run, passes through a hook whose type is known
        // here too; any other (the bench's recorder) through the protocol.
        subject[keyPath: call] = if let answers = hook as? SubjectAnswers {
          Self.passing(base[keyPath: call], function, through: answers)
        } else {
          Self.passing(base[keyPath: call], function, through: hook)
        }
      }
    }

    /// `asked` with each call passed through `hook`, keyed by its arguments.
    private static func passing<Hook: SubjectHook>(
      _ asked: SubjectCall<repeat each Argument, Answer>, _ function: Subject.Function, through hook: Hook
    ) -> SubjectCall<repeat each Argument, Answer> {
      SubjectCall { (arguments: repeat each Argument) in
        hook.answer(function, SubjectArguments(repeat each arguments)) { asked(repeat each arguments) }
      }
    }

    func intercept(_ subject: inout Subject, base: Subject, hook: any SubjectHook) {
      interceptor(&subject, base, hook)
    }

    func take(_ functions: SubjectFunctions, into subject: inout Subject) -> Bool {
      guard let theirs = given(functions) else { return false }
      subject[keyPath: call] = theirs
      return true
    }

    func standIn(_ subject: inout Subject) {
      let function = function
      subject[keyPath: call] = SubjectCall { (_: repeat each Argument) -> Answer in
        preconditionFailure("\(function) is missing: its checks are skipped, never run")
      }
    }

    func reads(_ answer: JSONValue) -> Bool { Answer.read(answer) != nil }

    func placehold(_ subject: inout Subject) { subject[keyPath: call] = placeholder }

    var expected: String { Answer.described }

    func ask(_ client: ExecutorClient, in subject: inout Subject) {
      let (function, keys, placeholder) = (function, keys, placeholder)
      subject[keyPath: call] = SubjectCall { (arguments: repeat each Argument) in
        var question = ExecutorWire.Writer(function: function.description)
        var calendar: Calendar?
        var index = 0
        for argument in repeat each arguments {
          argument.write(keys[index], into: &question, client: client)
          if calendar == nil { calendar = argument as? Calendar }
          index += 1
        }
        return client.answer(function, question, calendar: calendar,
                             placeholder: placeholder(repeat each arguments), read: Answer.read)
      }
    }
  }
}
