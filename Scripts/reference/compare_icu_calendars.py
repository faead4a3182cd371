#!/usr/bin/env python3
"""Month starts of both ICUs against Corpora/reference/calendars/.

    python3 Scripts/reference/compare_icu_calendars.py [--from 1970-01-01] [--to 2037-12-31]
                                                       [--calendar NAME ...] [--tsv FILE]

Opens system libicu 72 (libicui18n.so.72, symbols suffixed _72) and Foundation's ICU 76
(lib_FoundationICU.so, symbols prefixed swift_) with ctypes. For each calendar, walks every
Gregorian day of the range at 12:00 UTC with a UTC calendar "en@calendar=NAME", and takes
the days where UCAL_DATE is 1 as month starts (year, UCAL_MONTH + 1, UCAL_IS_LEAP_MONTH,
the day, the days to the next start). Those are compared with the reference file's rows,
keyed by (year, month, leap), within the range (a month counts when either side starts it
in the range).

Prints per calendar the months where libicu differs from the reference, where Foundation's
ICU does, and where both ICUs agree with each other but not with the reference ("shared"):
an ICU-side defect or a reference that ICU does not follow. --tsv writes every differing
month. The default range is the harness's default window; the reference covers 1900-2100.
"""
import argparse
import ctypes
import datetime
import gzip
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
CALENDARS = REPO / "Corpora" / "reference" / "calendars"
LIBICU = "libicui18n.so.72"
FOUNDATION_ICU = "/opt/swift/usr/lib/swift/linux/lib_FoundationICU.so"

# UCalendarDateFields
ERA, YEAR, MONTH, DATE, EXTENDED_YEAR, IS_LEAP_MONTH = 0, 1, 2, 5, 19, 22
UCAL_DEFAULT = 0
DAY_MS = 86400000

# calendar -> how the reference's year column follows from ICU's fields
YEAR_OF = {
    # ICU's EXTENDED_YEAR is the Gregorian year for these; the reference counts era years.
    "buddhist": lambda get: get(YEAR),
    "roc": lambda get: get(YEAR) if get(ERA) == 1 else 1 - get(YEAR),
    "chinese": lambda get: get(EXTENDED_YEAR) - 2637,
    "dangi": lambda get: get(EXTENDED_YEAR) - 2333,
    # ICU's era 0 (Amete Alem) year; its EXTENDED_YEAR has counted Amete Mihret years.
    "ethiopic-amete-alem": lambda get: get(YEAR),
}

ALL = ["gregorian", "iso8601", "buddhist", "roc", "japanese", "hebrew", "islamic-civil",
       "islamic-tbla", "islamic-umalqura", "persian", "indian", "coptic", "ethiopic",
       "ethiopic-amete-alem", "chinese", "dangi"]


class ICU:
    def __init__(self, label: str, path: str, name):
        self.label = label
        self.lib = ctypes.CDLL(path)
        self.open = getattr(self.lib, name("ucal_open"))
        self.open.restype = ctypes.c_void_p
        self.open.argtypes = [ctypes.POINTER(ctypes.c_uint16), ctypes.c_int32, ctypes.c_char_p,
                              ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        self.close = getattr(self.lib, name("ucal_close"))
        self.close.argtypes = [ctypes.c_void_p]
        self.set_millis = getattr(self.lib, name("ucal_setMillis"))
        self.set_millis.argtypes = [ctypes.c_void_p, ctypes.c_double,
                                    ctypes.POINTER(ctypes.c_int)]
        self.get = getattr(self.lib, name("ucal_get"))
        self.get.restype = ctypes.c_int32
        self.get.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        self.get_type = getattr(self.lib, name("ucal_getType"))
        self.get_type.restype = ctypes.c_char_p
        self.get_type.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]

    def months(self, calendar: str, first: datetime.date, last: datetime.date):
        """({(year, month, leap): (first_day, length)}, ICU's type name). Walks from a
        little before first to well after last so that the months at both ends are whole."""
        zone = (ctypes.c_uint16 * 3)(*map(ord, "UTC"))
        status = ctypes.c_int(0)
        cal = self.open(zone, 3, f"en@calendar={calendar}".encode(), UCAL_DEFAULT,
                        ctypes.byref(status))
        if status.value > 0 or not cal:
            raise RuntimeError(f"{self.label}: ucal_open({calendar}) failed: {status.value}")
        try:
            kind = self.get_type(cal, ctypes.byref(status)).decode()
            year_of = YEAR_OF.get(calendar, lambda get: get(EXTENDED_YEAR))
            starts = []
            day = first - datetime.timedelta(days=1)
            end = last + datetime.timedelta(days=40)
            epoch = datetime.date(1970, 1, 1)
            while day <= end:
                millis = (day - epoch).days * DAY_MS + DAY_MS // 2
                self.set_millis(cal, float(millis), ctypes.byref(status))

                def get(field):
                    return self.get(cal, field, ctypes.byref(status))
                if get(DATE) == 1:
                    starts.append(((year_of(get), get(MONTH) + 1, get(IS_LEAP_MONTH)), day))
                if status.value > 0:
                    raise RuntimeError(f"{self.label}: {calendar} at {day}: {status.value}")
                day += datetime.timedelta(days=1)
            out = {}
            for (key, start), (_, following) in zip(starts, starts[1:]):
                out[key] = (start, (following - start).days)
            return out, kind
        finally:
            self.close(cal)


