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

  public static func document(_ tally: RunTally) -> String {
    guard let info = tally.info else { return "<!doctype html><title>conformance</title>" }
    let data = HTMLReportData.make(tally: tally, info: info).rendered(indent: nil)
      .replacingOccurrences(of: "</", with: "<\\/")
    let totals = tally.totals
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>Calendar conformance: \(totals.failed) failed, \(totals.waived) waived of \(totals.total)</title>
      <style>\(style)</style>
      </head>
      <body>
      <header><h1>Calendar conformance</h1><p id="totals" class="totals">\(escape(totalsText(totals)))</p>
      <p id="run"></p></header>
      <noscript><p>This page renders its data with JavaScript; results.json has the same data.</p></noscript>
      <main id="app"></main>
      <script id="data" type="application/json">\(data)</script>
      <script>\(script)</script>
      </body>
      </html>

      """
  }

  /// The totals line, also present before the script runs.
  static func totalsText(_ totals: StatusCounts) -> String {
    "\(totals.total) cases: ✔ \(totals.passed) passed · ✘ \(totals.failed) failed · "
      + "⚠ \(totals.errored) errored · ◐ \(totals.waived) waived · "
      + "! \(totals.unexpectedPass) unexpected passes · ○ \(totals.skipped) skipped"
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
    .badge{border:1px solid var(--line);border-radius:9px;padding:0 .4rem;font-size:12px;margin-left:.3rem}
    .example{border-top:1px dashed var(--line);padding-top:.35rem;margin-top:.35rem}
    .example dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.2rem 0}.example dt{color:var(--muted)}.example dd{margin:0}
    @media (max-width:600px){.example dl{grid-template-columns:1fr}.example dd{margin-bottom:.25rem}}
    .filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin:.6rem 0}.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
    select,button{font:inherit;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px;padding:.15rem .3rem}
    .rate{display:inline-block;min-width:3.2em}.bar{display:inline-block;height:.55em;background:var(--pass);vertical-align:middle}
    """

  static let script = #"""
    "use strict";
    // Headless checks read these: rendering finished, or the first uncaught error.
    window.addEventListener("error", e => { document.documentElement.dataset.error = String(e.message); });
    const D = JSON.parse(document.getElementById("data").textContent);
    const app = document.getElementById("app");
    const ICON = {"passed": "✔", "failed": "✘", "errored": "⚠", "waived": "◐", "unexpected-pass": "!", "skipped": "○"};
    const FILTERS = ["check", "calendar", "locale", "zone", "status", "triage"];
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
    function status(s) { return el("span", {class: s}, (ICON[s] || "") + " " + s); }
    function section(title, ...children) { return el("section", {}, el("h2", {}, title), ...children); }
    function table(head, rows) {
      return el("table", {}, el("thead", {}, el("tr", {}, head.map(h => el("th", {}, h)))),
        el("tbody", {}, rows.map(r => el("tr", {}, r.map(c => c instanceof Node ? el("td", {}, c) :
          el("td", typeof c === "number" ? {class: "num"} : {}, String(c)))))));
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
    function spanOf(cluster, key) { return cluster.span.find(s => s[0] === key); }
    function clusterMatches(cluster, state) {
      if (state.check && cluster.check !== state.check) return false;
      if (state.status && cluster.status !== state.status) return false;
      if (state.triage && (cluster.triage || "none") !== state.triage) return false;
      for (const key of ["calendar", "locale", "zone"]) {
        if (!state[key]) continue;
        const span = spanOf(cluster, key);
        if (!span) return false;
        if (!span[2].includes(state[key]) && span[1] <= span[2].length) return false;
      }
      return true;
    }
    function exampleMatches(example, state) {
      for (const key of ["calendar", "locale", "zone"]) {
        if (state[key] && example.dims[key] !== state[key]) return false;
      }
      return true;
    }
    function renderExample(e) {
      const rows = [["expected (libicu)", e.expected]];
      if (e.expectedF !== undefined) rows.push(["expected (Foundation's ICU)", e.expectedF]);
      rows.push(["actual (Foundation)", e.actual]);
      if (e.months) rows.push(["month", e.months]);
      if (e.baseline) rows.push(["baseline", e.baseline]);
      if (e.waiver) rows.push(["waiver", e.waiver]);
      return el("div", {class: "example"},
        el("div", {}, el("strong", {}, Object.entries(e.dims).map(([k, v]) => k + ": " + v).join(" › "))),
        el("dl", {}, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, el("code", {}, v))])),
        el("ul", {}, e.detail.map(line => el("li", {}, line))),
        el("code", {}, e.explain));
    }
    function renderCluster(c, state) {
      const span = c.span.map(s => s[1] + " " + s[0] + (s[1] === 1 ? "" : "s") + ": " +
        s[2].slice(0, 6).join(", ") + (s[1] > 6 ? ", …" : "")).join("; ");
      const summary = el("summary", {}, status(c.status), " ", el("code", {}, c.check),
        c.triage ? el("span", {class: "badge"}, c.triage) : null, " ", c.pattern || "(no pattern)",
        " · ", el("strong", {}, c.count), c.count === 1 ? " case" : " cases",
        c.new ? el("span", {class: "badge failed"}, c.new + " new") : null);
      const details = el("details", {}, summary, el("p", {class: "muted"}, span));
      details.addEventListener("toggle", () => {
        if (!details.open || details.dataset.filled) return;
        details.dataset.filled = "1";
        const shown = c.examples.filter(e => exampleMatches(e, state));
        for (const e of shown) details.append(renderExample(e));
        if (shown.length < c.count) details.append(el("p", {class: "muted"},
          (c.count - shown.length) + " more cases in cases.jsonl.gz (" + shown.length + " shown)"));
      });
      return details;
    }
    let clusterBox;
    function renderClusters() {
      const state = readFilters();
      for (const key of FILTERS) {
        const select = document.getElementById("filter-" + key);
        if (select) select.value = state[key] || "";
      }
      const clusters = D.clusters.filter(c => clusterMatches(c, state));
      clusterBox.replaceChildren(
        el("p", {class: "muted"}, clusters.length + " of " + D.clusters.length + " patterns, " +
          clusters.reduce((n, c) => n + c.count, 0) + " cases"),
        ...clusters.map(c => renderCluster(c, state)));
    }
    function filterBar() {
      const values = {check: new Set(), calendar: new Set(), locale: new Set(), zone: new Set(),
                      status: new Set(), triage: new Set()};
      for (const c of D.clusters) {
        values.check.add(c.check); values.status.add(c.status); values.triage.add(c.triage || "none");
        for (const key of ["calendar", "locale", "zone"]) {
          const span = spanOf(c, key);
          if (span) span[2].forEach(v => values[key].add(v));
        }
      }
      const bar = el("div", {class: "filters", role: "search"});
      for (const key of FILTERS) {
        const select = el("select", {id: "filter-" + key},
          el("option", {value: ""}, "all"), [...values[key]].sort().map(v => el("option", {value: v}, v)));
        select.addEventListener("change", () => {
          const state = readFilters();
          state[key] = select.value;
          writeFilters(state);
        });
        bar.append(el("label", {for: "filter-" + key}, key, select));
      }
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
          return el("span", {title: cell[0] + " of " + cell[1] + " passed"},
            el("span", {class: "rate " + (rate === 100 ? "passed" : "failed")}, rate + "%"),
            el("span", {class: "bar", style: "width:" + Math.round(rate / 5) + "px"}));
        })]);
      return el("div", {}, el("h3", {}, title), table(["check", ...columns], rows));
    }
    function render() {
      document.getElementById("run").textContent = D.started + " · " + D.elapsed + " s · subject " +
        D.subject + " · conformance " + D.arguments.join(" ");
      const v = D.versions;
      app.append(section("Versions compared", table(["", "subject (Foundation)", "oracle (system libicu)"], [
        ["ICU", v.subject.icu, v.oracle.icu], ["CLDR", v.subject.cldr, v.oracle.cldr],
        ["tz data", v.subject.tz, v.oracle.tz], ["code", "Swift " + v.swift + " Foundation", "ICU4C"]]),
        el("p", {class: "muted"}, "Triage: " + D.triage),
        el("details", {}, el("summary", {}, "Options of this run"), table(["option", "value"], D.options))));
      const r = D.review;
      const reviewParts = [el("p", {}, el("strong", {}, r.exit))];
      if (r.baseline) {
        const order = ["new-failure", "new-case", "changed", "fixed", "still-failing", "removed"];
        reviewParts.push(el("p", {}, "Against " + r.baseline.path + " (" + r.baseline.started + ", " + r.baseline.versions + ")"),
          table(order, [order.map(k => r.baseline.classes[k] || 0)]));
      } else {
        reviewParts.push(el("p", {class: "muted"}, "No baseline: every failure no waiver explains counts as new."));
      }
      if (r.stale.length) reviewParts.push(el("p", {}, "Stale waivers: " + r.stale.map(s => s[0] + " (" + s[1] + ")").join("; ")));
      if (r.matched.length) reviewParts.push(el("p", {class: "muted"}, "Waivers matched: " + r.matched.map(m => m[0] + " " + m[1]).join(", ")));
      app.append(section("What changed", ...reviewParts));
      clusterBox = el("div", {id: "clusters"});
      app.append(section("Failures by pattern", el("p", {class: "muted"},
        "New failures and unexpected passes first. Expand a pattern to see examples with their explain command."),
        filterBar(), clusterBox));
      app.append(section("Checks", table(["check", "what it compares", "cases", "cross product", "passed",
        "failed", "waived", "errored", "skipped", "locales", "calendars", "first weekdays", "zones", "months",
        "zone-months folded into an equivalent zone"],
        D.checks.map(c => [el("code", {}, c.id), c.summary, c.cases, c.crossProduct, c.passed, c.failed,
          c.waived, c.errored, c.skipped, c.locales, c.calendars, c.firstWeekdays, c.zones, c.months,
          c.equivalent]))));
      app.append(section("Pass rates", matrix("check × calendar", "calendar"),
        matrix("check × first weekday", "fw"), matrix("check × zone class", "zone class")));
      const corpus = [el("p", {}, "Transitions swept by kind: " +
        Object.entries(D.transitions).map(([k, n]) => k + " " + n).join(", "))];
      if (D.invariantOnly.length) corpus.push(el("p", {}, "Invariant-only calendars (libicu has no model): " + D.invariantOnly.join(", ")));
      if (D.aliases) corpus.push(el("p", {}, D.aliases + " zone aliases swept as their canonical zone (listed in results.json)."));
      for (const [reason, n] of Object.entries(D.skipReasons)) corpus.push(el("p", {class: "skipped"}, "○ skipped " + n + ": " + reason));
      app.append(section("Corpus", ...corpus));
      renderClusters();
      window.addEventListener("hashchange", renderClusters);
      document.documentElement.dataset.rendered = "ok";
    }
    render();
    """#
}
