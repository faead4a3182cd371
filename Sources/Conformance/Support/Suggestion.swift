/// "Did you mean …?" for a misspelt option, value, check or calendar: the known word closest
/// to what was typed, by edit distance, when it is close enough to be the likely intent.
package enum Suggestion {
  /// ` (did you mean 'x'?)`, or empty when no known word is within a third of the typed
  /// word's length (at least 2) of it.
  package static func didYouMean(_ typed: String, among known: some Sequence<String>) -> String {
    closest(to: typed, among: known).map { " (did you mean '\($0)'?)" } ?? ""
  }

  package static func closest(to typed: String, among known: some Sequence<String>) -> String? {
    let limit = max(2, typed.count / 3)
    var best: (word: String, distance: Int)?
    for word in known where word != typed {
      let distance = editDistance(typed.lowercased(), word.lowercased())
      if distance <= limit, distance < best?.distance ?? .max { best = (word, distance) }
    }
    return best?.word
  }

  /// Levenshtein distance (insertions, deletions, substitutions), by characters.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let (a, b) = (Array(a), Array(b))
    guard !a.isEmpty else { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1,
                         previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