def reference(calendar: str):
    path = CALENDARS / f"{calendar}.tsv.gz"
    rows = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#"):
                continue
            year, month, leap, first, length = line.rstrip("\n").split("\t")
            rows[(int(year), int(month), int(leap))] = (datetime.date.fromisoformat(first),
                                                        int(length))
    return rows


def compare(calendar, icus, first, last):
    ref = reference(calendar)
    ref_first, ref_last = min(v[0] for v in ref.values()), max(v[0] for v in ref.values())
    sides = {}
    kinds = {}
    for icu in icus:
        sides[icu.label], kinds[icu.label] = icu.months(calendar, first, last)

    def in_range(value):
        return value is not None and first <= value[0] <= last

    def covered(value):   # the reference has data for that day
        return value is not None and ref_first <= value[0] <= ref_last

    keys = set()
    for side in [ref, *sides.values()]:
        keys |= {k for k, v in side.items() if in_range(v)}
    diffs = []
    for key in sorted(keys):
        r = ref.get(key)
        values = [sides[icu.label].get(key) for icu in icus]
        if r is None and not any(covered(v) for v in values):
            continue   # outside the reference's table (umalqura, dangi)
        if all(v == r for v in values):
            continue
        diffs.append((key, r, values))
    return diffs, kinds, len(keys)


def fmt(value):
    return "-" if value is None else f"{value[0].isoformat()}/{value[1]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="first", type=datetime.date.fromisoformat,
                        default=datetime.date(1970, 1, 1))
    parser.add_argument("--to", dest="last", type=datetime.date.fromisoformat,
                        default=datetime.date(2037, 12, 31))
    parser.add_argument("--calendar", action="append", choices=ALL)
    parser.add_argument("--tsv", type=pathlib.Path, help="write every differing month here")
    args = parser.parse_args()
    icus = [ICU("libicu72", LIBICU, lambda n: f"{n}_72"),
            ICU("foundation76", FOUNDATION_ICU, lambda n: f"swift_{n}")]
    out_rows = []
    print(f"range {args.first}..{args.last}; cells are first_day/length, '-' = no such month")
    for calendar in args.calendar or ALL:
        diffs, kinds, count = compare(calendar, icus, args.first, args.last)
        shared = [d for d in diffs if d[2][0] == d[2][1]]
        lib_only = [d for d in diffs if d[2][0] != d[1] and d[2][1] == d[1]]
        fnd_only = [d for d in diffs if d[2][1] != d[1] and d[2][0] == d[1]]
        both_differ = [d for d in diffs if d[2][0] != d[1] and d[2][1] != d[1]
                       and d[2][0] != d[2][1]]
        types = ", ".join(f"{k}={v}" for k, v in kinds.items())
        print(f"== {calendar} ({types}): {count} months; libicu72 != ref "
              f"{len(lib_only) + len(shared) + len(both_differ)}, foundation76 != ref "
              f"{len(fnd_only) + len(shared) + len(both_differ)}, shared "
              f"{len(shared)}, libicu72 only {len(lib_only)}, foundation76 only "
              f"{len(fnd_only)}, all three differ {len(both_differ)}")
        for label, group in (("shared", shared), ("libicu72 only", lib_only),
                             ("foundation76 only", fnd_only), ("all differ", both_differ)):
            for (year, month, leap), r, (lib, fnd) in group:
                print(f"   {label:17} {year}/{month}{'L' if leap else ''}: ref {fmt(r)}  "
                      f"libicu72 {fmt(lib)}  foundation76 {fmt(fnd)}")
                out_rows.append((calendar, label, year, month, leap, fmt(r), fmt(lib), fmt(fnd)))
    if args.tsv:
        args.tsv.write_text("calendar\tkind\tyear\tmonth\tleap\treference\tlibicu72\t"
                            "foundation76\n" + "".join("\t".join(map(str, row)) + "\n"
                                                        for row in out_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
