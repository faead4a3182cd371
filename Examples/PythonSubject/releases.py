#!/usr/bin/env python3
"""py-releases: a picker's date math on pinned data releases, which it declares.

A conformance-executor/1 executor (Schemas/executor-protocol.schema.json) that answers the
correct answers (Documentation/ExecutorProtocol.md's rules) for Gregorian months from two
pinned PyPI releases, and says which in `hello`'s `data`:

  weekday headers  Babel 2.17.0, which bundles CLDR 46: stand-alone narrow names, from the
                   first weekday the question's calendar carries
  day starts       PyPI tzdata 2025.2 (IANA 2025b) through zoneinfo, the system's zone files
                   left out, so the release is the one declared whatever the machine has

libicu 72 carries CLDR 42 and tz 2022e. Where the two releases differ (Catalan's 'dg.',
Tehran's 1978 clocks, Nuuk's 2037) the harness's expected column is libicu's older answer; the reference
(Corpora/reference) shows this executor following the releases it declares, so those cases
are `oracle-stale`, not failures.

    pip install babel==2.17.0 tzdata==2025.2
    swift run conformance --subject exec:'python3 Examples/PythonSubject/releases.py' \\
        --checks weekday-symbols,month-days,leading-blanks,same-day-closing --calendars gregorian \\
        --locales ca_ES,xh_ZA,ar_AE,de_DE --time-zones UTC,Asia/Tehran,America/Nuuk --years 1978...2037
"""

import calendar
import json
import sys
import zoneinfo
from datetime import date, datetime, time, timedelta, timezone

import babel
import tzdata
from babel import Locale

NAME, VERSION, PROTOCOL = "py-releases", "1.0", "conformance-executor/1"
# Babel does not state its CLDR release at run time; its changelog does, per version.
CLDR_OF_BABEL = {"2.17.0": "46"}

# The zone data is PyPI tzdata's alone: no system zone files.
zoneinfo.reset_tzpath(to=())


class Unsupported(Exception):
    """This question cannot be answered here; the message is the reason."""


def zone(calendar_object):
    if calendar_object["identifier"] not in ("gregorian", "iso8601"):
        raise Unsupported(f"{NAME} computes in the Gregorian calendar only")
    try:
        return zoneinfo.ZoneInfo(calendar_object["timeZone"])
    except (KeyError, ValueError, OSError):
        raise Unsupported(f"tzdata {tzdata.IANA_VERSION} has no zone {calendar_object['timeZone']!r}")


def day_start(day, tz):
    """The first instant whose local date is `day`: midnight, or the end of a gap over it."""
    guess = min(datetime.combine(day, time(0, fold=fold), tzinfo=tz).timestamp() for fold in (0, 1))
    low, high = guess - 86400, guess + 86400
    while high - low > 1:  # the first second whose local date is `day` or later
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, tz).date() >= day:
            high = middle
        else:
            low = middle
    return float(high)


def month_of(q, tz):
    local = datetime.fromtimestamp(q["month"], tz).date()
    return local.replace(day=1), calendar.monthrange(local.year, local.month)[1]


def days(q):
    tz = zone(q["calendar"])
    first, length = month_of(q, tz)
    return [day_start(first + timedelta(days=n), tz) for n in range(length)]


def leading_blanks(q):
    first, _ = month_of(q, zone(q["calendar"]))
    sunday_one = first.isoweekday() % 7 + 1
    return (sunday_one - q["calendar"]["firstWeekday"] + 7) % 7


def closes(q):
    """Another local date: the inline picker closes."""
    tz = zone(q["calendar"])
    return datetime.fromtimestamp(q["old"], tz).date() != datetime.fromtimestamp(q["new"], tz).date()


def weekday_symbols(q):
    spelling = q["calendar"]["locale"].split("@")[0]
    try:
        names = Locale.parse(spelling).days["stand-alone"]["narrow"]  # 0 is Monday
    except (ValueError, LookupError) as error:
        raise Unsupported(f"Babel {babel.__version__} cannot read locale {spelling!r}: {error}")
    sunday_first = [names[(index + 6) % 7] for index in range(7)]
    start = q["calendar"]["firstWeekday"] - 1
    return sunday_first[start:] + sunday_first[:start]


FUNCTIONS = {"leadingBlanks": leading_blanks, "days": days, "closes": closes,
             "weekdaySymbols": weekday_symbols}


def hello(q):
    data = {"tz": tzdata.IANA_VERSION}
    if babel.__version__ in CLDR_OF_BABEL:
        data["cldr"] = CLDR_OF_BABEL[babel.__version__]
    return {"name": NAME, "version": VERSION, "functions": list(FUNCTIONS),
            "calendars": ["gregorian", "iso8601"], "data": data}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        q = json.loads(line)
        try:
            if q["function"] == "hello":
                reply = {"id": q["id"], "answer": hello(q)}
            elif q["function"] in FUNCTIONS:
                reply = {"id": q["id"], "answer": FUNCTIONS[q["function"]](q)}
            else:
                reply = {"id": q["id"], "unsupported": f"{NAME} has no {q['function']}"}
        except Unsupported as reason:
            reply = {"id": q["id"], "unsupported": str(reason)}
        except Exception as failure:
            reply = {"id": q["id"], "error": f"{type(failure).__name__}: {failure}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
