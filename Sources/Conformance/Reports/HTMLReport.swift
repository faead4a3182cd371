import Foundation

/// `index.html`: one self-contained page (no network) that a reviewer reads first.
///
/// The page embeds the run's data as compact JSON (versions, totals, coverage, the baseline
/// diff, failure clusters with a few examples each, pass-rate matrices) and renders it with a
/// small script, so its size does not grow with the number of cases: a nightly sweep's page
/// stays a few megabytes. Filters (check, calendar, locale, zone, status, triage) live in the
/// URL fragment, so a filtered view can be linked.
package enum HTMLReport {
  /// Examples embedded per cluster, values clipped to this many characters, span values kept.
  static let examplesPerCluster = 8
  static let valueLength = 500
  static let spanValues = 150
  /// Lists up to this many items a side are shown item by item.
  static let itemsPerList = 64

  package static func document(_ tally: RunTally, history: [NightSummary] = []) -> String {
    guard let info = tally.info else { return "<!doctype html><title>conformance</title>" }
    // No `<` at all inside the data block: neither `</script>` nor `<!--` in a subject's
    // text can change how the page is parsed (`<` only occurs inside JSON strings).
    let data = HTMLReportData.make(tally: tally, info: info, history: history).rendered(indent: nil)
      .replacingOccurrences(of: "<", with: "\\u003c")
    let totals = tally.totals
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(escape(NightCounts.title(tally)))</title>
      <style>\(style)</style>
      <link rel="stylesheet" href="\(styleFile)">
      </head>
      <body>
      <header><h1>Calendar conformance</h1>\(verdict(tally))<p id="totals" class="totals">\(escape(totalsText(totals)))</p>
      <p id="run"></p></header>
      <section id="static">\(staticSummary(tally))</section>
      <main id="app"></main>
      <script id="data" type="application/json">\(data)</script>
      <script>\(script)</script>
      </body>
      </html>

      """
  }

  /// What the page says without JavaScript, below the verdict (`verdict`): what changed, the
  /// new failures with an example each, the top patterns. (The script hides it once it has
  /// drawn the full page.)
  static func staticSummary(_ tally: RunTally) -> String {
    guard let review = tally.info?.review else { return "" }
    // The night's news first: a reviewer opens the page for it.
    var html = urgentGroups(tally) + "<h2>What changed</h2>\n"
    if let baseline = review.baseline {
      // Scrolls in its box on a phone, as the script's table does: wrapping a count or a
      // class name anywhere broke "20,494" into "20,49" and "4".
      let order = Baseline.Class.readingOrder
      let newClasses = NightCounts.newFailureClasses.map(\.0)
      html += "<p>Against \(escape(baseline.path)) (\(escape(baseline.started)))</p>\n<div class=\"scroll\"><table><tr><th></th>"
      html += order.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr><tr><th>cases</th>"
      html += order.map { "<td class=\"num\">\(CountText.number(tally.baselineCounts[$0] ?? 0))</td>" }.joined()
      html += "</tr><tr><th>new failures</th>" + order.map { kind in
        "<td class=\"num\">" + (newClasses.contains(kind) ? CountText.number(tally.newFailuresByClass[kind] ?? 0) : "") + "</td>"
      }.joined() + "</tr></table></div>\n"
      html += "<p class=\"legend\">" + order.map { "\($0.rawValue): \($0.meaning)" }
        .joined(separator: " · ") + ". " + escape(NightCounts.baselineLegend(tally)) + "</p>\n"
    } else {
      html += "<p>No baseline: every failure no waiver explains counts as new.</p>\n"
    }
    let all = tally.clusters.sorted
    let clusters = all.prefix(10)
    html += "<h2>Top failure patterns</h2>\n"
    html += clusters.isEmpty ? "<p>None.</p>\n"
      : "<p>\(CountText.number(clusters.count)) of \(CountText.counted(all.count, "group")) shown, the largest first.</p>\n"
        + "<table class=\"patterns\"><tr><th>cases</th><th>new</th><th>status</th><th>check</th><th>pattern</th>"
        + "<th>waiver</th></tr>\n"
        + clusters.map { cluster in
          // Ids in the cell (a reason is a paragraph: a table of them is a wall on a phone),
          // each linking to its reason below the table.
          let waivers = cluster.waivers.keys.sorted().map { id in
            "<a href=\"#waiver-\(escape(id))\"><code>\(escape(id))</code></a>"
          }.joined(separator: ", ")
          // Each cell names its column, for a phone's layout (page.css: a card per row).
          return "<tr><td class=\"num\" data-label=\"cases\">\(CountText.number(cluster.count))</td>"
            + "<td class=\"num\" data-label=\"new\">\(CountText.number(cluster.newCount))</td>"
            + "<td data-label=\"status\">\(cluster.status.rawValue)</td>"
            + "<td data-label=\"check\"><code>\(escape(cluster.check))</code></td>"
            + "<td data-label=\"pattern\">\(escape(cluster.pattern))</td>"
            + "<td data-label=\"waiver\">\(waivers.isEmpty ? "none" : waivers)</td></tr>\n"
        }.joined() + "</table>\n"
    var listed: [String] = []
    for id in clusters.flatMap({ $0.waivers.keys.sorted() }) where !listed.contains(id) { listed.append(id) }
    if !listed.isEmpty {
      html += "<p>Their waivers' reasons:</p>\n<dl>" + listed.map { id in
        "<dt id=\"waiver-\(escape(id))\"><code>\(escape(id))</code></dt><dd>"
          + escape(review.waiver(id)?.explanation ?? "(no longer in the waivers file)") + "</dd>"
      }.joined() + "</dl>\n"
    }
    if let contradicted = review.contradicted, !contradicted.isEmpty {
      html += "<h2>Contradicted waivers</h2>\n<ul>" + contradicted.map {
        "<li><code>\(escape($0.id))</code>: \(escape($0.why))</li>"
      }.joined() + "</ul>\n"
    }
    if let outOfScope = review.outOfScope, !outOfScope.isEmpty {
      html += "<h2>New failures outside a waiver's scope</h2>\n<ul>" + outOfScope.map {
        "<li><code>\(escape($0.id))</code>: \(escape($0.why))</li>"
      }.joined() + "</ul>\n"
    }
    if tally.totals.notRun > 0 {
      let trips = tally.info?.isolation?.trips.count ?? 0
      html += "<p>The breaker did not run \(CountText.counted(tally.totals.notRun, "case"))"
        + (trips > 0 ? " (\(CountText.counted(trips, "group")) tripped)" : "")
        + ": each is counted as not run, with the fault that stopped its group as its pattern.</p>\n"
    }
    html += statusGroups(tally)
    html += "<p class=\"muted\">The rest of this page (filters, examples, pictures) needs JavaScript; "
      + "results.json and cases.jsonl.gz hold the same data.</p>"
    return html
  }

  /// The banner first on the page, with or without JavaScript: the exit line, coloured by
  /// it, and the counts a night is judged by, each linking to its groups (the page's filters
  /// read the fragment).
  static func verdict(_ tally: RunTally) -> String {
    let totals = tally.totals
    let rule = FailOn(rawValue: tally.info?.review.failOn ?? "") ?? .unexpected
    let (fires, exit) = rule.verdict(totals, newFailures: tally.newFailures)
    func linked(_ text: String, _ fragment: String, _ count: Int) -> String {
      count == 0 ? escape(text) : "<a href=\"#\(fragment)\">\(escape(text))</a>"
    }
    var parts = [linked(CountText.counted(tally.newFailures, "new failure"), "new=1", tally.newFailures)
      + (NightCounts.newFailureSplit(tally).map { " (\(escape($0)))" } ?? "")]
    if tally.info?.review.baseline != nil {
      parts.append(CountText.number(tally.baselineCounts[.fixed] ?? 0) + " fixed")
    }
    parts.append(linked("\(CountText.number(totals.errored)) errored", "status=errored", totals.errored))
    if totals.notRun > 0 {
      parts.append(linked("\(CountText.number(totals.notRun)) not run (the breaker)", "status=not-run", totals.notRun))
    }
    parts.append(linked(CountText.counted(totals.unexpectedPass, "unexpected pass", plural: "unexpected passes"),
                        "status=unexpected-pass", totals.unexpectedPass))
    if totals.oracleStale > 0 {
      parts.append(linked("\(CountText.number(totals.oracleStale)) oracle-stale (libicu's data older, not failures)",
                          "status=oracle-stale", totals.oracleStale))
    }
    let incomplete = tally.info?.incomplete.map { "<strong>\(escape($0.sentence))</strong><br>" } ?? ""
    return "<div id=\"verdict\" class=\"verdict \(fires || !incomplete.isEmpty ? "bad" : "good")\">"
      + incomplete + "<strong>\(escape(exit))</strong><br>\(parts.joined(separator: " · "))</div>"
  }

  /// Groups shown one by one without JavaScript, each with an example.
  static let urgentShown = 20

  /// Without JavaScript (or under a policy that forbids inline script, as Jenkins serves
  /// artifacts): every group with new failures or unexpected passes, before the top groups,
  /// each with its first new case's values and explain command, so the night's news is never
  /// below ten waived groups.
  static func urgentGroups(_ tally: RunTally) -> String {
    let urgent = tally.clusters.byUrgency.filter { $0.newCount > 0 || $0.status == .unexpectedPass }
    guard !urgent.isEmpty else { return "" }
    let explain = tally.info?.explainCommand ?? ExplainCommand()
    let subject = tally.info?.versions.subjectSide ?? "subject"
    // The banner's "new failure" link lands here (`#new=1`, the script's filter too).
    var html = "<h2 id=\"new=1\">New failures and unexpected passes</h2>\n"
    if urgent.count > urgentShown {
      html += "<p>\(CountText.number(urgentShown)) of \(CountText.counted(urgent.count, "group")) shown.</p>\n"
    }
    func value(_ value: Value) -> String {
      let text = CodePoints.annotate(value.description)
      return escape(text.count <= valueLength ? text : String(text.prefix(valueLength)) + " …")
    }
    for cluster in urgent.prefix(urgentShown) {
      let news = cluster.status == .unexpectedPass ? CountText.counted(cluster.count, "unexpected pass", plural: "unexpected passes")
        : CountText.counted(cluster.newCount, "new failure")
      html += "<div class=\"urgent\"><h3>\(news) · \(cluster.status.rawValue) · <code>\(escape(cluster.check))</code>: "
        + "\(escape(cluster.pattern.isEmpty ? "(no pattern)" : cluster.pattern))</h3>\n"
      guard let example = cluster.examples.first(where: \.isNewFailure) ?? cluster.examples.first else {
        html += "</div>\n"
        continue
      }
      html += "<p>e.g. <code>\(escape(example.id.description))</code></p>\n<ul>"
      // An errored case has no answer, only what it should have answered, and its detail.
      if example.outcome.verdict != .errored || example.outcome.expected != .null {
        html += "<li>expected: <code>\(value(example.outcome.expected))</code> [libicu]</li>"
      }
      if example.outcome.verdict == .errored {
        html += example.outcome.detail.prefix(3).map { "<li>\(escape(CodePoints.annotate($0)))</li>" }.joined()
      } else {
        html += "<li>actual: <code>\(value(example.outcome.actual))</code> [\(escape(subject))]</li>"
      }
      // Breaks at the case id's separators on a phone, copies as it is.
      let command = escape(explain.text(for: example.id)).replacingOccurrences(of: "|", with: "|<wbr>")
      html += "</ul>\n<p>explain: <code>\(command)</code></p></div>\n"
    }
    return html
  }

  /// Where the banner's status links land without JavaScript (`#status=errored`, …, the
  /// script's filters too): each such status's groups, the largest first.
  static func statusGroups(_ tally: RunTally) -> String {
    let totals = tally.totals
    var html = ""
    for (status, count) in [(CaseStatus.errored, totals.errored), (.notRun, totals.notRun),
                            (.unexpectedPass, totals.unexpectedPass), (.oracleStale, totals.oracleStale)] where count > 0 {
      let groups = tally.clusters.sorted.filter { $0.status == status }
      html += "<h3 id=\"status=\(status.rawValue)\">\(status.rawValue): \(CountText.counted(count, "case")) in "
        + "\(CountText.counted(groups.count, "group"))</h3>\n<ul>" + groups.prefix(5).map { cluster in
          "<li>\(CountText.number(cluster.count)) · <code>\(escape(cluster.check))</code>: "
            + "\(escape(cluster.pattern.isEmpty ? "(no pattern)" : cluster.pattern))</li>"
        }.joined() + (groups.count > 5 ? "<li>… \(CountText.counted(groups.count - 5, "more group"))</li>" : "") + "</ul>\n"
    }
    return html.isEmpty ? "" : "<h2>By status</h2>\n" + html
  }

  /// The totals line, also present before the script runs.
  static func totalsText(_ totals: StatusCounts) -> String {
    "\(CountText.number(totals.total)) cases: ✔ \(CountText.number(totals.passed)) passed · ✘ \(CountText.number(totals.failed)) failed · "
      + "⚠ \(CountText.number(totals.errored)) errored · "
      + (totals.notRun > 0 ? "⊘ \(CountText.number(totals.notRun)) not run · " : "") + "◐ \(CountText.number(totals.waived)) waived · "
      + "◑ \(CountText.number(totals.oracleStale)) oracle-stale · "
      + "! \(CountText.number(totals.unexpectedPass)) unexpected passes · ○ \(CountText.number(totals.skipped)) skipped"
  }

  package static func escape(_ text: String) -> String {
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

  /// The page's style sheet, `Page/page.css`, embedded like the script.
  static let style = asset(PackageResources.page_css)

  /// An embedded text file without its final newline (a file ends with one; the page's
  /// `<style>` and `<script>` hold the text alone, as they did when it was a string here).
  static func asset(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...], as: UTF8.self)
  }

  /// The page's script, `Page/page.js` embedded at build time (SwiftPM `embedInCode`): a
  /// JavaScript file that CI checks with node, inlined so the page stays one offline file.
  static let script = asset(PackageResources.page_js)

  /// The style sheet's own file beside `index.html`, which the page also links: a server
  /// whose policy forbids inline style (Jenkins' archived artifacts allow `style-src 'self'`)
  /// still lays the page out for a phone.
  package static let styleFile = "page.css"
  package static let styleSheet = style
}
