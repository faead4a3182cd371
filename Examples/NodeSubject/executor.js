#!/usr/bin/env node
// js-picker: a date picker's date math as a JavaScript developer writes it, with `Date`
// and `Intl` only (Node.js 20, no npm packages).
//
// A conformance-executor/1 executor (Schemas/executor-protocol.schema.json): one JSON
// question a line on stdin, one JSON answer a line on stdout, in order, written at once.
//
// Nothing here is corrected on purpose or broken on purpose: each function is what the
// usual JavaScript code for a calendar grid, a range picker and a text field looks like,
// so the harness shows where that code breaks. The choices, JavaScript -> what it means:
//
//   the zone            -> process.env.TZ = calendar.timeZone, then local Date methods
//   start of the month  -> new Date(year, month, 1) (a skipped midnight resolves later)
//   days of the month   -> new Date(year, month + 1, 0).getDate(), then + n * 86_400_000 ms
//   weekday             -> getDay() (0 = Sunday)
//   start of the day    -> new Date(getFullYear(), getMonth(), getDate())
//   same day?           -> toDateString() of both
//   month buttons       -> setMonth(getMonth() + offset) (31 January + 1 is 3 March)
//   nights              -> Math.round((end - start) / 86_400_000)
//   column headers      -> Intl.DateTimeFormat(locale, { weekday: 'narrow' })
//   the field's text    -> toISOString().slice(0, 10) (the UTC date)
//   the field read back -> new Date(text) (a date-only string is read as UTC)
//   other texts         -> Intl.DateTimeFormat with the options the seed's style names
'use strict';

const readline = require('node:readline');

const NAME = 'js-picker';
const VERSION = `1.0 (node ${process.version}, ICU ${process.versions.icu}, tz ${process.versions.tz})`;
const PROTOCOL = 'conformance-executor/1';
const DAY = 86_400_000; // ms in a day

// Date only knows the proleptic Gregorian calendar; iso8601 is the same days and months.
const GREGORIAN = new Set(['gregorian', 'iso8601']);

// The harness spells calendars as CLDR/ICU does; Intl wants BCP 47 `ca` values.
const INTL_CALENDARS = {
  gregorian: 'gregory',
  'ethiopic-amete-alem': 'ethioaa',
};

const REASONS = {
  disclosure: 'not ported: the disclosure rows (seeds 000, 002, 003) are view state, not date math',
};

class Unsupported extends Error {}

// --- helpers a JavaScript developer writes ----------------------------------------

// 'en_US' -> 'en-US', 'ja_JP@calendar=japanese' -> 'ja-JP-u-ca-japanese',
// 'en_US@fw=mon' -> 'en-US-u-fw-mon'. Intl throws a RangeError on the ICU spelling.
function toBcp47(locale) {
  const [base, keywords] = locale.split('@');
  let tag = base.replace(/_/g, '-');
  if (keywords) {
    const pairs = keywords.split(';').map((pair) => {
      const [key, value] = pair.split('=');
      return key === 'calendar' ? `ca-${intlCalendar(value)}` : `${key}-${value}`;
    });
    tag += '-u-' + pairs.join('-');
  }
  return tag;
}

function intlCalendar(identifier) {
  return INTL_CALENDARS[identifier] || identifier;
}

// Every local Date method reads process.env.TZ; Node re-reads it when it is assigned.
// (A name the runtime does not know silently means UTC.)
function useZone(calendar) {
  if (process.env.TZ !== calendar.timeZone) process.env.TZ = calendar.timeZone;
}

// Month math needs months: Date has only Gregorian ones.
function gregorianOnly(calendar) {
  if (!GREGORIAN.has(calendar.identifier)) {
    throw new Unsupported(`${NAME}: JavaScript's Date has Gregorian months only, not ${calendar.identifier}'s`);
  }
}

const toDate = (seconds) => new Date(seconds * 1000); // Date keeps whole milliseconds
const toSeconds = (date) => date.getTime() / 1000; // NaN (an invalid Date) becomes null in JSON

