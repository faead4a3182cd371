import Conformance
import Foundation

/// The package's `Corpora/`.
let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpora")

/// A small corpus for engine tests: two locales, two calendars, UTC and Tehran, 2020…2022.
func smallCorpus(locales: [String] = ["en_US", "de_DE"], calendars: [String] = ["gregorian", "persian"],
                 zones: [String] = ["UTC", "Asia/Tehran"], years: ClosedRange<Int> = 2020...2022)
  throws -> Corpus
{
  var request = CorpusRequest(corporaDirectory: corpora)
  request.locales = .list(locales)
  request.calendars = .list(calendars)
  request.zones = .list(zones)
  request.years = years
  return try Corpus.load(request)
}

/// Runs `checks` over `corpus` with `subject`, collecting everything in memory.
func sweep(_ corpus: Corpus, checks: [String], subject: Subject = .pickerLogic) -> RunTally {
  let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all.filter { checks.contains($0.id) })
  let tally = RunTally()
  Runner(plan: plan, corpus: corpus, subject: subject, workers: 2).run { tally.record($0) }
  return tally
}
