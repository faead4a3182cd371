import Foundation

/// `junit.xml`: one testsuite per check, one testcase per step (e.g. calendar × zone), so the
/// file stays reviewable; validates against both schemas in `shared/junit/`.
public enum JUnitXML {
  /// How many failing cases a testcase's body lists before it says how many more there are,
  /// and how long a value may be there: the full sweep's file must stay under 30 MB.
  static let casesPerBody = 1
  static let valueLength = 240

  public static func document(_ tally: RunTally) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let totals = (tally.info?.checks ?? []).map { tally.testcaseCounts(check: $0.id) }
    let sum = totals.reduce((0, 0, 0)) { ($0.0 + $1.tests, $0.1 + $1.failures, $0.2 + $1.errors) }
    xml += "<testsuites name=\"conformance\" tests=\"\(sum.0)\" failures=\"\(sum.1)\" "
      + "errors=\"\(sum.2)\" time=\"\(time(tally.elapsed))\">\n"
    let stepsByCheck = Dictionary(grouping: tally.steps, by: \.check)
    for (index, check) in (tally.info?.checks ?? []).enumerated() {
      let counts = totals[index]
      let steps = stepsByCheck[check.id] ?? []
      let duration = steps.reduce(0) { $0 + $1.record.seconds }
      xml += "  <testsuite name=\"\(escape(check.id))\" tests=\"\(counts.tests)\" "
        + "failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" "
        + "skipped=\"\(counts.skipped)\" time=\"\(time(duration))\">\n"
      xml += "    <properties>\n"
      xml += property("summary", check.summary)
      if let versions = tally.info?.versions {
        xml += property("oracle", "libicu \(versions.oracle.icu) CLDR \(versions.oracle.cldr) tz \(versions.oracle.tz)")
        xml += property("subject", versions.summary)
      }
      xml += "    </properties>\n"
      for step in steps {
        xml += testcase(step, check: check.id, tally: tally)
      }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  static func property(_ name: String, _ value: String) -> String {
    "      <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n"
  }

  static func testcase(_ step: RunTally.Step, check: String, tally: RunTally) -> String {
    var xml = "    <testcase classname=\"conformance.\(escape(check))\" name=\"\(escape(step.name))\" "
      + "time=\"\(time(step.record.seconds))\""
    let verdict = StepVerdict(step.counts)
    if verdict == .passed { return xml + "/>\n" }
    xml += ">\n"
    switch verdict {
    case .error, .failure:
      let element = verdict == .error ? "error" : "failure"
      let wanted: Set<CaseStatus> = verdict == .error ? [.errored] : [.failed, .unexpectedPass]
      let relevant = step.examples.filter { wanted.contains($0.status) }
      let total = verdict == .error ? step.counts.errored
        : step.counts.failed + step.counts.unexpectedPass
      let first = relevant.first
      let message = "\(total) of \(step.counts.total) cases "
        + (first?.status == .unexpectedPass ? "passed against a waiver" : "\(verdict == .error ? "errored" : "failed")")
        + ": \(first?.outcome.pattern ?? "")"
      // The type is what a CI dashboard groups by: the triage of the step's first failure.
      let type = verdict == .error ? "error"
        : first?.status == .unexpectedPass ? "unexpected-pass"
        : first?.review.triage?.rawValue ?? "mismatch"
      xml += "      <\(element) message=\"\(escape(message))\" type=\"\(escape(type))\">"
      var body = ""
      for result in relevant.prefix(casesPerBody) {
        let outcome = result.outcome
        body += "\(result.id.coordinates)\n"
        if result.status == .unexpectedPass {
          body += "  passes, but waiver \(result.review.waiver ?? "?") says it fails\n"
        }
        body += "  expected: \(clip(outcome.expected.description))   [libicu]\n"
        if let second = result.review.triageExpected {
          body += "  expected: \(clip(second.description))   [Foundation's ICU]\n"
        }
        body += "  actual:   \(clip(outcome.actual.description))   [Foundation]\n"
        for line in outcome.detail.prefix(2) { body += "  \(clip(line))\n" }
        body += "  \(ExplainCommand.text(for: result.id))\n"
      }
      if total > relevant.prefix(casesPerBody).count {
        body += "… and \(total - relevant.prefix(casesPerBody).count) more in results.json\n"
      }
      xml += escape(body, attribute: false) + "</\(element)>\n"
    case .skipped:
      let waived = step.examples.first { $0.status == .waived }
      let reason = waived.map {
        "\(step.counts.waived) of \(step.counts.total) cases waived by \($0.review.waiver ?? "?")"
      } ?? step.record.skipReason ?? "skipped"
      xml += "      <skipped>\(escape(reason, attribute: false))</skipped>\n"
    case .passed:
      break
    }
    return xml + "    </testcase>\n"
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
  public static func escape(_ text: String, attribute: Bool = true) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&apos;"
      case "\t" where attribute: output += "&#9;"
      case "\n" where attribute: output += "&#10;"
      case "\r": output += "&#13;"
      case "\t", "\n": output.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        output += "\u{FFFD}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
