"""Tests of the reference generators: python3 -m unittest discover -s Scripts/reference -p 'test_*.py'

They need no network beyond pip fetching the pinned wheels once (cached in
.build/reference-cache, as the driver does).
"""
import gzip
import pathlib
import subprocess
import sys
import tempfile
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = REPO / "Corpora" / "reference"
GENERATE = REPO / "Scripts" / "reference" / "generate.py"


def rows(path: pathlib.Path):
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return [line.rstrip("\n").split("\t") for line in lines if not line.startswith("#")]


class TzAndCalendarsTest(unittest.TestCase):
    """Parts tz-* and calendars (Scripts/reference/tz.py, calendars.py)."""

    def regenerate(self, part: str, subdir: str):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(GENERATE), "--only", part, "--out", tmp],
                           check=True, cwd=REPO, capture_output=True)
            # (the driver also writes a MANIFEST.tsv of what it made: not compared here)
            made = sorted(p.relative_to(tmp) for p in pathlib.Path(tmp).rglob("*")
                          if p.is_file() and p.name != "MANIFEST.tsv")
            committed = sorted(p.relative_to(REFERENCE) for p in
                               (REFERENCE / subdir).rglob("*") if p.is_file())
            self.assertEqual(made, committed)
            for relative in made:
                self.assertEqual((pathlib.Path(tmp) / relative).read_bytes(),
                                 (REFERENCE / relative).read_bytes(), str(relative))

    def test_calendars_regenerate_byte_for_byte(self):
        self.regenerate("calendars", "calendars")

    def test_tz_2022e_regenerates_byte_for_byte(self):
        self.regenerate("tz-2022e", "tz/2022e")

    def month(self, calendar, year, month, leap=0):
        found = [r for r in rows(REFERENCE / "calendars" / f"{calendar}.tsv.gz")
                 if r[:3] == [str(year), str(month), str(leap)]]
        self.assertEqual(len(found), 1, (calendar, year, month, leap))
        return found[0][3]

    def test_documented_month_starts(self):
        # Rosh Hashanah 5785: Thursday 3 October 2024.
        self.assertEqual(self.month("hebrew", 5785, 1), "2024-10-03")
        # Ramadan 1445 by the Umm al-Qura calendar: Monday 11 March 2024.
        self.assertEqual(self.month("islamic-umalqura", 1445, 9), "2024-03-11")
        # Chinese New Year 2024 (Year of the Dragon): 10 February 2024; 2023 had a leap
        # second month (闰二月) from 22 March 2023; Seollal 2024: 10 February 2024.
        self.assertEqual(self.month("chinese", 2024, 1), "2024-02-10")
        self.assertEqual(self.month("chinese", 2023, 2, 1), "2023-03-22")
        self.assertEqual(self.month("dangi", 2024, 1), "2024-02-10")
        # Nowruz 1403 AP: 20 March 2024. Enkutatash 2017 and Nayrouz 1741: 11 September
        # 2024. Chaitra 1, Saka 1946: 21 March 2024 (a Gregorian leap year).
        self.assertEqual(self.month("persian", 1403, 1), "2024-03-20")
        self.assertEqual(self.month("ethiopic", 2017, 1), "2024-09-11")
        self.assertEqual(self.month("coptic", 1741, 1), "2024-09-11")
        self.assertEqual(self.month("indian", 1946, 1), "2024-03-21")

    def zone(self, release, zone):
        return [(int(t), int(o), int(d), a) for z, t, o, d, a in
                rows(REFERENCE / "tz" / release / "transitions.tsv.gz") if z == zone]

    def test_documented_transitions(self):
        # tzdata (europe): Lisbon "1:00 EU CE%sT 1996 Mar 31 1:00u" from 1992-09-27 1:00u.
        lisbon = self.zone("2022e", "Europe/Lisbon")
        self.assertIn((717555600, 3600, 0, "CET"), lisbon)      # 1992-09-27T01:00Z
        self.assertIn((828234000, 3600, 1, "WEST"), lisbon)     # 1996-03-31T01:00Z
        # tz 2024a: Vostok moved from +07 to +05 on 2023-12-18 (local midnight +07).
        self.assertEqual(self.zone("2025b", "Antarctica/Vostok")[-1],
                         (1702839600, 18000, 0, "+05"))
        # Before 2024a the zone was +06 throughout the window.
        self.assertEqual(self.zone("2022e", "Antarctica/Vostok"), [(0, 21600, 0, "+06")])
        # The first row of every zone is at the window start.
        for release in ("2022e", "2025b"):
            first = {}
            for z, t, *_ in rows(REFERENCE / "tz" / release / "transitions.tsv.gz"):
                first.setdefault(z, int(t))
            self.assertEqual(set(first.values()), {0})
            self.assertIn("Europe/Lisbon", first)


