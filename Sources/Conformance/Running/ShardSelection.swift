/// `--shard auto`: the slice a CI system gives this runner, from its own variables, so one
/// job definition serves every runner of a matrix.
package enum ShardSelection {
  /// The variables read, as (index, total, index base, where they come from).
  static let sources: [(index: String, total: String, base: Int, system: String)] = [
    ("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, "GitLab parallel:"),
    ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, "CircleCI parallelism"),
    ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0, "Buildkite parallelism"),
  ]

  /// Shard K of N (1-based) from `environment`: `CONFORMANCE_SHARD=K/N` (for GitHub Actions,
  /// where a matrix value is whatever the workflow names it), GitLab's, CircleCI's and
  /// Buildkite's own. A system that says 1 of 1 (CircleCI and GitLab do without
  /// parallelism) gives way to one that says more.
  ///
  /// - Throws: `InputError` when none is set, a value is not a number, one of a pair is
  ///   missing, or two disagree, naming the variables.
  package static func fromEnvironment(_ environment: [String: String]) throws(InputError) -> (index: Int, count: Int) {
    var found: [(shard: (index: Int, count: Int), from: String)] = []
    if let text = environment["CONFORMANCE_SHARD"] {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
        (1...count).contains(index)
      else { throw InputError("--shard auto: CONFORMANCE_SHARD='\(text)': expected K/N with 1 ≤ K ≤ N") }
      found.append(((index, count), "CONFORMANCE_SHARD=\(text)"))
    }
    for source in sources {
      let (indexText, totalText) = (environment[source.index], environment[source.total])
      // GitLab sets its total (1) even without parallel:, and no index.
      if indexText == nil && (totalText == nil || totalText == "1") { continue }
      guard let indexText else {
        throw InputError("--shard auto: \(source.total)=\(totalText ?? "") is set but \(source.index) is not")
      }
      guard let totalText else {
        throw InputError("--shard auto: \(source.index)=\(indexText) is set but \(source.total) is not")
      }
      guard let raw = Int(indexText), let count = Int(totalText), count >= 1,
        (1...count).contains(raw - source.base + 1)
      else {
        throw InputError("--shard auto: \(source.index)=\(indexText) and \(source.total)=\(totalText) "
          + "are not a shard of \(source.system) (index from \(source.base))")
      }
      found.append(((raw - source.base + 1, count), "\(source.index)=\(indexText), \(source.total)=\(totalText)"))
    }
    let split = found.contains { $0.shard.count > 1 } ? found.filter { $0.shard.count > 1 } : found
    guard let first = split.first else {
      throw InputError("--shard auto: no shard in the environment: set CONFORMANCE_SHARD=K/N, or run "
        + "under " + sources.map(\.system).joined(separator: ", "))
    }
    if let other = split.first(where: { $0.shard != first.shard }) {
      throw InputError("--shard auto: the environment disagrees: \(first.from) is shard "
        + "\(first.shard.index)/\(first.shard.count), \(other.from) is \(other.shard.index)/\(other.shard.count)")
    }
    return first.shard
  }
}
