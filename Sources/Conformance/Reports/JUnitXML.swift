import Foundation

/// `junit.xml`: one testsuite per check, one testcase per step (e.g. calendar × zone), named
/// the same every night whatever is waived, so a CI server's per-test history holds; then one
/// skipped testcase per known difference of the check (`known differences · waived by ID`,
/// `… · still failing`), which carries the waiver's whole reason and link once. Validates
/// against `junit-10.xsd` (`.ci/junit/README.md` says why not the older dtkit schema).
package enum JUnitXML {
  /// How many failing cases a testcase's body lists before it says how many more there are,
  /// and how long a value may be there: the full sweep's file must stay under 30 MB.
  static let casesPerBody = 1
  static let valueLength = 240

  /// - Parameter testcasesPerRun: how many steps' testcases one thread writes as a piece.
  package static func document(_ tally: RunTally, testcasesPerRun: Int = testcasesPerRun) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let checks = tally.info?.checks ?? []
    let totals = checks.map { tally.testcaseCounts(check: $0.id) }
    var sum = totals.reduce((0, 0, 0)) { ($0.0 + $1.tests, $0.1 + $1.failures, $0.2 + $1.errors) }
    let incomplete = tally.info?.incomplete
    if incomplete != nil { (sum.0, sum.2) = (sum.0 + 1, sum.2 + 1) }
    xml += "<testsuites name=\"conformance\" tests=\"\(sum.0)\" failures=\"\(sum.1)\" "
      + "errors=\"\(sum.2)\" time=\"\(time(tally.elapsed))\">\n"
    // A partial report is red whatever its cases say: the run did not finish.
    if let incomplete {
      xml += "  <testsuite name=\"run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
        + "    <testcase classname=\"conformance.run\" name=\"the run finished\" time=\"0\">\n"
        + "      <error message=\"\(escape(incomplete.sentence))\" type=\"incomplete\">"
        + escape(incomplete.sentence, attribute: false) + "</error>\n    </testcase>\n  </testsuite>\n"
    }
    let stepsByCheck = Dictionary(grouping: tally.steps, by: \.check)
    // The testcases are written side by side in runs of steps, then joined in order: a full
    // sweep's file is 18 MB, most of it one check's, and one thread writing it was a merge's
    // last second.
    let runs = checks.indices.flatMap { index in
      let count = stepsByCheck[checks[index].id]?.count ?? 0
      return stride(from: 0, to: count, by: testcasesPerRun).map { (index, $0..<min(count, $0 + testcasesPerRun)) }
    }
    let written = ParallelMap.run(runs) { index, range in
      let steps = stepsByCheck[checks[index].id] ?? []
      return steps[range].reduce(into: "") { xml, step in xml += testcase(step, check: checks[index].id, tally: tally) }
    }
    var next = 0
    for (index, check) in checks.enumerated() {
      let steps = stepsByCheck[check.id] ?? []
      let known = tally.knownDifferences(check: check.id)
      xml += suiteStart(check, counts: totals[index], steps: steps, tally: tally)
      while next < runs.count, runs[next].0 == index {
        xml += written[next]
        next += 1
      }
      for group in known {
        xml += knownTestcase(group, check: check.id, review: tally.info?.review,
                             explain: tally.info?.explainCommand ?? ExplainCommand())
      }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  /// Steps written as one piece of the file (a full sweep has ~60,000).
  package static let testcasesPerRun = 2_000

  /// A check's testsuite element and properties: the summary and both sides' versions.
  static func suiteStart(_ check: RunInfo.CheckInfo, counts: TestcaseCounts, steps: [RunTally.Step],
                         tally: RunTally) -> String {
    let duration = steps.reduce(0) { $0 + $1.record.seconds }
    var xml = "  <testsuite name=\"\(escape(check.id))\" tests=\"\(counts.tests)\" "
      + "failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" "
      + "skipped=\"\(counts.skipped)\" time=\"\(time(duration))\">\n"
    xml += "    <properties>\n"
    xml += property("summary", check.summary)
    xml += property("cases", NightCounts.junitCases(tally.checkCounts[check.id] ?? StatusCounts(),
                                                     newFailures: tally.checkNewFailures[check.id] ?? 0))
    if let versions = tally.info?.versions {
      xml += property("oracle", "libicu \(versions.oracle.icu) CLDR \(versions.oracle.cldr) tz \(versions.oracle.tz)")
      xml += property("subject", versions.summary)
    }
    xml += "    </properties>\n"
    return xml
  }

  static func property(_ name: String, _ value: String) -> String {
    "      <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n"
  }

  /// The step's testcase (`RunTally.Step.testcase`): what the `--fail-on` rule counts as a
  /// failure or error, else a pass (its known differences are the check's own testcases).
  static func testcase(_ step: RunTally.Step, check: String, tally: RunTally) -> String {
    let rule = tally.info?.review.failOn ?? FailOn.unexpected.rawValue
    let testcase = step.testcase
    var xml = "    <testcase classname=\"conformance.\(escape(check))\" name=\"\(escape(step.name))\" "
      + "time=\"\(time(step.record.seconds))\""
    switch testcase {
    case .passed:
      return xml + "/>\n"
    case .error, .failure:
      xml += ">\n" + counted(step, error: testcase == .error, rule: rule,
                             subject: tally.info?.versions.subjectSide ?? "Foundation",
                             explain: tally.info?.explainCommand ?? ExplainCommand())
    case .notApplicable:
      let reason = step.record.skipReason ?? "not applicable"
      xml += ">\n      <skipped message=\"\(escape(reason))\">\(escape(reason, attribute: false))</skipped>\n"
    }
    return xml + "    </testcase>\n"
  }

  /// The testcase name of a check's known difference.
  static func knownName(_ kind: RunTally.KnownDifference) -> String {
    switch kind {
    case .waived(let id): "known differences · waived by \(id)"
    case .stillFailing: "known differences · still failing"
    case .oracleStale: "known differences · oracle-stale (libicu's data is older)"
    case .unexpectedPass: "known differences · passing against a waiver"
    case .uncounted: "known differences · not counted"
    case .notRun: "not run · the breaker stopped a systematic fault"
    }
  }

  /// A check's known difference as a skipped testcase: why it does not count (the waiver's
  /// whole reason and link, or since when the cases fail), how many cases in how many steps,
  /// and commands that explain the first of them.
  static func knownTestcase(_ group: RunTally.KnownGroup, check: String, review: RunInfo.ReviewSummary?,
                            explain: ExplainCommand) -> String {
    let message = knownMessage(group, review: review)
    var body = group.examples.isEmpty ? "none of its cases in this run\n" : ""
    for example in group.examples { body += "\(explain.text(for: example))\n" }
    return "    <testcase classname=\"conformance.\(escape(check))\" name=\"\(escape(knownName(group.kind)))\" time=\"0\">\n"
      + "      <skipped message=\"\(escape(message))\">\(escape(body, attribute: false))</skipped>\n"
      + "    </testcase>\n"
  }

  /// The `<failure>` or `<error>` of the cases the rule counts, with the first one's values.
  static func counted(_ step: RunTally.Step, error: Bool, rule: String, subject: String,
                      explain: ExplainCommand) -> String {
    let element = error ? "error" : "failure"
    let relevant = step.examples.filter { error ? $0.status == .errored : $0.status != .errored }
    let total = error ? step.counted.errored : step.counted.total - step.counted.errored
    let first = relevant.first
    let message = "\(total) of \(step.counts.total) cases "
      + (first?.status == .unexpectedPass ? "passed against a waiver"
        : first?.status == .waived ? "waived (counted by --fail-on \(rule))"
        : error ? "errored" : "failed")
      + ": \(first?.outcome.pattern ?? "")"
    // The type is what a CI dashboard groups by: the triage of the step's first failure.
    let type = error ? "error"
      : first?.status == .unexpectedPass ? "unexpected-pass"
      : first?.review.triage?.rawValue ?? "mismatch"
    var body = ""
    for result in relevant.prefix(casesPerBody) { body += caseBody(result, subject: subject, explain: explain) }
    if total > relevant.prefix(casesPerBody).count {
      body += "… and \(total - relevant.prefix(casesPerBody).count) more in cases.jsonl.gz\n"
    }
    body += "\(step.counts.passed) of \(step.counts.total) cases of this step passed.\n"
    return "      <\(element) message=\"\(escape(message))\" type=\"\(escape(type))\">"
      + escape(body, attribute: false) + "</\(element)>\n"
  }

  /// Why a known difference does not count: the waiver with its whole reason and link, the
  /// cases still failing since the baseline, the rest the rule does not count.
  static func knownMessage(_ group: RunTally.KnownGroup, review: RunInfo.ReviewSummary?) -> String {
    let rule = review?.failOn ?? FailOn.unexpected.rawValue
    let cases = "\(CountText.counted(group.cases, "case")) in \(CountText.counted(group.steps, "step"))"
    switch group.kind {
    case .waived(let id):
      let waiver = review?.waiver(id)
      let reason = waiver?.reason ?? ""
      let link = waiver?.link ?? ""
      return "\(cases) waived by \(id)" + (reason.isEmpty ? "" : ": \(reason)") + (link.isEmpty ? "" : " (\(link))")
    case .stillFailing where review?.baseline == nil:
      return "\(cases) still failing: no baseline given (--baseline)"
    case .stillFailing:
      return "\(cases) still failing since \(review?.baseline?.started ?? "the baseline") (not counted by --fail-on \(rule))"
    case .oracleStale:
      return "\(cases) failed only because libicu's data is older: the published reference shows the "
        + "subject following the release it declares and libicu its own (oracle-stale, counted by no "
        + "--fail-on rule; --oracle-stale fail makes them failures)"
    case .unexpectedPass:
      return "\(cases) passed against their waiver (not counted by --fail-on \(rule))"
    case .uncounted:
      return "\(cases) failed (not counted by --fail-on \(rule))"
    case .notRun:
      return "\(cases) not run: the subject faulted systematically in their group (its faults are "
        + "the errors of their steps), so the breaker did not ask these (counted by no --fail-on rule)"
    }
  }

  /// One case in a body: where, both sides' values, its baseline class and triage.
  static func caseBody(_ result: CaseRecord, subject subjectSide: String, explain: ExplainCommand) -> String {
    let outcome = result.outcome
    var body = "\(result.id.coordinates)\n"
    if result.status == .unexpectedPass {
      body += "  passes, but waiver \(result.review.waiver ?? "?") says it fails\n"
    }
    // A case that errored has no answer, only what it should have answered; its detail says
    // what happened (for a crash: the signal, the message and the crashing frame).
    if outcome.verdict != .errored || outcome.expected != .null {
      body += "  expected: \(clip(outcome.expected.description))   [libicu]\n"
    }
    if outcome.verdict != .errored {
      if let second = result.review.triageExpected {
        body += "  expected: \(clip(second.description))   [Foundation's ICU]\n"
      }
      body += "  actual:   \(clip(outcome.actual.description))   [\(subjectSide)]\n"
    }
    let shown = outcome.verdict == .errored ? 4 : 2
    for line in outcome.detail.prefix(shown) { body += "  \(clip(line))\n" }
    // The published reference beside the two ICUs, and a waiver that matched but did not
    // waive (its claim contradicted, or the case outside its scope), once each.
    for line in outcome.detail.dropFirst(shown) where line.hasPrefix("reference ") || line.hasPrefix("waiver '") {
      body += "  \(clip(line))\n"
    }
    body += "  baseline: \(result.review.baseline?.rawValue ?? "none")"
      + "   triage: \(result.review.triage?.rawValue ?? "none")\n"
    body += "  \(explain.text(for: result.id))\n"
    return body
  }

  /// A value with invisible code points named (a CI log cannot show U+202F from a space),
  /// cut to `valueLength` characters, marked when cut.
  static func clip(_ text: String) -> String {
    let visible = CodePoints.annotate(text)
    return visible.count <= valueLength ? visible : String(visible.prefix(valueLength)) + " …"
  }

  static func time(_ seconds: Double) -> String { String(format: "%.3f", max(0, seconds)) }

  /// Escapes text for XML content and attribute values, and replaces the C0 control
  /// characters XML 1.0 forbids with U+FFFD. In attributes, tab, newline and carriage return
  /// become character references so that attribute normalisation keeps them.
  package static func escape(_ text: String, attribute: Bool = true) -> String {
    // Most names and messages need nothing: one pass over the bytes says so (a full sweep's
    // JUnit escapes ~200,000 of them); the rest are written byte by byte. Step names hold
    // "·" and bodies hold newlines, so the pass lets through any byte but the five markup
    // characters, C0 controls, and 0xEF, which leads U+FFFE and U+FFFF (and others, checked
    // below).
    let plain = text.utf8.allSatisfy { byte in
      byte >= 0x20 ? byte != 0xEF && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x27
        : !attribute && (byte == 0x09 || byte == 0x0A)
    }
    if plain { return text }
    var output: [UInt8] = []
    let bytes = Array(text.utf8)
    output.reserveCapacity(bytes.count + 32)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x26: output += "&amp;".utf8
      case 0x3C: output += "&lt;".utf8
      case 0x3E: output += "&gt;".utf8
      case 0x22: output += "&quot;".utf8
      case 0x27: output += "&apos;".utf8
      case 0x09 where attribute: output += "&#9;".utf8
      case 0x0A where attribute: output += "&#10;".utf8
      case 0x0D: output += "&#13;".utf8
      case 0x09, 0x0A: output.append(byte)
      case 0..<0x20: output += replacement
      // U+FFFE and U+FFFF (valid UTF-8, so these three bytes are only ever those scalars).
      case 0xEF where index + 1 < bytes.count && bytes[index] == 0xBF && bytes[index + 1] >= 0xBE:
        output += replacement
        index += 2
      default: output.append(byte)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// U+FFFD in UTF-8, for the code points XML 1.0 forbids.
  private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
}
