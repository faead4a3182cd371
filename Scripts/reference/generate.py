#!/usr/bin/env python3
"""Regenerates Corpora/reference/ from published releases, and its MANIFEST.tsv.

    python3 Scripts/reference/generate.py                 # everything (a few minutes)
    python3 Scripts/reference/generate.py --only cldr-42  # one part
    python3 Scripts/reference/generate.py --out DIR       # elsewhere (tests compare)
    python3 Scripts/reference/generate.py --check         # the committed files against
                                                          # MANIFEST.tsv (CI)

Every part runs in its own process with exactly the pinned wheels it names on its path
(PyPI: babel releases bundle one CLDR release each, tzdata pins one IANA release, the
calendar packages carry published arithmetic and official tables). These are build-time
tools: the harness reads only the files written here. Each file's header names its source
and release; the manifest lists every file with its SHA-256, and the same inputs give the
same bytes.
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from reference import common  # noqa: E402

# name -> (module under Scripts/reference, [(package, version)], arguments)
PARTS = {
    # CLDR 42: libicu 72's release. babel 2.12.1 imports cldr-common-42.0 (its
    # scripts/download_import_cldr.py); babel 2.11 still carried CLDR 41.
    "cldr-42": ("reference.cldr", [("babel", "2.12.1")], ["42"]),
    # CLDR 46: Foundation's ICU 76.1. babel 2.17.0 imports cldr-common-46.0.
    "cldr-46": ("reference.cldr", [("babel", "2.17.0")], ["46"]),
    # The newest CLDR a babel release carries here (babel 2.19.0: CLDR 49).
    "cldr-newest": ("reference.cldr", [("babel", "2.19.0")], ["newest"]),
    # IANA tz 2022e: libicu 72's zoneinfo64 (tzdata 2022.5 carries "# version 2022e").
    "tz-2022e": ("reference.tz", [("tzdata", "2022.5")], ["2022e"]),
    # IANA tz 2025b: Foundation's ICU 76 and Debian 12's tzdata 2025b-0+deb12u2.
    "tz-2025b": ("reference.tz", [("tzdata", "2025.2")], ["2025b"]),
    # The newest tzdata on PyPI here: 2026.6 carries IANA 2026f.
    "tz-newest": ("reference.tz", [("tzdata", "2026.6")], ["newest"]),
    # This machine's /usr/share/zoneinfo (Debian's build, with backzone).
    "tz-system": ("reference.tz", [], ["system"]),
    # Unicode's Script property (Debian's unicode-data: the UCD files), for the script a
    # date text is written in.
    "unicode": ("reference.unicode", [], []),
    # Month starts of the calendars both ICUs know: convertdate (arithmetic Hebrew, tabular
    # Islamic, Coptic/Ethiopic, Indian; its pymeeus dependency serves only its astronomical
    # modules, unused, and ships no wheel), jalali-core (33-year arithmetic Persian),
    # hijridate (official Umm al-Qura table), borax (Chinese tables 1900-2100; lunardate
    # 0.3.0's differ from the new moons in 1933, 1954, 1978), korean-lunar-calendar
    # (Dangi, KASI).
    "calendars": ("reference.calendars", [("convertdate", "2.5.1"), ("hijridate", "2.6.0"),
                                          ("jalali-core", "1.0.0"), ("borax", "4.1.3"),
                                          ("korean-lunar-calendar", "0.4.0")], []),
}


def manifest_rows(root: pathlib.Path):
    rows = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        if relative in ("MANIFEST.tsv", "README.md"):
            continue
        head = common.header(path)
        if "source" not in head or "release" not in head:
            raise SystemExit(f"{path}: its header names no source or release")
        rows.append((relative, common.sha256(path), path.stat().st_size, head["source"],
                     head["release"]))
    return rows


def write_manifest(root: pathlib.Path) -> None:
    common.write_text(root / "MANIFEST.tsv",
                      ["Every file under Corpora/reference/, written by "
                       "Scripts/reference/generate.py",
                       "path\tsha256\tbytes\tsource\trelease"],
                      manifest_rows(root))


def check(root: pathlib.Path) -> int:
    """Exit status 0 when every file matches the manifest and the manifest lists every file."""
    listed = {}
    for number, line in enumerate((root / "MANIFEST.tsv").read_text().splitlines(), 1):
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            print(f"{root}/MANIFEST.tsv:{number}: expected 5 fields, found {len(fields)}",
                  file=sys.stderr)
            return 1
        listed[fields[0]] = fields[1]
    found = {row[0]: row[1] for row in manifest_rows(root)}
    problems = [f"{path}: not in MANIFEST.tsv" for path in sorted(set(found) - set(listed))]
    problems += [f"{path}: in MANIFEST.tsv, missing" for path in sorted(set(listed) - set(found))]
    problems += [f"{path}: sha256 {found[path]}, MANIFEST.tsv says {listed[path]}"
                 for path in sorted(set(found) & set(listed)) if found[path] != listed[path]]
    for problem in problems:
        print(f"Corpora/reference/{problem}", file=sys.stderr)
    if not problems:
        print(f"Corpora/reference: {len(found)} files match MANIFEST.tsv")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(PARTS),
                        help="regenerate only this part (repeatable)")
    parser.add_argument("--out", type=pathlib.Path, default=common.REFERENCE)
    parser.add_argument("--cache", type=pathlib.Path,
                        default=common.REPO / ".build" / "reference-cache",
                        help="where pinned wheels are unpacked")
    parser.add_argument("--check", action="store_true",
                        help="check the files against MANIFEST.tsv instead")
    args = parser.parse_args()
    if args.check:
        return check(args.out)
    for name in args.only or list(PARTS):
        module, packages, extra = PARTS[name]
        paths = [common.pinned(package, version, args.cache) for package, version in packages]
        print(f"== {name}: {module} with {', '.join(f'{p}=={v}' for p, v in packages) or 'no package'}",
              flush=True)
        common.run_with(paths, module, str(args.out), *extra)
    write_manifest(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
