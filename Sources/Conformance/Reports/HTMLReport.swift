import Foundation

/// `index.html`: one self-contained page (no network) that a reviewer reads first.
///
/// The page embeds the run's data as compact JSON (versions, totals, coverage, the baseline
/// diff, failure clusters with a few examples each, pass-rate matrices) and renders it with a
/// small script, so its size does not grow with the number of cases: a nightly sweep's page
/// stays a few megabytes. Filters (check, calendar, locale, zone, status, triage) live in the
/// URL fragment, so a filtered view can be linked.
public enum HTMLReport {
  /// Examples embedded per cluster, values clipped to this many characters, span values kept.
  static let examplesPerCluster = 8
  static let valueLength = 500
  static let spanValues = 150
  /// Lists up to this many items a side are shown item by item.
  static let itemsPerList = 64

  public static func document(_ tally: RunTally, history: [NightSummary] = []) -> String {
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
      <title>\(escape(title(tally)))</title>
      <style>\(style)</style>
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
    var html = "<h2>What changed</h2>\n"
    if let baseline = review.baseline {
      html += "<p>Against \(escape(baseline.path)) (\(escape(baseline.started)))</p>\n<table><tr>"
      html += Baseline.Class.allCases.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr><tr>"
      html += Baseline.Class.allCases.map { "<td class=\"num\">\(number(tally.baselineCounts[$0] ?? 0))</td>" }
        .joined() + "</tr></table>\n"
      html += "<p class=\"legend\">" + Baseline.Class.allCases.map { "\($0.rawValue): \($0.meaning)" }
        .joined(separator: " · ") + ". A new failure counts for --fail-on new and unexpected unless a "
        + "waiver whose scope lists it explains it.</p>\n"
    } else {
      html += "<p>No baseline: every failure no waiver explains counts as new.</p>\n"
    }
    html += urgentGroups(tally)
    let all = tally.clusters.sorted
    let clusters = all.prefix(10)
    html += "<h2>Top failure patterns</h2>\n"
    html += clusters.isEmpty ? "<p>None.</p>\n"
      : "<p>\(number(clusters.count)) of \(counted(all.count, "group")) shown, the largest first.</p>\n"
        + "<table><tr><th>cases</th><th>new</th><th>status</th><th>check</th><th>pattern</th><th>waiver</th></tr>\n"
        + clusters.map { cluster in
          let waivers = cluster.waivers.keys.sorted().map { id in
            let reason = review.waiver(id)?.explanation ?? ""
            return escape(id) + (reason.isEmpty ? "" : ": " + escape(reason))
          }.joined(separator: "; ")
          return "<tr><td class=\"num\">\(number(cluster.count))</td><td class=\"num\">\(number(cluster.newCount))</td>"
            + "<td>\(cluster.status.rawValue)</td>"
            + "<td><code>\(escape(cluster.check))</code></td><td>\(escape(cluster.pattern))</td><td>\(waivers)</td></tr>\n"
        }.joined() + "</table>\n"
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
    if let isolation = tally.info?.isolation, isolation.notRun > 0 {
      html += "<p>The breaker did not run \(counted(isolation.notRun, "case")) (\(counted(isolation.trips.count, "group")) "
        + "tripped): each is counted as errored (or waived), its detail starting “not run”.</p>\n"
    }
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
    let exit = rule.exitLine(totals, newFailures: tally.newFailures)
    let fires = rule.reason(totals, newFailures: tally.newFailures) != nil
    let notRun = tally.info?.isolation?.notRun ?? 0
    func linked(_ text: String, _ fragment: String, _ count: Int) -> String {
      count == 0 ? escape(text) : "<a href=\"#\(fragment)\">\(escape(text))</a>"
    }
    var parts = [linked(counted(tally.newFailures, "new failure"), "new=1", tally.newFailures)]
    if tally.info?.review.baseline != nil {
      parts.append(number(tally.baselineCounts[.fixed] ?? 0) + " fixed")
    }
    parts.append(linked("\(number(totals.errored)) errored", "status=errored", totals.errored)
      + (notRun > 0 ? " (\(number(notRun)) of them not run)" : ""))
    parts.append(linked(counted(totals.unexpectedPass, "unexpected pass", plural: "unexpected passes"),
                        "status=unexpected-pass", totals.unexpectedPass))
    return "<div id=\"verdict\" class=\"verdict \(fires ? "bad" : "good")\">"
      + "<strong>\(escape(exit))</strong><br>\(parts.joined(separator: " · "))</div>"
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
    var html = "<h2>New failures and unexpected passes</h2>\n"
    if urgent.count > urgentShown {
      html += "<p>\(number(urgentShown)) of \(counted(urgent.count, "group")) shown.</p>\n"
    }
    func value(_ value: Value) -> String {
      let text = CodePoints.annotate(value.description)
      return escape(text.count <= valueLength ? text : String(text.prefix(valueLength)) + " …")
    }
    for cluster in urgent.prefix(urgentShown) {
      let news = cluster.status == .unexpectedPass ? counted(cluster.count, "unexpected pass", plural: "unexpected passes")
        : counted(cluster.newCount, "new failure")
      html += "<div class=\"urgent\"><h3>\(news) · \(cluster.status.rawValue) · <code>\(escape(cluster.check))</code>: "
        + "\(escape(cluster.pattern.isEmpty ? "(no pattern)" : cluster.pattern))</h3>\n"
      guard let example = cluster.examples.first(where: \.isNewFailure) ?? cluster.examples.first else {
        html += "</div>\n"
        continue
      }
      html += "<p>e.g. <code>\(escape(example.id.description))</code></p>\n<ul>"
      if example.outcome.verdict == .errored {
        html += example.outcome.detail.prefix(3).map { "<li>\(escape(CodePoints.annotate($0)))</li>" }.joined()
      } else {
        html += "<li>expected: <code>\(value(example.outcome.expected))</code> [libicu]</li>"
          + "<li>actual: <code>\(value(example.outcome.actual))</code> [\(escape(subject))]</li>"
      }
      // Breaks at the case id's separators on a phone, copies as it is.
      let command = escape(explain.text(for: example.id)).replacingOccurrences(of: "|", with: "|<wbr>")
      html += "</ul>\n<p>explain: <code>\(command)</code></p></div>\n"
    }
    return html
  }

