/// A case as the tally meets it: `summary` holds what it counts (id, verdict, pattern,
/// review), `whole()` the record with its values, asked for only of the few cases the tally
/// keeps as examples. A run's cases are whole already; a merge reads each shard's line from a
/// few members and decodes it whole only when kept, which is most of what a merge saves.
package protocol TalliedCase {
  associatedtype Failure: Error
  var summary: CaseRecord { get }
  func whole() throws(Failure) -> CaseRecord
}

extension CaseRecord: TalliedCase {
  package var summary: CaseRecord { self }
  package func whole() -> CaseRecord { self }
}