if __name__ == "__main__":
    unittest.main()


class CLDRTest(unittest.TestCase):
    """Parts cldr-* (Scripts/reference/cldr.py)."""

    def test_cldr_42_regenerates_byte_for_byte(self):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(GENERATE), "--only", "cldr-42", "--out", tmp],
                           check=True, cwd=REPO, capture_output=True)
            for name in ["first-day.tsv", "narrow-weekdays.tsv", "territory-first-day.tsv",
                         "script.tsv"]:
                self.assertEqual((pathlib.Path(tmp) / "cldr" / "42" / name).read_bytes(),
                                 (REFERENCE / "cldr" / "42" / name).read_bytes(), name)

    def first_day(self, release, locale):
        for line in (REFERENCE / "cldr" / release / "first-day.tsv").read_text().splitlines():
            fields = line.split("\t")
            if fields[0] == locale:
                return fields[1]
        return None

    def test_documented_week_data(self):
        # supplementalData.xml weekData: AE under firstDay "sat" in release-42, not from
        # release-46 (001's Monday); CN in no list but 001 in any release; MV under "fri".
        self.assertEqual(self.first_day("42", "ar_AE"), "sat")
        self.assertEqual(self.first_day("46", "ar_AE"), "mon")
        for release in ["42", "46", "49"]:
            self.assertEqual(self.first_day(release, "zh_CN"), "mon", release)
            # babel 2.12.1 inherits pt_PT's Sunday into pt_AO; CLDR gives AO Monday.
            self.assertEqual(self.first_day(release, "pt_AO"), "mon", release)
            # UTS #35: the rg keyword's region, then the fw keyword, win.
            self.assertEqual(self.first_day(release, "fr-FR-u-rg-mvzzzz"), "fri", release)
            self.assertEqual(self.first_day(release, "de_DE@fw=sun"), "sun", release)

    def test_documented_scripts(self):
        # UTS #35: a script subtag names the script; likelySubtags gives shi -> shi_Tfng_MA,
        # sr -> sr_Cyrl_RS, ja -> ja_Jpan_JP in every release here.
        for release in ["42", "46", "49"]:
            scripts = dict(line.split("\t")[:2] for line in
                           (REFERENCE / "cldr" / release / "script.tsv").read_text().splitlines()
                           if not line.startswith("#"))
            self.assertEqual(scripts["shi_Latn"], "Latn", release)
            self.assertEqual(scripts["shi"], "Tfng", release)
            self.assertEqual(scripts["sr"], "Cyrl", release)
            self.assertEqual(scripts["sr_Cyrl_ME"], "Cyrl", release)
            self.assertEqual(scripts["ja"], "Jpan", release)


class UnicodeTest(unittest.TestCase):
    """Part unicode (Scripts/reference/unicode.py)."""

    def test_unicode_regenerates_byte_for_byte(self):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(GENERATE), "--only", "unicode", "--out", tmp],
                           check=True, cwd=REPO, capture_output=True)
            name = pathlib.Path("unicode") / "scripts.tsv"
            self.assertEqual((pathlib.Path(tmp) / name).read_bytes(), (REFERENCE / name).read_bytes())

    def test_documented_scripts(self):
        # Unicode 15.0 Scripts.txt: Cyrillic 0400..0484, Latin 0041..005A, Tifinagh 2D30..2D67;
        # digits (0030..0039) are Common, which the file leaves out.
        ranges = [line.split("\t") for line in
                  (REFERENCE / "unicode" / "scripts.tsv").read_text().splitlines()
                  if not line.startswith("#")]

        def script(point):
            return next((code for first, last, code in ranges
                         if int(first, 16) <= point <= int(last, 16)), None)
        self.assertEqual(script(0x0410), "Cyrl")
        self.assertEqual(script(0x0041), "Latn")
        self.assertEqual(script(0x2D49), "Tfng")
        self.assertIsNone(script(0x0038))


class ManifestTest(unittest.TestCase):
    def test_committed_files_match_the_manifest(self):
        subprocess.run([sys.executable, str(GENERATE), "--check"], check=True, cwd=REPO,
                       capture_output=True)

    def test_a_changed_file_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = pathlib.Path(tmp) / "reference"
            subprocess.run(["cp", "-r", str(REFERENCE), str(copy)], check=True)
            path = copy / "cldr" / "42" / "first-day.tsv"
            path.write_text(path.read_text().replace("ar_AE\tsat", "ar_AE\tmon"))
            done = subprocess.run([sys.executable, str(GENERATE), "--check", "--out", str(copy)],
                                  cwd=REPO, capture_output=True, text=True)
            self.assertEqual(done.returncode, 1)
            self.assertIn("cldr/42/first-day.tsv: sha256", done.stderr)
