"""Zone offsets and transitions, 1970-01-01T00:00Z to 2038-01-01T00:00Z, for every zone of
one IANA tz release, read from its compiled TZif files.

    python3 -m reference.tz OUT_DIR RELEASE

RELEASE is the IANA version carried by the pinned `tzdata` wheel on the path (2022e, 2025b,
or "newest", which is named by the version line of the wheel's tzdata.zi), or "system" for
this machine's /usr/share/zoneinfo (Debian's tzdata package, named by its Debian version).

Writes OUT_DIR/tz/<release>/transitions.tsv.gz: for each zone, sorted by zone id, one row
with the offset in force at the window start (utc_seconds 0), then one row per transition
before the window end (the state after it). Transitions come from the file's 64-bit (v2+)
data, extended past its last explicit transition by its POSIX TZ footer (RFC 8536 section
3.3); a "transition" that changes neither the offset, the DST flag nor the abbreviation is
left out, and of several at the same instant the last wins.
"""
import os
import pathlib
import re
import struct
import subprocess
import sys

from reference import common

WINDOW_START = 0             # 1970-01-01T00:00:00Z
WINDOW_END = 2145916800      # 2038-01-01T00:00:00Z (exclusive)
SKIPPED = {"posixrules", "Factory", "localtime"}
SKIPPED_DIRS = {"posix", "right"}   # the system's duplicate and leap-second trees


# ---- TZif (RFC 8536) -------------------------------------------------------------------

def parse_tzif(data: bytes):
    """(transitions [(utc, type index)], types [(utoff, isdst, abbr)], footer) from the
    version 2+ 64-bit block, or the version 1 block of a version 1 file."""
    def block(offset, time_size):
        (isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt) = struct.unpack(
            ">6l", data[offset + 20:offset + 44])
        pos = offset + 44
        fmt = ">%d%s" % (timecnt, "q" if time_size == 8 else "l")
        times = struct.unpack(fmt, data[pos:pos + timecnt * time_size])
        pos += timecnt * time_size
        indexes = data[pos:pos + timecnt]
        pos += timecnt
        raw_types = []
        for _ in range(typecnt):
            utoff, isdst, abbrind = struct.unpack(">lBB", data[pos:pos + 6])
            raw_types.append((utoff, isdst, abbrind))
            pos += 6
        chars = data[pos:pos + charcnt]
        pos += charcnt
        pos += leapcnt * (time_size + 4) + isstdcnt + isutcnt
        types = []
        for utoff, isdst, abbrind in raw_types:
            end = chars.index(b"\0", abbrind)
            types.append((utoff, isdst, chars[abbrind:end].decode("ascii")))
        return list(zip(times, indexes)), types, pos

    if data[:4] != b"TZif":
        raise ValueError("not a TZif file")
    version = data[4:5]
    transitions, types, end = block(0, 4)
    footer = ""
    if version >= b"2":
        transitions, types, end = block(end, 8)
        # footer: "\n" TZ string "\n"
        newline = data.index(b"\n", end + 1)
        footer = data[end + 1:newline].decode("ascii")
    return transitions, types, footer


# ---- POSIX TZ strings (POSIX.1-2017 8.3, with RFC 8536's extensions) -------------------

_NAME = r"(<[^>]*>|[A-Za-z]{3,})"
_OFFSET = r"([+-]?\d{1,3}(?::\d{1,2}(?::\d{1,2})?)?)"
_RULE = r"(J\d{1,3}|\d{1,3}|M\d{1,2}\.\d\.\d)(?:/([+-]?\d{1,3}(?::\d{1,2}(?::\d{1,2})?)?))?"
_TZ = re.compile(r"^" + _NAME + _OFFSET + r"(?:" + _NAME + _OFFSET + r"?" +
                 r"(?:," + _RULE + r"," + _RULE + r")?)?$")


def _seconds(text: str) -> int:
    sign = -1 if text.startswith("-") else 1
    parts = [int(p) for p in text.lstrip("+-").split(":")] + [0, 0]
    return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])


def _name(text: str) -> str:
    return text[1:-1] if text.startswith("<") else text


