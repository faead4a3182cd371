"""CLDR week data and narrow weekday names, as one babel release (one CLDR release) has them.

    python3 -m reference.cldr OUT_DIR RELEASE     (run by generate.py with babel pinned)

Writes under OUT_DIR/cldr/<release>/:
- first-day.tsv: each locale spelling the harness can sweep -> its first day of the week by
  UTS #35: the `fw` keyword if the spelling has one, else the week data of the `rg`
  keyword's region if it has one, else babel's value for the locale (CLDR weekData firstDay
  of the locale's region, or of its likely region when it names none);
- narrow-weekdays.tsv: the same spellings -> stand-alone narrow weekday names, Sunday first
  (CLDR's gregorian calendar: root aliases the other calendars' day names to it);
- territory-first-day.tsv: region -> firstDay, as babel's locales of that region state it;
- script.tsv: the same spellings -> the script their texts are written in (UTS #35: the
  spelling's script subtag, else likelySubtags of language and region, else of language).

The spellings are libicu 72's available locales (uloc_getAvailable, through ctypes) plus
Corpora/locales-core.txt and Corpora/locale-variants.txt: exactly what `--locales all` and the
core corpus sweep. A spelling babel cannot resolve gets no row (the harness reports
`no-reference` for it).
"""
import ctypes
import os
import pickle
import pathlib
import re
import sys

import babel
import babel.localedata
from babel import Locale
from babel.core import UnknownLocaleError
from babel.core import get_global
from babel.localedata import locale_identifiers

from reference import common

DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]  # babel's 0...6


def harness_locales() -> list:
    icu = ctypes.CDLL("libicuuc.so.72")
    icu.uloc_getAvailable_72.restype = ctypes.c_char_p
    spellings = {icu.uloc_getAvailable_72(i).decode() for i in range(icu.uloc_countAvailable_72())}
    for name in ["locales-core.txt", "locale-variants.txt"]:
        for line in (common.REPO / "Corpora" / name).read_text().splitlines():
            value = line.split("|")[0].strip()
            if value and not value.startswith("#"):
                spellings.add(value)
    return sorted(spellings)


def split(spelling: str):
    """(base id with '_', keywords) of an ICU (`de_DE@fw=sun`) or BCP 47 (`en-US-u-fw-mon`)
    spelling."""
    keywords = {}
    if "@" in spelling:
        base, _, rest = spelling.partition("@")
        for pair in rest.split(";"):
            key, _, value = pair.partition("=")
            keywords[key.strip().lower()] = value.strip().lower()
        return base, keywords
    parts = spelling.replace("_", "-").split("-")
    if "u" in [p.lower() for p in parts[1:]]:
        at = [p.lower() for p in parts].index("u", 1)
        base_parts, extension = parts[:at], [p.lower() for p in parts[at + 1:]]
        key = None
        for part in extension:
            if len(part) == 2 and part.isalpha() or (len(part) == 2 and part[1].isdigit()):
                key = part
                keywords[key] = ""
            elif key:
                keywords[key] = (keywords[key] + "-" + part).strip("-")
        parts = base_parts
    return "_".join(parts), keywords


def resolve(base: str):
    try:
        return Locale.parse(base)
    except (UnknownLocaleError, ValueError):
        return None


def own_data(identifier: str) -> dict:
    """A locale's own data file, unmerged, read past babel's cache (babel's
    load(merge_inherited=False) caches the unmerged data, and every later Locale of that name
    would then lose its inherited names)."""
    with open(os.path.join(os.path.dirname(babel.localedata.__file__), "locale-data",
                           f"{identifier}.dat"), "rb") as file:
        return pickle.load(file)


def stand_alone_narrow(locale):
    """The stand-alone narrow day names, or the format ones where the locale (and its parents)
    has none: CLDR's root aliases dayContext stand-alone to format for each width."""
    for context in ["stand-alone", "format"]:
        try:
            names = locale.days[context]["narrow"]
            return {i: names[i] for i in range(7)}
        except KeyError:
            continue
    return None


