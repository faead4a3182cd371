#!/usr/bin/env python3
"""py-picker: seed 001's date math ported to the Python 3.11 standard library.

A conformance-executor/1 executor (Schemas/executor-protocol.schema.json): one JSON
question a line on stdin, one JSON answer a line on stdout, in order, flushed each time.

This is deliberately a *faithful* port, not a correct one: each Foundation call of the
seed's `CalendarRangeSelectorLogic` is mapped to its natural stdlib counterpart, and
Python's own semantics are kept where they differ from Foundation's, so the harness can
show where such a port breaks. The mapping, Foundation -> Python:

  Calendar(identifier: .gregorian)  -> proleptic Gregorian `datetime` (no Julian cutover)
  calendar.timeZone                  -> zoneinfo.ZoneInfo(key) (system tzdata)
  Date(timeIntervalSince1970: t)     -> datetime.fromtimestamp(t, zone) (rounds to 1 us)
  date.timeIntervalSince1970         -> aware_datetime.timestamp()
  startOfDay(for:)                   -> datetime.combine(local.date(), time(0), tzinfo=zone),
                                        fold=0: a skipped midnight is read with the offset
                                        before the gap, a repeated one is the first
  dateInterval(of: .month).start     -> the same, on local.date().replace(day=1)
  range(of: .day, in: .month)        -> 1 ... calendar.monthrange(year, month)[1]
  date(byAdding: .day, value: n)     -> first + timedelta(days=n) (wall-clock arithmetic)
  date(byAdding: .month, value: n)   -> local.replace(year, month, day clamped to the new
                                        month's length), wall time (and fold) kept
  component(.weekday, from:)         -> (local.isoweekday() % 7) + 1 (1 = Sunday)
  component(.day, from:)             -> local.day
  dateComponents([.day], from:to:)   -> (end - start).days: same-tzinfo subtraction is
                                        wall-clock, and .days floors negatives
  Date comparisons (==, <, >=, min)  -> aware datetimes sharing one tzinfo, which Python
                                        compares by wall clock, ignoring offset and fold
"""

import calendar
import json
import sys
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

NAME, VERSION, PROTOCOL = "py-picker", "1.0", "conformance-executor/1"
CALENDARS = ("gregorian", "iso8601")  # iso8601 is Gregorian arithmetic with its week rules
NOT_SEED_001 = "not seed 001's logic"
REASONS = {
    "weekdaySymbols": "Python's standard library has no CLDR weekday symbols",
    "closes": NOT_SEED_001 + " (seed 000's rule)",
    "clampedReturn": NOT_SEED_001 + " (seed 000's clamp)",
    "fieldDate": NOT_SEED_001 + " (seed 004's field formatter)",
    "disclosure": NOT_SEED_001 + " (seeds 000, 002 and 003's disclosure rows)",
}


class Unsupported(Exception):
    """This question cannot be answered here; the message is the reason."""


class Cal:
    """The parts of a question's calendar object that seed 001's logic uses."""

    __slots__ = ("zone", "first_weekday")

    def __init__(self, zone, first_weekday):
        self.zone = zone  # one shared ZoneInfo per key, so comparisons stay intra-zone
        self.first_weekday = first_weekday


# Parsed calendars keyed by the fields used: every question carries its own dict (json
# builds a new one each line), so identity is useless and the fields are the key.
_calendars = {}


def parse_calendar(obj):
    key = (obj["identifier"], obj["timeZone"], obj["firstWeekday"])
    cal = _calendars.get(key)
    if cal is None:
        identifier, zone_key, first_weekday = key
        if identifier not in CALENDARS:
            cal = f"{NAME} computes in the Gregorian calendar only"
        else:
            try:
                cal = Cal(ZoneInfo(zone_key), first_weekday)
            except (KeyError, ValueError, OSError):  # ZoneInfoNotFoundError is a KeyError
                cal = f"{NAME} knows no time zone {zone_key!r} (zoneinfo, system tzdata)"
        _calendars[key] = cal  # unsupported reasons are cached too
    if isinstance(cal, str):
        raise Unsupported(cal)
    return cal


# --- Foundation calls, mapped to the standard library ------------------------------

def local(t, cal):
    """Date(timeIntervalSince1970:) seen in the calendar's zone."""
    return datetime.fromtimestamp(t, cal.zone)


def start_of_day(t, cal):
    """calendar.startOfDay(for:): local midnight of the local date, fold=0."""
    return datetime.combine(local(t, cal).date(), time(0), tzinfo=cal.zone)


