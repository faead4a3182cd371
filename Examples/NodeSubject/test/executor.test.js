// Drives executor.js through conformance-executor/1, as the harness does: a subprocess,
// one JSON question a line on its stdin, one answer a line on its stdout.
//
// Run from the package root:  node --test Examples/NodeSubject/test/
//
// Expected values are derived by hand from documented facts (the tz database's history,
// the ECMAScript specification's rules for Date, CLDR's English and German data), written
// as UTC wall times; none is copied from the program's output.
'use strict';

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const EXECUTOR = path.join(__dirname, '..', 'executor.js');
const HELLO = { function: 'hello', protocol: 'conformance-executor/1' };
const FUNCTIONS = ['leadingBlanks', 'weekdaySymbols', 'closes', 'selecting', 'role', 'days',
  'paging', 'nights', 'clampedReturn', 'text', 'fieldDate', 'disclosure'];

// Seconds since 1970 of a UTC wall time, month 1-based: utc(2018, 11, 4, 3) is 2018-11-04T03:00Z.
function utc(year, month, day = 1, hour = 0, minute = 0, second = 0) {
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

function cal(timeZone = 'UTC', firstWeekday = 1, identifier = 'gregorian', locale = 'en_US') {
  return { identifier, timeZone, firstWeekday, minimumDaysInFirstWeek: 1, locale };
}

// One executor process; questions get ids 0, 1, 2, … in the order asked.
class Executor {
  constructor() {
    this.child = spawn(process.execPath, [EXECUTOR], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => { this.stderr += chunk; });
    this.lines = [];
    this.readers = [];
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      const reader = this.readers.shift();
      if (reader) reader(line); else this.lines.push(line);
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    this.nextId = 0;
  }

  send(line) { this.child.stdin.write(line + '\n'); }

  readLine() {
    return new Promise((resolve) => {
      if (this.lines.length > 0) resolve(this.lines.shift()); else this.readers.push(resolve);
    });
  }

  // Sends a question with the next id; returns its answer object, checking the echoed id.
  async ask(question) {
    const id = this.nextId++;
    this.send(JSON.stringify({ id, ...question }));
    const answer = JSON.parse(await this.readLine());
    assert.equal(answer.id, id);
    return answer;
  }

  // The value of an `answer` (not `unsupported`, not `error`).
  async value(question) {
    const answer = await this.ask(question);
    assert.deepEqual(Object.keys(answer).sort(), ['answer', 'id'], JSON.stringify(answer));
    return answer.answer;
  }

  async close() {
    this.child.stdin.end();
    return { code: await this.exited, stderr: this.stderr };
  }
}

describe('js-picker', { timeout: 20_000 }, () => {
  let executor;
  let helloAnswer;
  const value = (question) => executor.value(question);

  before(async () => {
    executor = new Executor();
    helloAnswer = await executor.ask(HELLO);
  });
  after(async () => {
    const { code } = await executor.close();
    assert.equal(code, 0);
  });

  it('answers hello as the protocol says', () => {
    // helloAnswer: name (non-empty), functions (unique, each a known function), optional
    // version, calendars and reasons (strings by function).
    assert.deepEqual(Object.keys(helloAnswer).sort(), ['answer', 'id']);
    assert.equal(helloAnswer.id, 0);
    const hello = helloAnswer.answer;
    assert.equal(hello.name, 'js-picker');
    assert.equal(typeof hello.version, 'string');
    assert.ok(Array.isArray(hello.functions));
    assert.equal(new Set(hello.functions).size, hello.functions.length);
    for (const f of hello.functions) assert.ok(FUNCTIONS.includes(f), f);
    assert.deepEqual(new Set(hello.functions), new Set(FUNCTIONS.filter((f) => f !== 'disclosure')));
    assert.equal(hello.calendars, undefined); // every calendar is asked; see the README
    for (const [f, reason] of Object.entries(hello.reasons)) {
      assert.ok(FUNCTIONS.includes(f) && !hello.functions.includes(f), f);
      assert.equal(typeof reason, 'string');
    }
    assert.ok('disclosure' in hello.reasons);
  });

  it('counts the blanks before 1 May 2011, a Sunday', async () => {
    const midMay = utc(2011, 5, 15, 12);
    for (const [firstWeekday, blanks] of [[1, 0], [2, 6], [7, 1], [5, 3]]) {
      assert.equal(await value({ function: 'leadingBlanks', month: midMay, calendar: cal('UTC', firstWeekday) }), blanks);
    }
    // The same month seen from Tokyo and from Sao Paulo.
    assert.equal(await value({ function: 'leadingBlanks', month: midMay, calendar: cal('Asia/Tokyo', 2) }), 6);
    assert.equal(await value({ function: 'leadingBlanks', month: midMay, calendar: cal('America/Sao_Paulo', 2, 'iso8601') }), 6);
  });

  it('starts 4 November 2018 in Sao Paulo at 01:00, and steps 24 hours after it', async () => {
    // DST began on 2018-11-04: 00:00-03 became 01:00-02, so the day starts at 01:00-02,
    // 2018-11-04T03:00Z; ECMAScript resolves the skipped 00:00 with the offset before it.
    const sp = cal('America/Sao_Paulo');
    const cells = await value({ function: 'days', month: utc(2018, 11, 15, 15), calendar: sp });
    assert.equal(cells.length, 30);
    assert.equal(cells[0], utc(2018, 11, 1, 3)); // 00:00-03
    assert.equal(cells[3], utc(2018, 11, 4, 3)); // 01:00-02, the day's first instant
    // Each cell is the first plus n × 86,400 s: from the 5th on that is 01:00-02, an hour
    // after the day's midnight (2018-11-05T02:00Z).
    assert.equal(cells[4], utc(2018, 11, 5, 3));
    assert.equal(cells[29], utc(2018, 11, 30, 3));
    assert.equal(await value({ function: 'text', kind: 'day-label', date: cells[3], calendar: sp, locale: 'en_US' }), '4');
    assert.deepEqual(await value({ function: 'selecting', day: utc(2018, 11, 4, 20), selection: {}, calendar: sp }),
      { start: utc(2018, 11, 4, 3) });
  });

  it('gives Apia 31 cells for December 2011, whose 30th never happened', async () => {
    // Samoa went from 2011-12-29 24:00-10 to 2011-12-31 00:00+14, at 2011-12-30T10:00Z.
    // Date's month has 31 days whatever the zone; 24-hour steps from 1 December 00:00-10
    // (10:00Z) put the 30th's cell on 31 December 00:00+14 and the 31st's on 1 January.
    const apia = cal('Pacific/Apia');
    const cells = await value({ function: 'days', month: utc(2011, 12, 15), calendar: apia });
    assert.equal(cells.length, 31);
    assert.equal(cells[0], utc(2011, 12, 1, 10));
    assert.equal(cells[28], utc(2011, 12, 29, 10)); // 29 December 00:00-10
    assert.equal(cells[29], utc(2011, 12, 30, 10)); // 31 December 00:00+14
    assert.equal(cells[30], utc(2011, 12, 31, 10)); // 1 January 2012 00:00+14
    const labels = [];
    for (const date of cells.slice(28)) {
      labels.push(await value({ function: 'text', kind: 'day-label', date, calendar: apia, locale: 'en_US' }));
    }
    assert.deepEqual(labels, ['29', '31', '1']);
    // 29 December 00:00-10 to 31 December 00:00+14 is 24 hours: one night.
    assert.equal(await value({ function: 'nights', start: cells[28], end: cells[29], calendar: apia }), 1);
  });

  it('takes the first of Havana\'s two midnights on 1 November 2020', async () => {
    // Cuba left DST at 01:00-04, back to 00:00-05: midnight came at 04:00Z and at 05:00Z.
    // ECMAScript resolves a repeated local time with the offset before the transition.
    const havana = cal('America/Havana');
    assert.deepEqual(await value({ function: 'selecting', day: utc(2020, 11, 1, 5, 30), selection: {}, calendar: havana }),
      { start: utc(2020, 11, 1, 4) });
    // 00:30-04 and, 40 minutes later, 00:10-05 are the same local date.
    assert.equal(await value({ function: 'closes', old: utc(2020, 11, 1, 4, 30), new: utc(2020, 11, 1, 5, 10), calendar: havana }), false);
    // The 25-hour day rounds to one night.
    assert.equal(await value({ function: 'nights', start: utc(2020, 11, 1, 4), end: utc(2020, 11, 2, 5), calendar: havana }), 1);
  });

  it('pages months with setMonth, which overflows a day the new month lacks', async () => {
    const page = (month, offset) => value({ function: 'paging', month, offset, calendar: cal() });
    // "31 February" is 3 March in a common year, 2 March in a leap year; the wall time stays.
    assert.equal(await page(utc(2018, 1, 31, 12), 1), utc(2018, 3, 3, 12));
    assert.equal(await page(utc(2020, 1, 31, 12), 1), utc(2020, 3, 2, 12));
    assert.equal(await page(utc(2018, 3, 31, 8), -1), utc(2018, 3, 3, 8));
    assert.equal(await page(utc(2018, 12, 15), 1), utc(2019, 1, 15));
    assert.equal(await page(utc(2019, 1, 15), -1), utc(2018, 12, 15));
  });

  it('counts nights by rounding elapsed days', async () => {
    const t = utc(2018, 3, 1, 12);
    assert.equal(await value({ function: 'nights', start: t, end: t + 3 * 86400, calendar: cal() }), 3);
    // Sao Paulo: 3 November 00:00-03 to 4 November 01:00-02 is 24 hours, to 5 November
    // 00:00-02 is 47 hours.
    const sp = cal('America/Sao_Paulo');
    assert.equal(await value({ function: 'nights', start: utc(2018, 11, 3, 3), end: utc(2018, 11, 4, 3), calendar: sp }), 1);
    assert.equal(await value({ function: 'nights', start: utc(2018, 11, 3, 3), end: utc(2018, 11, 5, 2), calendar: sp }), 2);
  });

  it('selects and draws a range as seed 001 does', async () => {
    const c = cal();
    const [day5, day7, day10] = [utc(2018, 1, 5), utc(2018, 1, 7), utc(2018, 1, 10)];
    const pick = (day, selection) => value({ function: 'selecting', day, selection, calendar: c });
    assert.deepEqual(await pick(day5 + 13 * 3600, {}), { start: day5 });
    assert.deepEqual(await pick(day10 + 60, { start: day5 }), { start: day5, end: day10 });
    assert.deepEqual(await pick(day5 + 60, { start: day5 }), { start: day5, end: day5 });
    assert.deepEqual(await pick(day5 - 1, { start: day5 }), { start: utc(2018, 1, 4) });
    assert.deepEqual(await pick(day7, { start: day5, end: day10 }), { start: day7 });

    const selection = { start: day5 + 13 * 3600, end: day10 + 9 * 3600 };
    const role = (day, s = selection) => value({ function: 'role', day, selection: s, calendar: c });
    assert.equal(await role(day7), 'middle');
    assert.equal(await role(day5 + 86399), 'start');
    assert.equal(await role(day10), 'end');
    assert.equal(await role(utc(2018, 1, 11)), 'outside');
    assert.equal(await role(utc(2018, 1, 4, 23)), 'outside');
    assert.equal(await role(day5, { start: day10, end: day5 }), 'start');
    assert.equal(await role(day5, { start: day5, end: day5 + 60 }), 'single');
    assert.equal(await role(day5, {}), 'outside');
  });

  it('closes on another local day only', async () => {
    const tokyo = cal('Asia/Tokyo'); // +09, no DST since 1951
    // 23:59:59+09 and 00:00:00+09 the next day: 14:59:59Z and 15:00:00Z.
    assert.equal(await value({ function: 'closes', old: utc(2020, 6, 15, 14, 59, 59), new: utc(2020, 6, 15, 15), calendar: tokyo }), true);
    assert.equal(await value({ function: 'closes', old: utc(2020, 6, 15, 15), new: utc(2020, 6, 15, 23), calendar: tokyo }), false);
  });

  it('keeps the later of the two dates', async () => {
    assert.equal(await value({ function: 'clampedReturn', comeback: 100, departure: 200.5 }), 200.5);
    assert.equal(await value({ function: 'clampedReturn', comeback: 300, departure: 200 }), 300);
  });

  it('rotates the narrow weekday symbols to the first weekday', async () => {
    // CLDR's narrow standalone and format weekday names in English and German.
    assert.deepEqual(await value({ function: 'weekdaySymbols', calendar: cal('UTC', 1) }),
      ['S', 'M', 'T', 'W', 'T', 'F', 'S']);
    assert.deepEqual(await value({ function: 'weekdaySymbols', calendar: cal('UTC', 2, 'gregorian', 'de_DE') }),
      ['M', 'D', 'M', 'D', 'F', 'S', 'S']);
    // The ICU keyword spelling is turned into BCP 47 before Intl sees it.
    assert.deepEqual(await value({ function: 'weekdaySymbols', calendar: cal('UTC', 2, 'gregorian', 'en_US@fw=mon') }),
      ['M', 'T', 'W', 'T', 'F', 'S', 'S']);
  });

  it('writes the field as the UTC date and reads it back as UTC midnight', async () => {
    const tokyo = cal('Asia/Tokyo');
    // 15 June 2020 08:00+09 is 14 June 23:00Z: toISOString() names the 14th.
    assert.equal(await value({ function: 'text', kind: 'field', date: utc(2020, 6, 14, 23), calendar: tokyo, locale: 'en_US' }), '2020-06-14');
    assert.equal(await value({ function: 'text', kind: 'field', date: utc(2020, 6, 15, 3), calendar: tokyo, locale: 'en_US' }), '2020-06-15');
    // ECMAScript: a date-only form is UTC, whatever process.env.TZ says.
    assert.equal(await value({ function: 'fieldDate', text: '2020-06-15', calendar: tokyo, locale: 'en_US' }), utc(2020, 6, 15));
    assert.equal(await value({ function: 'fieldDate', text: '2018-11-04', calendar: cal('America/Sao_Paulo'), locale: 'en_US' }), utc(2018, 11, 4));
    assert.equal(await value({ function: 'fieldDate', text: 'not a date', calendar: tokyo, locale: 'en_US' }), null);
  });

  it('formats the texts with Intl', async () => {
    const noon = utc(2011, 5, 1, 12);
    const text = (kind, locale = 'en_US', calendar = cal()) => value({ function: 'text', kind, date: noon, calendar, locale });
    // CLDR English: medium date "MMM d, y", long "MMMM d, y".
    assert.equal(await text('header'), 'May 1, 2011');
    assert.equal(await text('row'), 'May 1, 2011');
    assert.equal(await text('accessibility-value'), 'May 1, 2011');
    assert.equal(await text('month-title'), 'May 2011');
    assert.equal(await text('day-accessibility-label'), 'Sunday, May 1, 2011');
    assert.equal(await text('day-label'), '1');
  });

  it('answers unsupported where Date has no months, and for what it does not port', async () => {
    const hebrew = cal('UTC', 1, 'hebrew', 'he_IL');
    for (const function_ of ['days', 'leadingBlanks', 'paging']) {
      const answer = await executor.ask({ function: function_, month: utc(2020, 1, 1), offset: 1, calendar: hebrew });
      assert.match(answer.unsupported, /Gregorian/);
    }
    assert.ok('unsupported' in await executor.ask({ function: 'disclosure', kind: '002-wheel', start: 0, actions: [], calendar: cal(), locale: 'en_US' }));
    assert.ok('unsupported' in await executor.ask({ function: 'text', kind: 'sonnet', date: 0, calendar: cal(), locale: 'en_US' }));
    // Day math needs no months: nights in the Hebrew calendar are the same nights.
    assert.equal(await value({ function: 'nights', start: utc(2020, 1, 1), end: utc(2020, 1, 8), calendar: hebrew }), 7);
  });

  it('turns a thrown TypeError into an error answer, and carries on', async () => {
    // No calendar: reading calendar.identifier throws a TypeError.
    const failed = await executor.ask({ function: 'days', month: 0 });
    assert.deepEqual(Object.keys(failed).sort(), ['error', 'id']);
    assert.match(failed.error, /^TypeError: /);
    const noSelection = await executor.ask({ function: 'role', day: 0, calendar: cal() });
    assert.match(noSelection.error, /^TypeError: /);
    // A missing number throws nothing: new Date(NaN) is an invalid date, and a loop up to
    // NaN days runs no times.
    assert.deepEqual(await value({ function: 'days', calendar: cal() }), []);
    assert.equal(await value({ function: 'leadingBlanks', month: utc(2011, 5, 15), calendar: cal() }), 0);
  });
});

describe('the stream', { timeout: 20_000 }, () => {
  it('survives lines that are not questions', async () => {
    const executor = new Executor();
    executor.send('{this is not json');
    executor.send('{"function": "days"}'); // no id to echo
    assert.equal(await executor.value({ function: 'leadingBlanks', month: utc(2011, 5, 15), calendar: cal('UTC', 7) }), 1);
    const { code, stderr } = await executor.close();
    assert.equal(code, 0);
    assert.match(stderr, /line 1 /);
    assert.match(stderr, /line 2 /);
  });

  it('answers a batch in order, one line each', async () => {
    const executor = new Executor();
    const kinds = ['days', 'nights', 'role', 'disclosure'];
    const questions = [{ id: 0, ...HELLO }];
    for (let id = 1; id < 200; id++) {
      questions.push({ id, function: kinds[id % 4], month: utc(2018, (id % 12) + 1, 10), start: 0, end: id * 86400,
        day: id * 86400, selection: { start: 0 }, kind: '002-wheel', actions: [], locale: 'en_US', calendar: cal('Europe/Paris') });
    }
    executor.send(questions.map((q) => JSON.stringify(q)).join('\n'));
    const answers = [];
    for (let i = 0; i < questions.length; i++) answers.push(JSON.parse(await executor.readLine()));
    assert.deepEqual(answers.map((a) => a.id), questions.map((q) => q.id));
    assert.equal(answers[1].answer, 1); // nights from 0 to a day later
    assert.equal(answers[2].answer, 'outside'); // role: 3 January against 1 January
    assert.ok('unsupported' in answers[3]); // disclosure
    assert.equal(answers[4].answer.length, 31); // days of May 2018
    const { code } = await executor.close();
    assert.equal(code, 0);
  });
});