def parse_footer(footer: str):
    """None for an empty footer; else (std, dst, start rule, end rule) where std and dst
    are (utoff, isdst, abbr) and the rules are (date rule, seconds after local midnight);
    dst and the rules are None for a zone without DST."""
    if not footer:
        return None
    match = _TZ.match(footer)
    if not match:
        raise ValueError(f"unparsed TZ string {footer!r}")
    std_name, std_off, dst_name, dst_off, start, start_time, end, end_time = match.groups()
    std = (-_seconds(std_off), 0, _name(std_name))     # POSIX offsets are west-positive
    if dst_name is None:
        return std, None, None, None
    dst_utoff = -_seconds(dst_off) if dst_off else std[0] + 3600
    dst = (dst_utoff, 1, _name(dst_name))
    if start is None:
        # POSIX leaves the default rule to the implementation; zic never omits it.
        raise ValueError(f"TZ string without rules {footer!r}")
    rule = lambda r, t: (r, _seconds(t) if t else 7200)  # noqa: E731
    return std, dst, rule(start, start_time), rule(end, end_time)


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _is_leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _rule_day(rule: str, year: int) -> int:
    """Days since the epoch of the local date a rule names in year."""
    if rule.startswith("J"):          # Jn: 1..365, February 29 never counted
        n = int(rule[1:])
        day = n - 1 + (1 if _is_leap(year) and n >= 60 else 0)
        return _days_from_civil(year, 1, 1) + day
    if rule.startswith("M"):          # Mm.w.d: day d (0 = Sunday) of week w (5 = last)
        m, w, d = (int(x) for x in rule[1:].split("."))
        first = _days_from_civil(year, m, 1)
        weekday_first = (first + 4) % 7  # 1970-01-01 was a Thursday (4)
        day = first + (d - weekday_first) % 7 + (w - 1) * 7
        next_month = _days_from_civil(year + (m == 12), m % 12 + 1, 1)
        while day >= next_month:
            day -= 7
        return day
    return _days_from_civil(year, 1, 1) + int(rule)   # n: 0..365, February 29 counted


def footer_transitions(rules, first_year: int, last_year: int):
    """[(utc, (utoff, isdst, abbr))] the footer's DST rules give in these years, sorted."""
    std, dst, start, end = rules
    out = []
    for year in range(first_year, last_year + 1):
        # The start is given in standard local time, the end in daylight local time.
        begin = _rule_day(start[0], year) * 86400 + start[1] - std[0]
        finish = _rule_day(end[0], year) * 86400 + end[1] - dst[0]
        out.append((begin, 1, dst))
        out.append((finish, 0, std))
    out.sort(key=lambda item: (item[0], item[1]))
    return [(utc, state) for utc, _, state in out]


def _year_of(utc: int) -> int:
    return 1970 + utc // 31556952 if utc >= 0 else 1969 + (utc + 1) // 31556952


def zone_rows(data: bytes):
    """[(utc_seconds, offset, is_dst, abbr)] in the window, starting with the state at its
    start."""
    transitions, types, footer = parse_tzif(data)
    rules = parse_footer(footer)
    states = [(utc, types[index]) for utc, index in transitions]
    last = states[-1][0] if states else None
    if rules is not None and rules[1] is not None:
        first_year = (_year_of(last) - 1) if last is not None else 1969
        states += [(utc, state) for utc, state in
                   footer_transitions(rules, max(first_year, 1969), 2038)
                   if last is None or utc > last]
    # The state before the first transition: time type 0 (RFC 8536 3.2); with no explicit
    # transition, the footer's standard time (its rules, run from 1969, then apply).
    current = types[0] if transitions or rules is None else rules[0]
    rows = []
    for utc, state in states:
        if utc <= WINDOW_START:
            current = state
            continue
        if utc >= WINDOW_END:
            break
        if not rows:
            rows.append((WINDOW_START, current))
        if rows[-1][0] == utc:
            rows[-1] = (utc, state)
        else:
            rows.append((utc, state))
    if not rows:
        rows.append((WINDOW_START, current))
    # Leave out transitions that change nothing (including ones made so by a same-instant
    # replacement above).
    out = []
    for utc, state in rows:
        if out and out[-1][1] == state:
            continue
        out.append((utc, state))
    return [(utc, utoff, isdst, abbr) for utc, (utoff, isdst, abbr) in out]


