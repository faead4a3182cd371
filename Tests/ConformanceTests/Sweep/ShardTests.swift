import Conformance
import Foundation
import Testing

@Suite("Shards", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ShardTests {
  func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-shard-\(getpid())-\(name)-\(UUID().uuidString)")
  }

  /// The package's corpus without its measured step costs: every case costs the same, so
  /// the cut does not move whenever `bench` refreshes the model, and four shards cut inside
  /// failure clusters (each shard keeps its part's first cases whole, which the merge must
  /// then abridge as one run does).
  static let balancedCorpora: URL = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-shard-corpora-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.copyItem(at: corpora, to: directory)
    try? FileManager.default.removeItem(at: directory.appendingPathComponent(StepCosts.fileName))
    return directory
  }()

  func options(out: URL, shard: (Int, Int)?) -> RunOptions {
    var request = CorpusRequest(corporaDirectory: Self.balancedCorpora)
    request.locales = .list(["en_US", "zh_CN", "ar_EG"])
    request.calendars = .list(["gregorian", "hebrew", "ethiopic-amete-alem"])
    request.zones = .list(["UTC", "America/St_Johns", "Pacific/Apia"])
    request.years = 2009...2011
    var options = RunOptions(request: request, out: out)
    options.shard = shard.map { (index: $0.0, count: $0.1) }
    options.waivers = corpora.appendingPathComponent(Corpus.Files.waivers)
    options.jobs = 2
    // As the command line states them: results.json and the page show a run's arguments.
    options.arguments = ["--out", out.path] + (shard.map { ["--shard", "\($0.0)/\($0.1)"] } ?? [])
    return options
  }

  /// Drops what may differ between a single run and a merged one: timestamps, durations,
  /// the output path, and the reads left to `JSONDecoder` (a merge reads what a run writes;
  /// and the count is the process's, which here runs other tests' reads at once).
  func normalized(_ directory: URL, _ file: String) throws -> String {
    var text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    text = text.replacingOccurrences(of: directory.path, with: "OUT")
    // The tab's title names the run's start and directory.
    text = text.replacingOccurrences(of: directory.lastPathComponent, with: "OUT")
    for pattern in [#" · [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC · "#, #""started" : "[^"]*""#, #""elapsedSeconds" : [0-9.]+"#, #"time="[0-9.]+""#,
                    #"\\t[0-9]+\.[0-9]{3}\\t"#, #""elapsed":"[0-9.]+""#, #""started":"[^"]*""#,
                    #"<p id="run">[^<]*"#] {
      text = text.replacingOccurrences(of: pattern, with: "…", options: .regularExpression)
    }
    // Present in one run and absent in the other.
    text = text.replacingOccurrences(of: #""slowReads" : \{[^}]*\},\s*"#, with: "", options: .regularExpression)
    return text
  }

  @Test("four shards, cut by cost, merged equal one run, timestamps and output path aside; with a baseline too",
        arguments: [false, true])
  func mergeEqualsSingleRun(againstBaseline: Bool) throws {
    let single = temporary("single")
    let shards = (1...4).map { temporary("shard\($0)") }
    let merged = temporary("merged")
    let base = temporary("baseline")
    defer { for url in [single, merged, base] + shards { try? FileManager.default.removeItem(at: url) } }
    // The baseline swept 2008…2010: its 2008 failures are gone from tonight's steps (removed),
    // tonight's 2011 ones it never swept (new cases), the rest it judges case by case.
    if againstBaseline {
      var earlier = self.options(out: base, shard: nil)
      earlier.request.years = 2008...2010
      _ = try ConformanceRun.run(earlier)
    }
    func options(out: URL, shard: (Int, Int)?) -> RunOptions {
      var options = self.options(out: out, shard: shard)
      if againstBaseline { options.baseline = base.appendingPathComponent("results.json") }
      return options
    }
    let whole = try ConformanceRun.run(options(out: single, shard: nil))
    for (index, url) in shards.enumerated() {
      _ = try ConformanceRun.run(options(out: url, shard: (index + 1, 4)))
    }
    let result = try ShardMerge.run(shards, out: merged)
    #expect(result.cases == whole.cases)
    #expect(result.status == whole.status)
    if againstBaseline {
      // The baseline's every class that this selection can show is shown.
      let classes = try ResultsDirectory(single, role: "test", as: RunRecord.self).record.baselineClasses
      #expect(classes["removed", default: 0] > 0 && classes["new-case", default: 0] > 0
        && classes["still-failing", default: 0] > 0, "\(classes)")
    }
    // Each shard keeps the first cases of its own clusters whole; the merge must abridge
    // those that are not among the first of the whole run's, as the single run did.
    let wholeWaived = { (url: URL) throws -> Int in
      try recordedCases(url).filter { $0.status == .waived && !$0.isAbridged }.count
    }
    #expect(try shards.map(wholeWaived).reduce(0, +) > wholeWaived(single))
    // Case by case, and step by step but for the clocks.
    #expect(try recordedCases(merged) == recordedCases(single))
    let steps = { (url: URL) throws -> [StepRecord] in
      let reader = try ResultsDirectory(url, role: "test", as: RunRecord.self).steps()
      var steps: [StepRecord] = []
      while var step = try reader.next(StepRecord.self) {
        (step.seconds, step.cpuSeconds) = (0, 0)
        steps.append(step)
      }
      return steps
    }
    #expect(try steps(merged) == steps(single))
    for file in ["results.json", "junit.xml", "index.html"] {
      let (a, b) = (try normalized(single, file), try normalized(merged, file))
      let same = a == b
      let at = zip(a, b).prefix { $0 == $1 }.count
      #expect(same, "\(file) differs at character \(at): \(a.dropFirst(max(0, at - 60)).prefix(160))  ≠  \(b.dropFirst(max(0, at - 60)).prefix(160))")
    }
  }

  @Test("shards of different splits or a missing shard are refused")
  func badShards() throws {
    let one = temporary("one")
    let other = temporary("other")
    defer { for url in [one, other] { try? FileManager.default.removeItem(at: url) } }
    _ = try ConformanceRun.run(options(out: one, shard: (1, 2)))
    _ = try ConformanceRun.run(options(out: other, shard: (1, 3)))
    #expect(throws: InputError.self) { _ = try ShardMerge.run([one, other], out: temporary("x")) }
    #expect(throws: InputError.self) { _ = try ShardMerge.run([one], out: temporary("y")) }
    // Shard 2 of 2 cut by the measured model, shard 1 by equal costs: they need not cover
    // the plan once, and merge says their options differ.
    let measured = temporary("measured")
    defer { try? FileManager.default.removeItem(at: measured) }
    var other2 = options(out: measured, shard: (2, 2))
    other2.request.corporaDirectory = corpora
    _ = try ConformanceRun.run(other2)
    #expect {
      _ = try ShardMerge.run([one, measured], out: temporary("z"))
    } throws: { error in
      (error as? InputError)?.message.contains("ran another selection") == true
    }
  }
}
