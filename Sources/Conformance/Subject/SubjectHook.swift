import Foundation
import PickerLogic

/// Stands between the checks and the subject: sees every call with its arguments as an
/// `Equatable` key, and decides how the answer is obtained (ask now, time it, reuse one).
protocol SubjectHook: AnyObject, Sendable {
  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer
}

/// Arguments of a subject call, compared as a whole (tuples are not `Equatable` types).
struct Arguments<A: Equatable & Sendable, B: Equatable & Sendable, C: Equatable & Sendable, D: Equatable & Sendable>: Equatable, Sendable {
  var a: A, b: B, c: C, d: D
  init(_ a: A, _ b: B, _ c: C, _ d: D) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }
}

/// Stands in for an argument a function does not have.
struct NoArgument: Equatable, Sendable {}

extension Subject {
  /// This subject with every call passed through `hook` (dates first in each key, so that
  /// comparing keys stops early).
  func intercepted<Hook: SubjectHook>(by hook: Hook, name: String) -> Subject {
    let base = self
    let none = NoArgument()
    var subject = self
    subject.name = name
    subject.leadingBlanks = { month, calendar in
      hook.answer(.leadingBlanks, Arguments(month, calendar, none, none)) {
        base.leadingBlanks(month, calendar)
      }
    }
    subject.weekdaySymbols = { calendar in
      hook.answer(.weekdaySymbols, calendar) { base.weekdaySymbols(calendar) }
    }
    subject.closes = { old, new, calendar in
      hook.answer(.closes, Arguments(old, new, calendar, none)) { base.closes(old, new, calendar) }
    }
    subject.selecting = { day, selection, calendar in
      hook.answer(.selecting, Arguments(day, selection, calendar, none)) {
        base.selecting(day, selection, calendar)
      }
    }
    subject.role = { day, selection, calendar in
      hook.answer(.role, Arguments(day, selection, calendar, none)) {
        base.role(day, selection, calendar)
      }
    }
    subject.days = { month, calendar in
      hook.answer(.days, Arguments(month, calendar, none, none)) { base.days(month, calendar) }
    }
    subject.paging = { month, offset, calendar in
      hook.answer(.paging, Arguments(month, offset, calendar, none)) {
        base.paging(month, offset, calendar)
      }
    }
    subject.nights = { start, end, calendar in
      hook.answer(.nights, Arguments(start, end, calendar, none)) {
        base.nights(start, end, calendar)
      }
    }
    subject.clampedReturn = { comeback, departure in
      hook.answer(.clampedReturn, Arguments(comeback, departure, none, none)) {
        base.clampedReturn(comeback, departure)
      }
    }
    subject.text = { kind, date, calendar, locale in
      hook.answer(.text, Arguments(date, kind, calendar, locale)) {
        base.text(kind, date, calendar, locale)
      }
    }
    subject.fieldDate = { text, calendar, locale in
      hook.answer(.fieldDate, Arguments(text, calendar, locale, none)) {
        base.fieldDate(text, calendar, locale)
      }
    }
    subject.disclosure = { kind, start, actions, calendar, locale in
      hook.answer(.disclosure, Arguments(Arguments(start, kind, none, none), actions, calendar,
                                         locale)) {
        base.disclosure(kind, start, actions, calendar, locale)
      }
    }
    return subject
  }
}
