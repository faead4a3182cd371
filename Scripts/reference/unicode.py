"""Unicode's Script property, as ranges: which script each letter of a text is written in.

    python3 -m reference.unicode OUT_DIR     (run by generate.py)

Reads Debian's `unicode-data` package (/usr/share/unicode: Scripts.txt and
PropertyValueAliases.txt of one Unicode release) and writes OUT_DIR/unicode/scripts.tsv:
code point ranges (hex, inclusive) -> ISO 15924 code, adjacent ranges of one script merged.
Common (Zyyy) and Inherited (Zinh) are left out: digits, punctuation and combining marks
say nothing of a text's script.
"""
import pathlib
import re
import sys

from reference import common

UCD = pathlib.Path("/usr/share/unicode")


def release() -> str:
    first = (UCD / "Scripts.txt").read_text(encoding="utf-8").splitlines()[0]
    found = re.match(r"# Scripts-(\d+\.\d+\.\d+)\.txt", first)
    if not found:
        raise SystemExit(f"{UCD}/Scripts.txt: no version in its first line: {first!r}")
    return found.group(1)


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    if not (UCD / "Scripts.txt").exists():
        raise SystemExit(f"{UCD}/Scripts.txt is missing: apt-get install unicode-data")
    codes = {}
    for line in (UCD / "PropertyValueAliases.txt").read_text(encoding="utf-8").splitlines():
        fields = [f.strip() for f in line.split("#")[0].split(";")]
        if len(fields) >= 3 and fields[0] == "sc":
            codes[fields[2]] = fields[1]
    ranges = []
    for line in (UCD / "Scripts.txt").read_text(encoding="utf-8").splitlines():
        data = line.split("#")[0].strip()
        if not data:
            continue
        points, name = [f.strip() for f in data.split(";")]
        first, _, last = points.partition("..")
        code = codes[name]
        if code in ("Zyyy", "Zinh"):
            continue
        ranges.append((int(first, 16), int(last or first, 16), code))
    ranges.sort()
    merged = []
    for first, last, code in ranges:
        if merged and merged[-1][2] == code and merged[-1][1] + 1 == first:
            merged[-1] = (merged[-1][0], last, code)
        else:
            merged.append((first, last, code))
    version = release()
    common.write_text(out / "unicode" / "scripts.tsv", [
        f"source: Unicode Character Database {version}, Scripts.txt and PropertyValueAliases.txt "
        "(Debian package unicode-data)",
        f"release: Unicode {version}",
        "rule: Script property by code point; Common and Inherited left out; adjacent ranges of "
        "one script merged",
        "columns: first\tlast\tscript (hex code points, inclusive; ISO 15924)",
    ], [(f"{a:04X}", f"{b:04X}", c) for a, b, c in merged])
    print(f"unicode/scripts.tsv: {len(merged)} ranges, Unicode {version}")


if __name__ == "__main__":
    main()