# ---- releases --------------------------------------------------------------------------

def zone_files(root: pathlib.Path):
    """{zone id: path} of every TZif file under root (links followed)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = pathlib.Path(dirpath).relative_to(root)
        if rel_dir == pathlib.Path("."):
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS]
        # Directory symlinks (none in the releases used here) are not followed.
        for name in filenames:
            if name in SKIPPED:
                continue
            path = pathlib.Path(dirpath) / name
            try:
                with open(path, "rb") as handle:
                    magic = handle.read(4)
            except OSError:
                continue
            if magic != b"TZif":
                continue
            zone = (rel_dir / name).as_posix()
            found[zone] = path
    return found


def release_source(release: str):
    """(zoneinfo root, release name, source line, notes)."""
    if release == "system":
        root = pathlib.Path("/usr/share/zoneinfo")
        version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "tzdata"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        zi = (root / "tzdata.zi").read_text().splitlines()[:2]
        iana = zi[0].removeprefix("# version ").strip()
        notes = [f"Debian's build of IANA {iana}: tzdata.zi begins {' / '.join(zi)!r}.",
                 "Debian builds with PACKRATDATA=backzone PACKRATLIST=zone.tab (its "
                 "changelog: since 2022g-3 and 2023c-4): zones that upstream merged into "
                 "others keep their own data, mostly before 1970, but the backzone "
                 "definitions of EET, MET and WET (rule-based zones that upstream 2024b "
                 "made links to Europe/Athens, Brussels, Lisbon) differ from upstream's in "
                 "the window too (for 2025b: as in 2022e).",
                 "Zone ids: /usr/share/zoneinfo less posix/, right/, posixrules, "
                 "localtime, Factory; links (symlinks) are listed under their own names."]
        return (root, f"system-{version}", f"Debian package tzdata {version} "
                f"(/usr/share/zoneinfo)", f"IANA {iana} as built by Debian {version}",
                notes)
    import tzdata  # the pinned wheel
    root = pathlib.Path(tzdata.__file__).parent / "zoneinfo"
    first = (root / "tzdata.zi").read_text().splitlines()[0]
    iana = first.removeprefix("# version ").strip()
    if release != "newest" and release != iana:
        raise SystemExit(f"tzdata {tzdata.__version__} carries IANA {iana}, not {release}")
    notes = ["Zone ids: every TZif file of the wheel's tzdata/zoneinfo (backward links are "
             "separate files there) less posixrules, localtime, Factory."]
    return (root, iana, f"PyPI tzdata=={tzdata.__version__} (tzdata/zoneinfo)",
            f"IANA {iana}", notes)


def main(argv) -> int:
    out_dir, release = pathlib.Path(argv[0]), argv[1]
    root, name, source, release_line, notes = release_source(release)
    files = zone_files(root)
    rows = []
    for zone in sorted(files):
        for utc, utoff, isdst, abbr in zone_rows(files[zone].read_bytes()):
            rows.append((zone, utc, utoff, isdst, abbr))
    header = [f"source: {source}",
              f"release: {release_line}",
              f"zones: {len(files)}",
              "window: 1970-01-01T00:00:00Z (utc_seconds 0) to 2038-01-01T00:00:00Z "
              "(2145916800, exclusive)",
              "The first row of each zone is the state in force at the window start; each "
              "later row a transition (the state after it). From each file's 64-bit TZif "
              "data, extended by its POSIX TZ footer; no-op transitions left out.",
              *notes,
              "columns: zone\tutc_seconds\toffset_seconds\tis_dst\tabbreviation"]
    target = out_dir / "tz" / ("system" if release == "system" else name) / "transitions.tsv.gz"
    common.write_gzip(target, header, rows)
    print(f"{target}: {len(files)} zones, {len(rows)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
