import Foundation

/// `index.html`: one self-contained page (no network) that a reviewer reads first: versions,
/// totals and coverage per check, and failures grouped by the shape of their difference.
public enum HTMLReport {
  /// Examples shown per failure cluster.
  static let examplesPerCluster = 3

  public static func document(_ tally: RunTally) -> String {
    guard let info = tally.info else { return "<!doctype html><title>conformance</title>" }
    let clusters = tally.clusters.sorted
    var html = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>Calendar conformance: \(tally.totals.failed) failed of \(tally.totals.total)</title>
      <style>\(style)</style>
      </head>
      <body>
      <header>
      <h1>Calendar conformance</h1>
      <p class="totals">\(totalsText(tally.totals))</p>
      <p>\(escape(ISO8601DateFormatter().string(from: info.started))) ·
      \(String(format: "%.1f", tally.elapsed)) s · subject: \(escape(info.subject)) ·
      <code>\(escape((["conformance"] + info.arguments).joined(separator: " ")))</code></p>
      </header>
      <main>
      """
    html += versionsSection(info.versions)
    html += checksSection(info: info, tally: tally)
    html += clustersSection(clusters)
    html += transitionsSection(info.transitionsByKind)
    html += corpusNotesSection(info)
    html += optionsSection(info.options)
    html += "</main>\n</body>\n</html>\n"
    return html
  }

  static func totalsText(_ totals: StatusCounts) -> String {
    "<span class=\"pass\">✔ \(totals.passed) passed</span> · "
      + "<span class=\"fail\">✘ \(totals.failed) failed</span> · "
      + "<span class=\"error\">⚠ \(totals.errored) errored</span> · "
      + "<span class=\"skip\">○ \(totals.skipped) skipped</span> · \(totals.total) cases"
  }

  static func versionsSection(_ versions: RunVersions) -> String {
    let subjectICU = versions.subjectICU
    return """
      <section><h2>Versions compared</h2>
      <table><thead><tr><th></th><th>subject (Foundation)</th><th>oracle (system libicu)</th></tr></thead>
      <tbody>
      <tr><th>ICU</th><td>\(escape(subjectICU?.icu ?? "not visible"))</td><td>\(escape(versions.oracle.icu))</td></tr>
      <tr><th>CLDR</th><td>\(escape(subjectICU?.cldr ?? "not visible"))</td><td>\(escape(versions.oracle.cldr))</td></tr>
      <tr><th>tz data</th><td>\(escape(versions.subjectTimeZoneData))</td><td>\(escape(versions.oracle.tz))</td></tr>
      <tr><th>code</th><td>Swift \(escape(versions.swift)) Foundation; pure-Swift gregorian and iso8601</td><td>ICU4C</td></tr>
      </tbody></table>
      \(versions.subjectICUProblem.map { "<p>Foundation's ICU: \(escape($0))</p>" } ?? "")
      </section>

      """
  }

  static func checksSection(info: RunInfo, tally: RunTally) -> String {
    var html = """
      <section><h2>Checks</h2>
      <table><thead><tr><th>check</th><th>what it compares</th><th>cases</th><th>cross product</th>
      <th>passed</th><th>failed</th><th>errored</th><th>skipped</th>
      <th>locales</th><th>calendars</th><th>first weekdays</th><th>zones</th><th>months</th><th>zone-months</th></tr></thead><tbody>

      """
    let coverage = Dictionary(info.coverage.map { ($0.check, $0) }, uniquingKeysWith: { a, _ in a })
    for check in info.checks {
      let counts = tally.checkCounts[check.id] ?? StatusCounts()
      let cover = coverage[check.id]
      html += "<tr><th><code>\(escape(check.id))</code></th><td>\(escape(check.summary))</td>"
        + "<td>\(counts.total)</td><td>\(cover?.crossProduct ?? 0)</td>"
        + "<td class=\"pass\">\(counts.passed)</td><td class=\"fail\">\(counts.failed)</td>"
        + "<td class=\"error\">\(counts.errored)</td><td class=\"skip\">\(counts.skipped)</td>"
        + "<td>\(cover?.locales ?? 0)</td><td>\(cover?.calendars ?? 0)</td>"
        + "<td>\(cover?.firstWeekdays ?? 0)</td><td>\(cover?.zones ?? 0)</td>"
        + "<td>\(cover?.months ?? 0)</td><td>\(cover?.zoneMonths ?? 0)</td></tr>\n"
    }
    return html + "</tbody></table></section>\n"
  }

  static func clustersSection(_ clusters: [FailureCluster]) -> String {
    guard !clusters.isEmpty else {
      return "<section><h2>Failures</h2><p class=\"pass\">✔ No failures.</p></section>\n"
    }
    var html = "<section><h2>Failures by pattern (\(clusters.count) patterns)</h2>\n"
    for cluster in clusters {
      let span = cluster.span.map { dimension in
        "\(dimension.count) \(escape(dimension.dimension))\(dimension.count == 1 ? "" : "s"): "
          + dimension.examples.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
          + (dimension.count > dimension.examples.count ? ", …" : "")
      }.joined(separator: "; ")
      let icon = cluster.status == .errored ? "⚠ errored" : "✘ failed"
      html += """
        <details><summary><span class="\(cluster.status == .errored ? "error" : "fail")">\(icon)</span>
        <code>\(escape(cluster.check))</code> · \(escape(cluster.pattern)) ·
        <strong>\(cluster.count)</strong> case\(cluster.count == 1 ? "" : "s")</summary>
        <p class="span">\(span)</p>

        """
      for example in cluster.examples.prefix(examplesPerCluster) {
        html += exampleHTML(example)
      }
      html += "</details>\n"
    }
    return html + "</section>\n"
  }

  static func exampleHTML(_ result: CaseResult) -> String {
    let outcome = result.outcome
    var html = "<div class=\"example\"><p class=\"coords\">\(escape(result.id.coordinates))</p>\n<dl>"
    html += "<dt>expected (libicu)</dt><dd><code>\(escape(CodePoints.annotate(outcome.expected.description)))</code></dd>"
    html += "<dt>actual (Foundation)</dt><dd><code>\(escape(CodePoints.annotate(outcome.actual.description)))</code></dd>"
    if let months = outcome.months {
      html += "<dt>month</dt><dd>libicu: \(escape(months.oracle)); Foundation: \(escape(months.subject))</dd>"
    }
    html += "</dl>\n<ul>" + outcome.detail.map { "<li>\(escape(CodePoints.annotate($0)))</li>" }
      .joined() + "</ul>\n"
    html += "<p><code class=\"cmd\">\(escape(ExplainCommand.text(for: result.id)))</code></p></div>\n"
    return html
  }

  static func transitionsSection(_ kinds: [String: Int]) -> String {
    guard !kinds.isEmpty else { return "" }
    let rows = kinds.sorted { $0.key < $1.key }
      .map { "<tr><th>\(escape($0.key))</th><td>\($0.value)</td></tr>" }.joined()
    return "<section><h2>Zone transitions swept, by kind</h2><table><tbody>\(rows)</tbody></table></section>\n"
  }

  static func corpusNotesSection(_ info: RunInfo) -> String {
    var html = ""
    if !info.invariantOnlyCalendars.isEmpty {
      html += "<section><h2>Invariant-only calendars</h2><p>libicu \(escape(info.versions.oracle.icu)) "
        + "has no model of these calendars, so only <code>calendar-invariants</code> checks them: "
        + info.invariantOnlyCalendars.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")
        + ".</p></section>\n"
    }
    if !info.aliases.isEmpty {
      html += "<section><h2>Zone aliases</h2><details><summary>\(info.aliases.count) aliases swept "
        + "as their canonical zone (same transitions in the window)</summary><p>"
        + info.aliases.map { "<code>\(escape($0.alias))</code> → <code>\(escape($0.canonical))</code>" }
          .joined(separator: ", ") + "</p></details></section>\n"
    }
    return html
  }

  static func optionsSection(_ options: [(String, String)]) -> String {
    let rows = options.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined()
    return "<section><h2>Options</h2><table><tbody>\(rows)</tbody></table></section>\n"
  }

  public static func escape(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.append(character)
      }
    }
    return output
  }

  static let style = """
    :root{--bg:#fff;--fg:#1b1b1f;--muted:#5b5b66;--line:#d9d9e0;--pass:#1a7f37;--fail:#c11f2e;--error:#9a6700;--skip:#57606a;--code:#f3f3f6}
    @media (prefers-color-scheme: dark){:root{--bg:#16161a;--fg:#e8e8ee;--muted:#a0a0ad;--line:#33333d;--pass:#4ac26b;--fail:#ff7b85;--error:#e3b341;--skip:#9198a1;--code:#22222a}}
    body{font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg);margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
    h1{margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}
    table{border-collapse:collapse;margin:.5rem 0;font-size:14px}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
    code{background:var(--code);padding:0 .25rem;border-radius:3px;font-size:13px;word-break:break-all}
    .pass{color:var(--pass)}.fail{color:var(--fail)}.error{color:var(--error)}.skip{color:var(--skip)}
    .totals{font-size:1.15rem;font-weight:600}details{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}
    summary{cursor:pointer}summary:focus-visible{outline:2px solid var(--fg)}.span{color:var(--muted)}
    .example{border-top:1px dashed var(--line);padding-top:.4rem}.coords{font-weight:600}dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem}dt{color:var(--muted)}dd{margin:0}
    """
}
