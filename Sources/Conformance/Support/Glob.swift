/// A shell-style pattern for waiver matching: `*` any run of characters, `?` one character;
/// a leading `!` negates.
package struct Glob: Sendable, Equatable, CustomStringConvertible {
  package let text: String
  private let negated: Bool
  private let pattern: [Character]

  package init(_ text: String) {
    self.text = text
    self.negated = text.hasPrefix("!")
    self.pattern = Array(negated ? text.dropFirst() : text[...])
  }

  package var description: String { text }

  /// Whether the pattern names what it matches: not negated, with literal text beside its
  /// wildcards (`*trap (SIGILL) in …*`, not `*` or `!missing cells`).
  package var namesLiterally: Bool {
    !negated && pattern.contains { $0 != "*" && $0 != "?" }
  }

  package func matches(_ value: String) -> Bool {
    Self.match(pattern[...], Array(value)[...]) != negated
  }

  private static func match(_ pattern: ArraySlice<Character>, _ value: ArraySlice<Character>)
    -> Bool
  {
    var p = pattern.startIndex
    var v = value.startIndex
    var star: (p: Int, v: Int)?
    while v < value.endIndex {
      if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == value[v] {
        p += 1
        v += 1
      } else if p < pattern.endIndex, pattern[p] == "*" {
        star = (p, v)
        p += 1
      } else if let last = star {
        p = last.p + 1
        v = last.v + 1
        star = (last.p, last.v + 1)
      } else {
        return false
      }
    }
    while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
    return p == pattern.endIndex
  }
}
