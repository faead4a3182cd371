/// Failing cases grouped by check, status and the shape of their difference: what a reviewer
/// reads instead of thousands of rows.
public struct FailureCluster: Sendable {
  public var check: String
  public var pattern: String
  public var status: CaseStatus
  package var triage: Triage?
  public var count = 0
  /// Cases that are new against the baseline (every unwaived failure without one).
  public var newCount = 0
  /// The cases kept whole, with their values: the first `examplesKept` in plan order, and
  /// the first of each other signature (its dimensions but the month), up to
  /// `signaturesKept` signatures, so the page can show examples that differ.
  package var examples: [CaseRecord] = []
  /// The ids of the cases kept as examples, as `explain` takes them
  /// (`leading-blanks|calendar=gregorian|fw=2|zone=UTC|month=2021-01-01`).
  public var exampleIDs: [String] { examples.map(\.id.description) }
  /// The signatures of the cases seen, while fewer than `signaturesKept`.
  var signatures: Set<String> = []
  /// Cases per waiver that explains them.
  public var waivers: [String: Int] = [:]
  /// For each dimension in first-seen order, the distinct values seen (up to `valueLimit`)
  /// with how many cases have each: the span, and counts that follow the page's filters.
  var values: [(dimension: String, counts: [String: Int], ordered: [String])] = []

  public static let examplesKept = 8
  static let signaturesKept = 24
  static let valueLimit = 5000

  /// For each dimension, how many distinct values the cluster spans and the first few.
  public var span: [(dimension: String, count: Int, examples: [String])] {
    values.map { ($0.dimension, $0.counts.count, Array($0.ordered.prefix(6))) }
  }

  /// Up to `count` examples that differ: the first of each signature in plan order, then
  /// the first ones of the rest.
  package func shownExamples(_ count: Int = examplesKept) -> [CaseRecord] {
    var seen: Set<String> = []
    let spread = examples.filter { seen.insert(Self.signature($0.id)).inserted }
    let spreadIDs = Set(spread.prefix(count).map(\.id.description))
    return Array((spread + examples.filter { !spreadIDs.contains($0.id.description) }).prefix(count))
  }

  /// Larger first, then by check, status, triage and pattern.
  static func precedes(_ a: FailureCluster, _ b: FailureCluster) -> Bool {
    if a.count != b.count { return a.count > b.count }
    return (a.check, a.status.rawValue, a.triage?.rawValue ?? "", a.pattern)
      < (b.check, b.status.rawValue, b.triage?.rawValue ?? "", b.pattern)
  }

  /// A case's dimensions but its month: what makes two examples worth showing both.
  static func signature(_ id: CaseID) -> String {
    id.dimensionValues.filter { $0.key != "month" }.map(\.value).joined(separator: "|")
  }

  /// Counts a case; returns whether it is kept as an example. (A case kept here is kept by
  /// its shard too: a shard sees a subsequence of the run's cases in the same order.)
  mutating func add<Case: TalliedCase>(_ arriving: Case) throws(Case.Failure) -> Bool {
    let result = arriving.summary
    count += 1
    if result.isNewFailure { newCount += 1 }
    if let waiver = result.review.waiver { waivers[waiver, default: 0] += 1 }
    var isExample = examples.count < Self.examplesKept
    if signatures.count < Self.signaturesKept, signatures.insert(Self.signature(result.id)).inserted {
      isExample = true
    }
    if isExample { examples.append(try arriving.whole()) }
    result.id.forEachDimension { key, value in
      guard let index = values.firstIndex(where: { $0.dimension == key }) else {
        values.append((key, [value: 1], [value]))
        return
      }
      if let slot = values[index].counts.index(forKey: value) {
        values[index].counts.values[slot] += 1
      } else if values[index].counts.count < Self.valueLimit {
        values[index].counts[value] = 1
        values[index].ordered.append(value)
      }
    }
    return isExample
  }
}

/// Builds failure clusters one case at a time.
package struct ClusterAccumulator: Sendable {
  private var clusters: [Key: FailureCluster] = [:]

  /// What sets a cluster apart (hashed field by field: no text is built per case).
  private struct Key: Hashable {
    var check: String
    var status: CaseStatus
    var triage: Triage?
    var pattern: String
  }

  package init() {}

  /// Adds a case to its cluster; returns whether it is one of the cluster's examples (the
  /// first `FailureCluster.examplesKept` in plan order, so a merge of shards keeps the same).
  @discardableResult
  package mutating func add<Case: TalliedCase>(_ arriving: Case) throws(Case.Failure) -> Bool {
    let result = arriving.summary
    let (status, triage, pattern) = (result.status, result.review.triage, result.outcome.pattern)
    let key = Key(check: result.id.check, status: status, triage: triage, pattern: pattern)
    return try clusters[key, default: FailureCluster(check: result.id.check, pattern: pattern,
                                                     status: status, triage: triage)]
      .add(arriving)
  }

  /// What a reviewer reads first: clusters with new failures or unexpected passes (most of
  /// them first), then the rest as `sorted` orders them.
  package var byUrgency: [FailureCluster] {
    let urgency = { (cluster: FailureCluster) in
      cluster.newCount + (cluster.status == .unexpectedPass ? cluster.count : 0)
    }
    return sorted.sorted {
      urgency($0) != urgency($1) ? urgency($0) > urgency($1) : FailureCluster.precedes($0, $1)
    }
  }

  /// Clusters by size, then check, status, triage and pattern: a total order, so reports
  /// do not depend on hashing.
  package var sorted: [FailureCluster] {
    clusters.values.sorted { FailureCluster.precedes($0, $1) }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
