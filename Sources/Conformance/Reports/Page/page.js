"use strict";
// Headless checks read these: rendering finished, or the first uncaught error.
window.addEventListener("error", e => { document.documentElement.dataset.error = String(e.message); });
const D = JSON.parse(document.getElementById("data").textContent);
const app = document.getElementById("app");
const ICON = {"passed": "✔", "failed": "✘", "errored": "⚠", "not-run": "⊘", "waived": "◐", "oracle-stale": "◑", "unexpected-pass": "!", "skipped": "○"};
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
                status: new Set(["failed", "errored", "not-run", "waived", "oracle-stale", "unexpected-pass"]),
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
  // A case that errored has no answer (its detail below says what happened), but what it
  // should have answered; one not run has neither.
  const rows = e.status === "not-run" ? []
    : e.status === "errored" ? (e.expected === null ? [] : [["expected (libicu)", el("code", {}, e.expected)]])
    : [["expected (libicu)", el("code", {}, values[0])]];
  if (e.expectedF !== undefined) rows.push(["expected (Foundation's ICU)", el("code", {}, e.expectedF)]);
  if (e.status !== "errored" && e.status !== "not-run") rows.push(["actual (" + D.subjectSide + ")", el("code", {}, values[1])]);
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
    c.new ? el("span", {class: "badge new"}, fmt(c.new) + " new") : null);
  const parts = [summary];
  if (c.status === "not-run") parts.push(el("p", {class: "breaker"}, "The breaker did not run these: " +
    "the subject faulted with this signature systematically in their group (its errored cases, " +
    "and Isolation, say where), so their answers are unknown, not wrong."));
  for (const [id, n] of c.waivers) {
    const w = D.waivers[id] || {};
    parts.push(el("p", {class: "waiver"}, "Waived by ", el("code", {}, id), " (" + fmt(n) + "): ",
      w.reason || "(no reason given)", w.link ? [" — ", link(w.link)] : null));
  }
  // One case: its example names the same values.
  if (c.count > 1) parts.push(el("p", {class: "muted"}, span));
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
// News: a group with new failures, or of unexpected passes.
function urgent(c) { return c.new > 0 || c.status === "unexpected-pass"; }
// The first group shown, opened (its examples fill in as it opens).
function openFirst() {
  const first = clusterBox.querySelector("details");
  if (first) first.open = true;
  return first;
}
// The groups the address names, the first open and scrolled to.
function showGroups() {
  renderClusters();
  const first = openFirst();
  (first || clusterBox).scrollIntoView({block: "start"});
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
    el("p", {class: "muted"}, el("span", {id: "cluster-count"}, fmt(clusters.length) + " of " + fmt(D.clusters.length) +
      " patterns, " + (counts.every(c => c.exact) ? "" : "up to ") + fmt(total) + " cases"),
      " · new failures and unexpected passes first; open a pattern for its examples and their explain command"),
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
  // The name above its map: below it, it read as the next map's.
  return el("figure", {}, el("figcaption", {}, el("code", {}, check)), grid);
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
// stopped, so a reader knows which cases were never asked.
function isolation(iso) {
  const parts = [el("p", {}, "Each case ran in a worker process: " + iso.rule + ".")];
  if (!iso.tripCount) {
    parts.push(el("p", {id: "breaker-total"}, "The breaker did not trip: every case ran."));
  } else {
    parts.push(el("p", {id: "breaker-total"}, "The breaker tripped in " + fmt(iso.tripCount) +
      (iso.tripCount === 1 ? " group" : " groups") + " and did not run " + fmt(iso.notRun) +
      (iso.notRun === 1 ? " case" : " cases") + ", counted as not run with the fault's signature as their pattern."));
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
  // The run's command line is among its options (below): here, what tells nights apart.
  document.getElementById("run").textContent = D.started + " · " + D.elapsed + " s · subject " + D.subject;
  const v = D.versions;
  // An executor's data is its own: Foundation's versions are then triage's.
  const foundation = D.subjectSide === "Foundation" ? "subject (Foundation)" : "triage (Foundation)";
  const rows = [
    ["ICU", v.subject.icu, v.oracle.icu], ["CLDR", v.subject.cldr, v.oracle.cldr],
    ["tz data", v.subject.tz, v.oracle.tz], ["code", "Swift " + v.swift + " Foundation", "ICU4C"]];
  const versions = section("Versions compared", table(["", foundation, "oracle (system libicu)"], rows),
    D.subjectSide === "Foundation" ? "" : el("p", {}, "subject: " + v.subject.implementation),
    el("p", {class: "muted"}, "Triage: " + D.triage),
    el("details", {}, el("summary", {}, "Options of this run"),
      table(["option", "value"], [["command line", "conformance " + D.arguments.join(" ")], ...D.options])));
  const r = D.review;
  // The exit line is the banner above (#verdict).
  const reviewParts = [];
  if (r.baseline) {
    // The classes come in reading order (Baseline.Class.readingOrder), as without JavaScript.
    const order = Object.keys(r.baseline.classes);
    reviewParts.push(el("p", {}, "Against " + r.baseline.path + " (" + r.baseline.started + ", " + r.baseline.versions + ")"),
      table(["", ...order], [["cases", ...order.map(k => r.baseline.classes[k] || 0)],
        ["new failures", ...order.map(k => k in r.baseline.newFailures ? r.baseline.newFailures[k] : "")]]),
      el("p", {class: "legend"}, order.map(k => k + ": " + D.classMeanings[k]).join(" · ") + ". " + r.baseline.legend));
  } else {
    reviewParts.push(el("p", {class: "muted"}, "No baseline: every failure no waiver explains counts as new."));
  }
  if (r.stale.length) reviewParts.push(el("p", {}, "Stale waivers: " + r.stale.map(s => s[0] + " (" + s[1] + ")").join("; ")));
  if (r.outOfScope.length) reviewParts.push(el("p", {}, "New failures outside a waiver's scope: " + r.outOfScope.map(s => s[0] + " (" + s[1] + ")").join("; ")));
  if (r.contradicted.length) reviewParts.push(el("p", {}, "Contradicted waivers: " + r.contradicted.map(s => s[0] + " (" + s[1] + ")").join("; ")));
  // Not a problem (the selection holds only part of what they cover): a count, the ids folded,
  // so a long list does not push the failures down the page.
  if (r.unmatchedPartly.length) reviewParts.push(el("details", {class: "muted"}, el("summary", {}, fmt(r.unmatchedPartly.length) +
    (r.unmatchedPartly.length === 1 ? " waiver" : " waivers") + " matched nothing in this partial selection (not stale)"),
    el("p", {}, r.unmatchedPartly.join(", "))));
  const waivers = Object.entries(D.waivers).filter(([, w]) => w.count);
  if (waivers.length) reviewParts.push(el("details", {}, el("summary", {}, "Waivers that explained cases (" + waivers.length + ")"),
    table(["waiver", "cases", "reason", "link"], waivers.map(([id, w]) => [el("code", {}, id), w.count, w.reason, link(w.link)]))));
  reviewParts.push(el("h3", {}, "Trend"), trend());
  clusterBox = el("div", {id: "clusters"});
  // A night with news opens on it: its groups come before what changed, the filters folded
  // above them (open once the address sets one).
  const news = D.clusters.some(urgent);
  const filters = el("details", {id: "filters"}, el("summary", {}, "Filters: check, calendar, locale, zone, status, triage, new only"),
    filterBar());
  filters.open = !news || FILTERS.some(k => readFilters()[k]);
  const failures = section("Failures by pattern", filters, clusterBox);
  if (news) app.append(failures, section("What changed", ...reviewParts));
  else app.append(section("What changed", ...reviewParts), failures);
  // What the run compared, below what it found.
  app.append(versions);
  if (D.isolation) app.append(isolation(D.isolation));
  const maps = el("div", {class: "multiples", id: "heat"}, Object.entries(D.heat).map(([check, calendars]) => heatMap(check, calendars)));
  app.append(section("Pass rate by calendar and zone class", el("p", {class: "legend"},
    "Lighter is a higher pass rate (waived differences included); ", el("span", {class: "failed"}, "■ red"),
    " only where --fail-on " + D.review.failOn + " counts a case. Hover a cell for its numbers."), maps));
  app.append(section("Checks", table(["check", "what it compares", "cases", "cross product", "passed",
    "failed", "waived", "oracle-stale", "errored", "not run", "skipped", "locales", "calendars", "first weekdays", "zones", "months",
    "zone-months folded into an equivalent zone"],
    D.checks.map(c => [el("code", {}, c.id), c.summary, c.cases, c.crossProduct, c.passed, c.failed,
      c.waived, c.oracleStale, c.errored, c.notRun, c.skipped, c.locales, c.calendars, c.firstWeekdays, c.zones, c.months,
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
  // Opened on the news, or on a group the address names (a banner link another reader sent).
  if (location.hash) showGroups(); else if (D.clusters.some(urgent)) openFirst();
  window.addEventListener("hashchange", showGroups);
  // A banner link shows its groups even when the address already names them (no hashchange).
  for (const a of document.querySelectorAll("#verdict a[href^='#']")) {
    a.addEventListener("click", event => {
      event.preventDefault();
      history.replaceState(null, "", a.getAttribute("href"));
      showGroups();
    });
  }
  document.documentElement.dataset.rendered = "ok";
}
render();