function startOfDay(date) {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function startOfMonth(date) {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

// Intl.DateTimeFormat is slow to build, so each one is kept.
const formatters = new Map();
function formatter(locale, options) {
  const key = locale + JSON.stringify(options);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(toBcp47(locale), options);
    formatters.set(key, format);
  }
  return format;
}

// --- the picker -----------------------------------------------------------------

function leadingBlanks(q) {
  const { calendar } = q;
  gregorianOnly(calendar);
  useZone(calendar);
  const first = startOfMonth(toDate(q.month));
  // getDay() is 0 for Sunday; firstWeekday is 1 for Sunday.
  return (first.getDay() - (calendar.firstWeekday - 1) + 7) % 7;
}

function days(q) {
  const { calendar } = q;
  gregorianOnly(calendar);
  useZone(calendar);
  const month = toDate(q.month);
  const first = startOfMonth(month);
  // Day 0 of the next month is the last day of this one.
  const count = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  const cells = [];
  for (let i = 0; i < count; i++) {
    cells.push(toSeconds(new Date(first.getTime() + i * DAY)));
  }
  return cells;
}

function weekdaySymbols(q) {
  const { calendar } = q;
  const format = formatter(calendar.locale, {
    weekday: 'narrow', calendar: intlCalendar(calendar.identifier), timeZone: 'UTC',
  });
  // 1 January 2017 was a Sunday.
  const symbols = [];
  for (let i = 0; i < 7; i++) symbols.push(format.format(Date.UTC(2017, 0, 1 + i)));
  const offset = calendar.firstWeekday - 1;
  return symbols.slice(offset).concat(symbols.slice(0, offset));
}

function closes(q) {
  useZone(q.calendar);
  return toDate(q.old).toDateString() !== toDate(q.new).toDateString();
}

// The selection's ends as start-of-day times in ms (undefined when not picked yet).
function selectionOf(q) {
  const { start, end } = q.selection;
  return {
    start: start === undefined ? undefined : startOfDay(toDate(start)).getTime(),
    end: end === undefined ? undefined : startOfDay(toDate(end)).getTime(),
  };
}

function selecting(q) {
  useZone(q.calendar);
  const day = startOfDay(toDate(q.day)).getTime();
  const { start } = selectionOf(q);
  if (start === undefined || q.selection.end !== undefined || day < start) {
    return { start: day / 1000 };
  }
  return { start: start / 1000, end: day / 1000 };
}

function role(q) {
  useZone(q.calendar);
  const day = startOfDay(toDate(q.day)).getTime();
  const { start, end } = selectionOf(q);
  if (start === undefined) return 'outside';
  if (end === undefined || end === start) return day === start ? 'single' : 'outside';
  const lower = Math.min(start, end);
  const upper = Math.max(start, end);
  if (day === lower) return 'start';
  if (day === upper) return 'end';
  return day > lower && day < upper ? 'middle' : 'outside';
}

function paging(q) {
  const { calendar } = q;
  gregorianOnly(calendar);
  useZone(calendar);
  const date = toDate(q.month);
  date.setMonth(date.getMonth() + q.offset); // a day the new month lacks overflows into the next
  return toSeconds(date);
}

function nights(q) {
  useZone(q.calendar);
  // Rounded, so that a 23- or 25-hour day still counts as one night.
  return Math.round((toDate(q.end) - toDate(q.start)) / DAY);
}

function clampedReturn(q) {
  const comeback = toDate(q.comeback);
  const departure = toDate(q.departure);
  return toSeconds(comeback < departure ? departure : comeback);
}

// The seeds' styles as Intl options (the calendar and zone are the user's).
const TEXT_OPTIONS = {
  row: { year: 'numeric', month: 'short', day: 'numeric' }, // .abbreviated
  'accessibility-value': { year: 'numeric', month: 'long', day: 'numeric' }, // .long
  'month-title': { month: 'long', year: 'numeric' },
  'day-accessibility-label': { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  header: { dateStyle: 'medium' }, // a medium DateFormatter
};

function text(q) {
  const { calendar, kind } = q;
  useZone(calendar);
  const date = toDate(q.date);
  if (kind === 'day-label') {
    gregorianOnly(calendar); // the grid's cell label: the grid is Gregorian only
    return String(date.getDate());
  }
  if (kind === 'field') {
    return date.toISOString().slice(0, 10); // what <input type="date"> and a server want
  }
  const options = TEXT_OPTIONS[kind];
  if (!options) throw new Unsupported(`${NAME} has no text '${kind}'`);
  // process.env.TZ is the default zone of Intl too, so no timeZone option is needed.
  return formatter(q.locale, { ...options, calendar: intlCalendar(calendar.identifier) }).format(date);
}

function fieldDate(q) {
  const date = new Date(q.text); // 'YYYY-MM-DD' parses as midnight UTC
  return isNaN(date) ? null : toSeconds(date);
}

const FUNCTIONS = {
  leadingBlanks, weekdaySymbols, closes, selecting, role, days, paging, nights,
  clampedReturn, text, fieldDate,
};

function hello(q) {
  if (q.protocol !== PROTOCOL) throw new Error(`${NAME} speaks ${PROTOCOL}, not ${q.protocol}`);
  // No `calendars` list: day math is the same in every calendar, and Intl formats them all;
  // only the month functions answer `unsupported` outside the Gregorian calendar.
  return { name: NAME, version: VERSION, functions: Object.keys(FUNCTIONS), reasons: REASONS };
}

function answer(q) {
  try {
    if (q.function === 'hello') return { id: q.id, answer: hello(q) };
    const handler = FUNCTIONS[q.function];
    if (!handler) throw new Unsupported(REASONS[q.function] || `${NAME} has no function '${q.function}'`);
    return { id: q.id, answer: handler(q) };
  } catch (error) {
    if (error instanceof Unsupported) return { id: q.id, unsupported: error.message };
    return { id: q.id, error: `${error.name}: ${error.message}` };
  }
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let lineNumber = 0;
input.on('line', (line) => {
  lineNumber++;
  if (!line.trim()) return;
  let q;
  try {
    q = JSON.parse(line);
    if (!Number.isInteger(q.id) || q.id < 0) throw new Error(`id ${JSON.stringify(q.id)} is not an integer >= 0`);
  } catch (error) {
    // No id to answer with: a note on stderr, nothing on stdout.
    process.stderr.write(`${NAME}: line ${lineNumber} is not a question: ${error.name}: ${error.message}\n`);
    return;
  }
  // Writes to a pipe are synchronous in Node on Linux: each answer is out before the next.
  process.stdout.write(JSON.stringify(answer(q)) + '\n');
});
