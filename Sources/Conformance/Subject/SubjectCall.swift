/// One function of a subject as a value: called as the function is
/// (`subject.leadingBlanks(month, calendar)`), and, unlike a closure of variadic type, read
/// and replaced by code generic over every function (`Subject.functions`): the hook, a
/// team's functions and an executor's questions are derived from one list that way.
package struct SubjectCall<each Argument: Equatable & Sendable, Answer: Sendable>: Sendable {
  package let body: @Sendable (repeat each Argument) -> Answer

  package init(_ body: @escaping @Sendable (repeat each Argument) -> Answer) {
    self.body = body
  }

  package func callAsFunction(_ arguments: repeat each Argument) -> Answer {
    body(repeat each arguments)
  }
}

/// The arguments of one subject call, compared as a whole (a hook's key: tuples are not
/// `Equatable` types); the first that differs ends the comparison.
struct SubjectArguments<each Argument: Equatable & Sendable>: Equatable, Sendable {
  let values: (repeat each Argument)

  init(_ values: repeat each Argument) {
    self.values = (repeat each values)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    for (left, right) in repeat (each lhs.values, each rhs.values) {
      if left != right { return false }
    }
    return true
  }
}