def main() -> None:
    out, release = pathlib.Path(sys.argv[1]), sys.argv[2]
    version = babel.__version__
    if release == "newest":
        release = babel.core.get_cldr_version()
    source = (f"babel {version} (PyPI), which bundles CLDR {release} (cldr-common-{release}.0); "
              "spellings: libicu 72 uloc_getAvailable, Corpora/locales-core.txt, "
              "Corpora/locale-variants.txt")
    # The region -> firstDay table, from each babel locale's own (unmerged) week data: babel
    # writes a locale's first_day only where a firstDay element lists its region or a region
    # containing it, and its merge then lets a child inherit its parent's (pt_AO reads
    # pt_PT's Sunday in babel 2.12.1 though CLDR gives AO the world's Monday). A locale's own
    # value other than Monday names its region explicitly; missing means the world's (001).
    territories = {}
    for identifier in sorted(locale_identifiers()):
        locale = resolve(identifier)
        if locale is None or not locale.territory or not re.fullmatch(r"[A-Z]{2}", locale.territory):
            continue
        own = own_data(identifier).get("week_data", {}).get("first_day")
        territories.setdefault(locale.territory, set()).add(DAYS[own] if own is not None else "mon")
    disagree = {t: days for t, days in territories.items() if len(days) > 1}
    if disagree:
        raise SystemExit(f"babel {version}: locales of one region disagree on the first day: {disagree}")
    territory_day = {t: next(iter(days)) for t, days in territories.items()}
    likely = get_global("likely_subtags")

    first_rows, name_rows, script_rows = [], [], []
    for spelling in harness_locales():
        base, keywords = split(spelling)
        subtags = base.split("_")
        script = next((s.title() for s in subtags[1:2] if re.fullmatch(r"[A-Za-z]{4}", s)), "")
        how = "subtag"
        if not script:
            region = next((s.upper() for s in subtags[1:] if re.fullmatch(r"[A-Za-z]{2}|[0-9]{3}", s)), "")
            for key in ([f"{subtags[0]}_{region}"] if region else []) + [subtags[0]]:
                expanded = likely.get(key, "")
                script = next((s for s in expanded.split("_")[1:2] if re.fullmatch(r"[A-Z][a-z]{3}", s)), "")
                if script:
                    how = f"likely {key} -> {expanded}"
                    break
        if script:
            script_rows.append((spelling, script, how))
        locale = resolve(base)
        if locale is None:
            continue
        region, how = keywords.get("rg", "")[:2].upper(), f"rg={keywords.get('rg')}"
        if not region:
            subtags = base.split("_")
            region = next((s.upper() for s in subtags[1:] if re.fullmatch(r"[A-Za-z]{2}|[0-9]{3}", s)), "")
            how = "region"
        if not region:
            # UTS #35: a locale that names no region takes its likely region.
            expanded = likely.get("_".join(base.split("_")[:2])) or likely.get(base.split("_")[0], "")
            region = next((s for s in expanded.split("_")[1:] if re.fullmatch(r"[A-Z]{2}", s)), "")
            how = f"likely {expanded}"
        day = territory_day.get(region)
        if keywords.get("fw") in DAYS:
            day, how = keywords["fw"], f"fw={keywords['fw']}"
        if day:
            first_rows.append((spelling, day, how, str(locale)))
        narrow = stand_alone_narrow(locale)
        if narrow is None:
            continue
        names = [narrow[6]] + [narrow[i] for i in range(6)]
        if any("\t" in name or "\n" in name for name in names):
            raise SystemExit(f"{spelling}: a weekday name holds a tab or newline")
        name_rows.append((spelling, *names, str(locale)))

    folder = out / "cldr" / release
    common.write_text(folder / "first-day.tsv", [
        f"source: {source}",
        f"release: CLDR {release}",
        "rule: UTS #35 first day: the fw keyword, else weekData firstDay of the rg keyword's "
        "region, else of the locale's region, else of its likely region (likelySubtags); a region "
        "no babel locale has gets no row",
        "columns: locale\tfirst_day\tfrom\tcldr_locale",
    ], first_rows)
    common.write_text(folder / "narrow-weekdays.tsv", [
        f"source: {source}",
        f"release: CLDR {release}",
        "rule: dayContext stand-alone, dayWidth narrow, gregorian (root aliases the other "
        "calendars' day names to it); keywords do not change names",
        "columns: locale\tsun\tmon\ttue\twed\tthu\tfri\tsat\tcldr_locale",
    ], name_rows)
    common.write_text(folder / "territory-first-day.tsv", [
        f"source: babel {version} (PyPI), which bundles CLDR {release}: every babel locale of "
        "the region states this first day",
        f"release: CLDR {release}",
        "columns: region\tfirst_day",
    ], sorted(territory_day.items()))
    common.write_text(folder / "script.tsv", [
        f"source: {source}",
        f"release: CLDR {release}",
        "rule: UTS #35: the spelling's script subtag, else likelySubtags of language_region, "
        "else of language; ISO 15924 codes",
        "columns: locale\tscript\tfrom",
    ], script_rows)
    print(f"cldr/{release}: {len(script_rows)} scripts, {len(first_rows)} first days, {len(name_rows)} name rows, "
          f"{len(territory_day)} regions")


if __name__ == "__main__":
    main()