  /// The tab's title: the verdict's counts, with separators.
  static func title(_ tally: RunTally) -> String {
    let totals = tally.totals
    let notRun = tally.info?.isolation?.notRun ?? 0
    return "Calendar conformance: \(counted(tally.newFailures, "new failure")), "
      + "\(number(totals.errored)) errored" + (notRun > 0 ? " (\(number(notRun)) not run)" : "")
      + ", \(number(totals.failed)) failed, \(number(totals.waived)) waived of \(number(totals.total))"
  }

  /// An integer with thousands separators (1,234,567), as the page writes numbers.
  static func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }

  /// A count and its noun, plural unless it is one: "1 group", "17,000 groups".
  static func counted(_ value: Int, _ noun: String, plural: String? = nil) -> String {
    number(value) + " " + (value == 1 ? noun : plural ?? noun + "s")
  }

  /// The totals line, also present before the script runs.
  static func totalsText(_ totals: StatusCounts) -> String {
    "\(number(totals.total)) cases: ✔ \(number(totals.passed)) passed · ✘ \(number(totals.failed)) failed · "
      + "⚠ \(number(totals.errored)) errored · ◐ \(number(totals.waived)) waived · "
      + "! \(number(totals.unexpectedPass)) unexpected passes · ○ \(number(totals.skipped)) skipped"
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
    :root{--bg:#fff;--fg:#1b1b1f;--muted:#5b5b66;--line:#d9d9e0;--pass:#1a7f37;--fail:#c11f2e;--error:#9a6700;--skip:#57606a;--waive:#6639ba;--code:#f3f3f6;--focus:#0969da}
    @media (prefers-color-scheme: dark){:root{--bg:#16161a;--fg:#e8e8ee;--muted:#a0a0ad;--line:#33333d;--pass:#4ac26b;--fail:#ff7b85;--error:#e3b341;--skip:#9198a1;--waive:#c297ff;--code:#22222a;--focus:#58a6ff}}
    body{font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg);margin:0 auto;max-width:1280px;padding:1rem 1.5rem}
    h1{margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:1.8rem}
    table{border-collapse:collapse;margin:.5rem 0;font-size:13px}th,td{border:1px solid var(--line);padding:.2rem .45rem;text-align:left;vertical-align:top}
    td.num{text-align:right;font-variant-numeric:tabular-nums}td:first-child code{white-space:nowrap;word-break:normal}
    code{background:var(--code);padding:0 .25rem;border-radius:3px;font-size:12.5px;word-break:break-all}
    .passed{color:var(--pass)}.failed,.unexpected-pass{color:var(--fail)}.errored{color:var(--error)}.skipped{color:var(--skip)}.waived{color:var(--waive)}
    .totals{font-size:1.1rem;font-weight:600}.muted{color:var(--muted)}
    details{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.35rem .7rem}
    summary{cursor:pointer}:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
    .badge{border:1px solid var(--line);border-radius:9px;padding:0 .4rem;font-size:12px;margin-left:.3rem;white-space:nowrap}
    .example li{overflow-wrap:anywhere}#isolation td:first-child code{white-space:normal}
    .example{border-top:1px dashed var(--line);padding-top:.35rem;margin-top:.35rem}
    .example dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.2rem 0}.example dt{color:var(--muted)}.example dd{margin:0}
    @media (max-width:600px){.example dl{grid-template-columns:1fr}.example dd{margin-bottom:.25rem}}
    .filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin:.6rem 0}.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
    select,button{font:inherit;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px;padding:.15rem .3rem}
    .rate{display:inline-block;min-width:3.2em;font-variant-numeric:tabular-nums}
    code.command{word-break:normal;overflow-wrap:anywhere}
    #static code{white-space:nowrap;word-break:normal}#static .urgent code{white-space:normal;overflow-wrap:anywhere;word-break:normal}
    .verdict{border-left:6px solid var(--line);padding:.35rem .8rem;margin:.4rem 0;font-size:1.05rem}
    .verdict.bad{border-color:var(--fail);background:#c11f2e18}.verdict.good{border-color:var(--pass);background:#1a7f3718}
    .scroll{max-width:100%;overflow-x:auto}.scroll table{margin:0}
    mark{background:#ffd33d66;color:inherit;border-radius:2px;outline:1px solid #d4a72c}
    .badge.new{color:var(--fail);border-color:var(--fail)}.warning{border-left:4px solid var(--error);padding-left:.5rem}
    .waiver{margin:.3rem 0}.legend{font-size:13px}
    .multiples{display:flex;flex-wrap:wrap;gap:.8rem 1.4rem}.multiples figure{margin:0}.multiples figcaption{font-size:12px}
    svg text.label{font:10px system-ui,sans-serif;fill:var(--muted)}
    label.check{flex-direction:row;align-items:center;gap:.3rem;font-size:14px;color:var(--fg)}
    """

  static let script = #"""
    "use strict";
    // Headless checks read these: rendering finished, or the first uncaught error.
    window.addEventListener("error", e => { document.documentElement.dataset.error = String(e.message); });
    const D = JSON.parse(document.getElementById("data").textContent);
    const app = document.getElementById("app");
    const ICON = {"passed": "✔", "failed": "✘", "errored": "⚠", "waived": "◐", "unexpected-pass": "!", "skipped": "○"};
    const FILTERS = ["check", "calendar", "locale", "zone", "status", "triage", "new"];
    const DIMENSIONS = ["calendar", "locale", "zone"];
    const fmt = n => Number(n).toLocaleString("en-US");
    function el(tag, attrs, ...children) {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (k === "class") node.className = v; else node.setAttribute(k, v);
      }
      // Any depth: a row of [dt, dd] pairs is a list of lists.
      for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
      return node;
    }
    function svg(tag, attrs, ...children) {
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
      for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined) continue;
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
      return node;
    }
    function status(s) { return el("span", {class: s}, (ICON[s] || "") + " " + s); }
    function section(title, ...children) { return el("section", {}, el("h2", {}, title), ...children); }
    function table(head, rows) {
      return el("div", {class: "scroll"}, el("table", {}, el("thead", {}, el("tr", {}, head.map(h => el("th", {}, h)))),
        el("tbody", {}, rows.map(r => el("tr", {}, r.map(c => c instanceof Node ? el("td", {}, c) :
          el("td", typeof c === "number" ? {class: "num"} : {}, typeof c === "number" ? fmt(c) : String(c))))))));
    }
    // A command that wraps at its separators (after "|", ",", "=" of a case id, and at spaces),
    // never inside a word; <wbr> leaves what a reader copies as it is.
    function command(text) {
      const code = el("code", {class: "command"});
      text.split(/(?<=[|,=])/).forEach((part, i) => { if (i) code.append(el("wbr", {})); code.append(part); });
      return code;
    }
    function link(text) {
      return /^https?:\/\//.test(text) ? el("a", {href: text}, text) : el("code", {}, text);
    }
    function readFilters() {
      const state = {};
      for (const part of location.hash.slice(1).split("&")) {
        const [k, v] = part.split("=");
        if (FILTERS.includes(k) && v) state[k] = decodeURIComponent(v);
      }
      return state;
    }
    function writeFilters(state) {
      const parts = FILTERS.filter(k => state[k]).map(k => k + "=" + encodeURIComponent(state[k]));
      history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
      renderClusters();
    }
    // Every value a fragment can name: the run's checks and statuses, every triage class and
    // dimension value of a failure.
    const VALUES = {check: new Set(D.checks.map(c => c.id)),
                    status: new Set(["failed", "errored", "waived", "unexpected-pass"]),
                    triage: new Set(["none"]), calendar: new Set(), locale: new Set(), zone: new Set()};
    for (const c of D.clusters) {
      VALUES.triage.add(c.triage || "none");
      for (const key of DIMENSIONS) {
        Object.keys(c.byValue[key] || {}).forEach(v => VALUES[key].add(v));
      }
    }
    // A cluster's cases under the filters: exact for one dimension filter, else an upper
    // bound (also for a value past the first ones a group lists counts for).
    function filteredCount(c, state) {
      let count = state.new ? c.new : c.count;
      const dims = DIMENSIONS.filter(k => state[k]);
      let exact = dims.length === 0 || (dims.length === 1 && !state.new);
      for (const key of dims) {
        const counts = c.byValue[key] || {}, span = c.span.find(s => s[0] === key);
        if (state[key] in counts) count = Math.min(count, counts[state[key]]);
        else if (span && span[1] > Object.keys(counts).length) exact = false;
        else count = 0;
      }
      return {count, exact};
    }
    function clusterMatches(c, state) {
      if (state.check && c.check !== state.check) return false;
      if (state.status && c.status !== state.status) return false;
      if (state.triage && (c.triage || "none") !== state.triage) return false;
      return filteredCount(c, state).count > 0;
    }
    function exampleMatches(e, state) {
      if (state.new && !e.new) return false;
      return DIMENSIONS.every(key => !state[key] || e.dims[key] === state[key]);
    }
    // Text with the differing middle marked: what remains after the common prefix and suffix.
    function marked(text, other) {
      if (text === other) return [text];
      let start = 0;
      while (start < text.length && start < other.length && text[start] === other[start]) start++;
      let end = 0;
      while (end < text.length - start && end < other.length - start &&
             text[text.length - 1 - end] === other[other.length - 1 - end]) end++;
      return [text.slice(0, start), el("mark", {}, text.slice(start, text.length - end)), text.slice(text.length - end)];
    }
    function markedItems(items, other) {
      const parts = ["["];
      items.forEach((item, i) => {
        if (i) parts.push(", ");
        parts.push(item === other[i] ? item : el("mark", {}, item));
      });
      parts.push("]");
      return parts;
    }
    function renderExample(e) {
      const values = e.expectedItems
        ? [markedItems(e.expectedItems, e.actualItems), markedItems(e.actualItems, e.expectedItems)]
        : [marked(e.expected, e.actual), marked(e.actual, e.expected)];
      // A case that errored has no values; its detail below says what happened.
      const rows = e.status === "errored" ? [] : [["expected (libicu)", el("code", {}, values[0])]];
      if (e.expectedF !== undefined) rows.push(["expected (Foundation's ICU)", el("code", {}, e.expectedF)]);
      if (e.status !== "errored") rows.push(["actual (" + D.subjectSide + ")", el("code", {}, values[1])]);
      if (e.months) rows.push(["month", e.months]);
      if (e.baseline) rows.push(["baseline", e.baseline]);
      if (e.waiver) rows.push(["waiver", [el("code", {}, e.waiver), " ", (D.waivers[e.waiver] || {}).reason || ""]]);
      return el("div", {class: "example"},
        el("div", {}, el("strong", {}, Object.entries(e.dims).map(([k, v]) => k + ": " + v).join(" › "))),
        el("dl", {}, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
        el("ul", {}, e.detail.map(line => el("li", {}, line))),
        command(e.explain));
    }
    function renderCluster(c, state) {
      const {count, exact} = filteredCount(c, state);
      const span = c.span.map(s => fmt(s[1]) + " " + s[0] + (s[1] === 1 ? "" : "s") + ": " +
        s[2].slice(0, 6).join(", ") + (s[1] > 6 ? ", …" : "")).join("; ");
      const summary = el("summary", {}, status(c.status), " ", el("code", {}, c.check),
        c.triage ? el("span", {class: "badge"}, c.triage) : null, " ",
        c.status === "unexpected-pass" ? "passes, though a waiver says it fails" : c.pattern || "(no pattern)",
        " · ", el("strong", {class: "count"}, (exact ? "" : "up to ") + fmt(count)),
        count === c.count ? "" : " of " + fmt(c.count), c.count === 1 ? " case" : " cases",
        c.new ? el("span", {class: "badge new"}, fmt(c.new) + " new") : null,
        // Of the whole group: only where it is the fault's one group and shows all its cases.
        c.notRun && c.notRun[0] && c.notRun[2] && count === c.count
          ? el("span", {class: "badge"}, fmt(c.notRun[0]) + " not run") : null);
      const parts = [summary];
      if (c.notRun && c.notRun[0]) parts.push(el("p", {class: "breaker"}, "The breaker did not run " +
        fmt(c.notRun[0]) + " of this check's cases with this fault (" + fmt(c.notRun[1]) +
        (c.notRun[1] === 1 ? " group" : " groups") + " tripped; see Isolation): each is counted as " +
        "errored (or waived), its detail starting “not run”" +
        (c.notRun[2] ? "; the other " + fmt(c.count - c.notRun[0]) + " ran and faulted." : ".")));
      for (const [id, n] of c.waivers) {
        const w = D.waivers[id] || {};
        parts.push(el("p", {class: "waiver"}, "Waived by ", el("code", {}, id), " (" + fmt(n) + "): ",
          w.reason || "(no reason given)", w.link ? [" — ", link(w.link)] : null));
      }
      parts.push(el("p", {class: "muted"}, span));
      const details = el("details", {}, parts);
      details.addEventListener("toggle", () => {
        if (!details.open || details.dataset.filled) return;
        details.dataset.filled = "1";
        const shown = c.examples.filter(e => exampleMatches(e, state));
        for (const e of shown) details.append(renderExample(e));
        if (shown.length < count) details.append(el("p", {class: "muted"},
          fmt(count - shown.length) + " more in cases.jsonl.gz; " + shown.length + " shown, chosen to differ"));
      });
      return details;
    }
    let clusterBox;
    function renderClusters() {
      const state = readFilters();
      const notes = [];
      for (const key of FILTERS) {
        const control = document.getElementById("filter-" + key);
        if (!control) continue;
        if (key === "new") { control.checked = !!state.new; continue; }
        if (state[key] && !VALUES[key].has(state[key])) {
          control.append(el("option", {value: state[key]}, state[key]));
          notes.push(el("p", {class: "warning", role: "status"},
            "No failure of this run has " + key + " = " + state[key] + "."));
        }
        control.value = state[key] || "";
      }
      const clusters = D.clusters.filter(c => clusterMatches(c, state));
      const counts = clusters.map(c => filteredCount(c, state));
      const total = counts.reduce((n, c) => n + c.count, 0);
      clusterBox.replaceChildren(...notes,
        el("p", {class: "muted", id: "cluster-count"}, fmt(clusters.length) + " of " + fmt(D.clusters.length) +
          " patterns, " + (counts.every(c => c.exact) ? "" : "up to ") + fmt(total) + " cases"),
        ...clusters.map(c => renderCluster(c, state)));
    }
    function filterBar() {
      const bar = el("div", {class: "filters", role: "search"});
      for (const key of FILTERS.filter(k => k !== "new")) {
        const select = el("select", {id: "filter-" + key},
          el("option", {value: ""}, "all"), [...VALUES[key]].sort().map(v => el("option", {value: v}, v)));
        select.addEventListener("change", () => {
          const state = readFilters();
          state[key] = select.value;
          writeFilters(state);
        });
        bar.append(el("label", {for: "filter-" + key}, key, select));
      }
      const newOnly = el("input", {type: "checkbox", id: "filter-new"});
      newOnly.addEventListener("change", () => {
        const state = readFilters();
        state.new = newOnly.checked ? "1" : "";
        writeFilters(state);
      });
      bar.append(el("label", {for: "filter-new", class: "check"}, newOnly, "new only"));
      const reset = el("button", {type: "button"}, "clear filters");
      reset.addEventListener("click", () => writeFilters({}));
      bar.append(reset);
      return bar;
    }
    function matrix(title, key) {
      const values = new Set();
      for (const check of Object.keys(D.matrices)) Object.keys(D.matrices[check][key] || {}).forEach(v => values.add(v));
      if (!values.size) return null;
      const columns = [...values].sort();
      const rows = Object.keys(D.matrices).filter(c => D.matrices[c][key]).map(check => [el("code", {}, check),
        ...columns.map(v => {
          const cell = D.matrices[check][key][v];
          if (!cell) return "";
          const rate = cell[1] ? Math.floor(1000 * cell[0] / cell[1]) / 10 : 100;
          return el("span", {class: "rate", title: fmt(cell[0]) + " of " + fmt(cell[1]) + " passed"}, rate + "%");
        })]);
      return el("div", {}, el("h3", {}, title), table(["check", ...columns], rows));
    }
    // Pass rate on a neutral scale (lighter is better); red only where --fail-on counts a case.
    function shade(cell) {
      const [passed, total, counted] = cell;
      if (!total) return "var(--line)";
      if (counted) return "var(--fail)";
      const rate = passed / total;
      return "hsl(215 25% " + Math.round(35 + 55 * rate) + "%)";
    }
    function heatMap(check, calendars) {
      const rows = Object.keys(calendars).sort();
      const columns = [...new Set(rows.flatMap(r => Object.keys(calendars[r])))].sort();
      const size = 16, left = 150, top = 110;
      const width = left + columns.length * size + 90, height = top + rows.length * size + 4;
      const grid = svg("svg", {width, height, viewBox: "0 0 " + width + " " + height, role: "img",
        "aria-label": check + ": pass rate by calendar and zone class"});
      columns.forEach((column, x) => grid.append(svg("text", {x: left + x * size + size / 2, y: top - 4,
        transform: "rotate(-60 " + (left + x * size + size / 2) + " " + (top - 4) + ")", class: "label"}, column)));
      rows.forEach((row, y) => {
        grid.append(svg("text", {x: left - 4, y: top + y * size + size - 4, "text-anchor": "end", class: "label"}, row));
        columns.forEach((column, x) => {
          const cell = calendars[row][column];
          if (!cell) return;
          grid.append(svg("rect", {x: left + x * size, y: top + y * size, width: size - 1, height: size - 1,
            fill: shade(cell)}, svg("title", {}, row + " × " + column + ": " + fmt(cell[0]) + " of " +
            fmt(cell[1]) + " passed" + (cell[2] ? "; " + fmt(cell[2]) + " counted by --fail-on " + D.review.failOn : ""))));
        });
      });
      return el("figure", {}, grid, el("figcaption", {}, el("code", {}, check)));
    }
    function trend() {
      const nights = D.trend.filter(n => n.checks);
      if (nights.length < 2) {
        return el("p", {class: "muted", id: "trend-note"}, "A trend needs two nights with a baseline: pass --history DIR " +
          "with earlier nights' results directories (" + nights.length + " so far).");
      }
      const checks = [...new Set(nights.flatMap(n => Object.keys(n.checks)))].sort()
        .filter(c => nights.some(n => (n.checks[c] || [0, 0, 0]).some(v => v > 0)));
      const box = el("div", {class: "multiples", id: "trend"});
      const colors = ["var(--fail)", "var(--pass)", "var(--skip)"];
      for (const check of checks) {
        const series = nights.map(n => n.checks[check] || [0, 0, 0]);
        const max = Math.max(1, ...series.map(s => s[0] + s[1] + s[2]));
        const bar = 14, height = 80, width = series.length * (bar + 4) + 4;
        const chart = svg("svg", {width, height: height + 4, role: "img",
          "aria-label": check + ": new, fixed and still failing per night"});
        series.forEach((s, i) => {
          let y = height;
          s.forEach((value, k) => {
            if (!value) return;
            const h = Math.max(1, Math.round(height * value / max));
            y -= h;
            chart.append(svg("rect", {x: 4 + i * (bar + 4), y, width: bar, height: h, fill: colors[k]},
              svg("title", {}, nights[i].started + ": " + fmt(value) + " " + ["new or changed", "fixed", "still failing"][k])));
          });
        });
        box.append(el("figure", {}, chart, el("figcaption", {}, el("code", {}, check), " · last night: " +
          fmt(series.at(-1)[0]) + " new, " + fmt(series.at(-1)[1]) + " fixed, " + fmt(series.at(-1)[2]) + " still failing")));
      }
      return el("div", {}, el("p", {class: "legend"}, el("span", {class: "failed"}, "■ new or changed"), " ",
        el("span", {class: "passed"}, "■ fixed"), " ", el("span", {class: "skipped"}, "■ still failing"),
        " — " + nights.length + " nights, oldest first"), box);
    }
    // Each case ran in a worker process: the limits it ran under and what the breaker
    // stopped, so a reader knows which errored cases were never asked.
    function isolation(iso) {
      const parts = [el("p", {}, "Each case ran in a worker process: " + iso.rule + ".")];
      if (!iso.tripCount) {
        parts.push(el("p", {id: "breaker-total"}, "The breaker did not trip: every case ran."));
      } else {
        parts.push(el("p", {id: "breaker-total"}, "The breaker tripped in " + fmt(iso.tripCount) +
          (iso.tripCount === 1 ? " group" : " groups") + " and did not run " + fmt(iso.notRun) +
          (iso.notRun === 1 ? " case" : " cases") + ", counted as errored (or waived) with the fault's signature as their pattern."));
        const rows = iso.trips.map(t => [el("code", {}, t[0]), t[1], t[2], t[3]]);
        const trips = table(["group", "fault", "faults that tripped it", "cases not run"], rows);
        // A long table folds away (on a phone it was half the page); the count above says it all.
        parts.push(rows.length > 12 ? el("details", {}, el("summary", {}, "The " + fmt(rows.length) + " groups"), trips) : trips);
        if (iso.tripCount > iso.trips.length) parts.push(el("p", {class: "muted"}, fmt(iso.tripCount - iso.trips.length) +
          " more groups in results.json (run.isolation.trips); the " + fmt(iso.trips.length) + " with most cases not run are shown"));
      }
      const seconds = v => v.toFixed(v < 10 ? 2 : 0) + " s";
      parts.push(el("details", {}, el("summary", {}, "Limits per check"),
        table(["check", "slowest case (CPU)", "case CPU limit", "case wall limit", "request limit"],
          iso.checks.map(c => [el("code", {}, c[0]), seconds(c[1]),
            c[5] < c[2] ? seconds(c[5]) + " to " + seconds(c[2]) : seconds(c[2]),
            c[5] < c[2] ? seconds(c[5] * c[3] / c[2]) + " to " + seconds(c[3]) : seconds(c[3]), seconds(c[4])]))));
      return el("section", {id: "isolation"}, el("h2", {}, "Isolation"), ...parts);
    }
    function render() {
      document.getElementById("run").textContent = D.started + " · " + D.elapsed + " s · subject " +
        D.subject + " · conformance " + D.arguments.join(" ");
      const v = D.versions;
      // An executor's data is its own: Foundation's versions are then triage's.
      const foundation = D.subjectSide === "Foundation" ? "subject (Foundation)" : "triage (Foundation)";
      const rows = [
        ["ICU", v.subject.icu, v.oracle.icu], ["CLDR", v.subject.cldr, v.oracle.cldr],
        ["tz data", v.subject.tz, v.oracle.tz], ["code", "Swift " + v.swift + " Foundation", "ICU4C"]];
      const versions = section("Versions compared", table(["", foundation, "oracle (system libicu)"], rows),
        D.subjectSide === "Foundation" ? "" : el("p", {}, "subject: " + v.subject.implementation),
        el("p", {class: "muted"}, "Triage: " + D.triage),
        el("details", {}, el("summary", {}, "Options of this run"), table(["option", "value"], D.options)));
      const r = D.review;
      // The exit line is the banner above (#verdict).
      const reviewParts = [];
      if (r.baseline) {
        const order = ["new-failure", "new-case", "changed", "fixed", "still-failing", "removed"];
        reviewParts.push(el("p", {}, "Against " + r.baseline.path + " (" + r.baseline.started + ", " + r.baseline.versions + ")"),
          table(order, [order.map(k => r.baseline.classes[k] || 0)]),
          el("p", {class: "legend"}, order.map(k => k + ": " + D.classMeanings[k]).join(" · ") +
            ". A new failure counts for --fail-on new and unexpected unless a waiver whose scope lists it explains it."));
      } else {
        reviewParts.push(el("p", {class: "muted"}, "No baseline: every failure no waiver explains counts as new."));
      }
      if (r.stale.length) reviewParts.push(el("p", {}, "Stale waivers: " + r.stale.map(s => s[0] + " (" + s[1] + ")").join("; ")));
      if (r.outOfScope.length) reviewParts.push(el("p", {}, "New failures outside a waiver's scope: " + r.outOfScope.map(s => s[0] + " (" + s[1] + ")").join("; ")));
      if (r.contradicted.length) reviewParts.push(el("p", {}, "Contradicted waivers: " + r.contradicted.map(s => s[0] + " (" + s[1] + ")").join("; ")));
      if (r.unmatchedPartly.length) reviewParts.push(el("p", {class: "muted"}, "Matched nothing in this partial selection (not stale): " + r.unmatchedPartly.join(", ")));
      const waivers = Object.entries(D.waivers).filter(([, w]) => w.count);
      if (waivers.length) reviewParts.push(el("details", {}, el("summary", {}, "Waivers that explained cases (" + waivers.length + ")"),
        table(["waiver", "cases", "reason", "link"], waivers.map(([id, w]) => [el("code", {}, id), w.count, w.reason, link(w.link)]))));
      reviewParts.push(el("h3", {}, "Trend"), trend());
      app.append(section("What changed", ...reviewParts));
      clusterBox = el("div", {id: "clusters"});
      app.append(section("Failures by pattern", el("p", {class: "muted"},
        "New failures and unexpected passes first. Expand a pattern to see examples (chosen to differ) with their explain command."),
        filterBar(), clusterBox));
      // What the run compared, below what it found.
      app.append(versions);
      if (D.isolation) app.append(isolation(D.isolation));
      const maps = el("div", {class: "multiples", id: "heat"}, Object.entries(D.heat).map(([check, calendars]) => heatMap(check, calendars)));
      app.append(section("Pass rate by calendar and zone class", el("p", {class: "legend"},
        "Lighter is a higher pass rate (waived differences included); ", el("span", {class: "failed"}, "■ red"),
        " only where --fail-on " + D.review.failOn + " counts a case. Hover a cell for its numbers."), maps));
      app.append(section("Checks", table(["check", "what it compares", "cases", "cross product", "passed",
        "failed", "waived", "errored", "skipped", "locales", "calendars", "first weekdays", "zones", "months",
        "zone-months folded into an equivalent zone"],
        D.checks.map(c => [el("code", {}, c.id), c.summary, c.cases, c.crossProduct, c.passed, c.failed,
          c.waived, c.errored, c.skipped, c.locales, c.calendars, c.firstWeekdays, c.zones, c.months,
          c.equivalent]))));
      app.append(section("Pass rates", matrix("check × calendar", "calendar"),
        matrix("check × first weekday", "fw"), matrix("check × zone class", "zone class")));
      const corpus = [el("p", {}, "Transitions swept by kind: " +
        Object.entries(D.transitions).map(([k, n]) => k + " " + fmt(n)).join(", "))];
      if (D.invariantOnly.length) corpus.push(el("p", {}, "Invariant-only calendars (libicu has no model): " + D.invariantOnly.join(", ")));
      if (D.aliases) corpus.push(el("p", {}, fmt(D.aliases) + " zone aliases swept as their canonical zone (listed in results.json)."));
      for (const [reason, n] of Object.entries(D.skipReasons)) corpus.push(el("p", {class: "skipped"}, "○ skipped " + fmt(n) + ": " + reason));
      app.append(section("Corpus", ...corpus));
      document.getElementById("static").hidden = true;
      renderClusters();
      window.addEventListener("hashchange", renderClusters);
      document.documentElement.dataset.rendered = "ok";
    }
    render();
    """#
}