def start_of_month(t, cal):
    """calendar.dateInterval(of: .month, for:)?.start: local midnight of day 1."""
    return datetime.combine(local(t, cal).date().replace(day=1), time(0), tzinfo=cal.zone)


def weekday(dt):
    """calendar.component(.weekday, from:): 1 = Sunday ... 7 = Saturday."""
    return dt.isoweekday() % 7 + 1


# --- Seed 001's logic (CalendarRangeSelectorLogic and the demo) ---------------------

def leading_blanks(q, cal):
    first = start_of_month(q["month"], cal)
    return (weekday(first) - cal.first_weekday + 7) % 7


def days(q, cal):
    first = start_of_month(q["month"], cal)
    count = calendar.monthrange(first.year, first.month)[1]  # range(of: .day, in: .month)
    # range.compactMap { date(byAdding: .day, value: $0 - range.lowerBound, to: first) }
    return [(first + timedelta(days=n)).timestamp() for n in range(count)]


def selection_of(q, cal):
    """The selection's start and end as start-of-day datetimes (None when absent)."""
    sel = q["selection"]
    start, end = sel.get("start"), sel.get("end")
    return (None if start is None else start_of_day(start, cal),
            None if end is None else start_of_day(end, cal))


def selecting(q, cal):
    day = start_of_day(q["day"], cal)
    start, _ = selection_of(q, cal)
    if start is None or q["selection"].get("end") is not None or not day >= start:
        return {"start": day.timestamp()}
    return {"start": start.timestamp(), "end": day.timestamp()}


def role(q, cal):
    day = start_of_day(q["day"], cal)
    start, end = selection_of(q, cal)
    if start is None:
        return "outside"
    if end is None or end == start:
        return "single" if day == start else "outside"
    lower, upper = min(start, end), max(start, end)
    if day == lower:
        return "start"
    if day == upper:
        return "end"
    return "middle" if lower < day < upper else "outside"


def paging(q, cal):
    # calendar.date(byAdding: .month, value: offset, to: month)
    month = local(q["month"], cal)
    year, index = divmod(month.year * 12 + month.month - 1 + q["offset"], 12)
    length = calendar.monthrange(year, index + 1)[1]
    moved = month.replace(year=year, month=index + 1, day=min(month.day, length))
    return moved.timestamp()


def nights(q, cal):
    # calendar.dateComponents([.day], from: start, to: end).day ?? 0
    return (local(q["end"], cal) - local(q["start"], cal)).days


def text(q, cal):
    if q["kind"] != "day-label":
        raise Unsupported(f"{NAME} shows only day-label text: Python's standard library "
                          "has no CLDR month or weekday names")
    return str(local(q["date"], cal).day)  # String(calendar.component(.day, from: day))


FUNCTIONS = {
    "leadingBlanks": leading_blanks, "selecting": selecting, "role": role,
    "days": days, "paging": paging, "nights": nights, "text": text,
}


def hello(q):
    if q.get("protocol") != PROTOCOL:
        raise ValueError(f"{NAME} speaks {PROTOCOL}, not {q.get('protocol')!r}")
    return {"name": NAME, "version": VERSION, "functions": list(FUNCTIONS),
            "calendars": list(CALENDARS), "reasons": REASONS}


def answer(q):
    """The answer object for one parsed question (whose id is already checked)."""
    qid, function = q["id"], q.get("function")
    try:
        if function == "hello":
            return {"id": qid, "answer": hello(q)}
        handler = FUNCTIONS.get(function)
        if handler is None:
            raise Unsupported(REASONS.get(function, f"{NAME} has no function {function!r}"))
        return {"id": qid, "answer": handler(q, parse_calendar(q["calendar"]))}
    except Unsupported as reason:
        return {"id": qid, "unsupported": str(reason)}
    except Exception as failure:  # the case errors; the executor carries on
        return {"id": qid, "error": f"{type(failure).__name__}: {failure}"}


def main():
    # Bad bytes must not kill the loop; json.dumps escapes to ASCII, so stdout is safe.
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    write, flush = sys.stdout.write, sys.stdout.flush
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
            qid = q["id"]
            if type(qid) is not int or qid < 0:
                raise ValueError(f"id {qid!r} is not an integer >= 0")
        except Exception as failure:
            # No id to echo, and ids must be >= 0: nothing on stdout, a note on stderr.
            print(f"{NAME}: line {number} is not a question: "
                  f"{type(failure).__name__}: {failure}", file=sys.stderr, flush=True)
            continue
        write(json.dumps(answer(q), separators=(",", ":")) + "\n")
        flush()  # the harness waits for each answer before blaming a silence
    return 0


if __name__ == "__main__":
    sys.exit(main())
