"""Month starts and lengths, 1900-01-01 to 2100-12-31, for the calendars both ICUs know,
from published formulas and official tables.

    python3 -m reference.calendars OUT_DIR

Writes OUT_DIR/calendars/<calendar>.tsv.gz, one row per month whose first day falls in the
range (proleptic Gregorian), in order of that day:

    year  month  leap  first_day  length

numbered as ICU numbers them (month 1-based = UCAL_MONTH + 1, leap = UCAL_IS_LEAP_MONTH),
and length the days to the next month's first day. Each file's header says where its
year column stands against ICU's UCAL_EXTENDED_YEAR. OUT_DIR/calendars/index.tsv lists the
calendars, their sources and ranges, and the ones left without a file.
"""
import datetime
import importlib
import importlib.util
import pathlib
import sys
import types

from reference import common

FIRST = datetime.date(1900, 1, 1)
LAST = datetime.date(2100, 12, 31)
COLUMNS = "columns: year\tmonth\tleap\tfirst_day\tlength"
JD_OF_ORDINAL_0 = 1721424.5   # Julian Day of 0000-12-31 (proleptic Gregorian ordinal 0)


def _convertdate(name: str):
    """A convertdate submodule without running the package's __init__, which imports its
    astronomical modules (persian, bahai, french_republican) and so pymeeus, which ships no
    wheel; the modules used here (hebrew, islamic, coptic, indian_civil) need none of it."""
    if "convertdate" not in sys.modules:
        spec = importlib.util.find_spec("convertdate")
        package = types.ModuleType("convertdate")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["convertdate"] = package
    return importlib.import_module(f"convertdate.{name}")



def _package_version(distribution: str) -> str:
    from importlib import metadata
    return metadata.version(distribution)


def from_jd(jd: float) -> datetime.date:
    """The Gregorian date of the day that contains Julian Day jd (days begin at .5)."""
    return datetime.date.fromordinal(int(jd - JD_OF_ORDINAL_0 + 0.5))


def with_lengths(starts, final_length=None):
    """[(year, month, leap, date)] in order -> rows with length = next start - start; the
    last month takes final_length (or is dropped when that is None). Only months whose
    first day lies in [FIRST, LAST] are kept."""
    starts = list(starts)
    rows = []
    for i, (year, month, leap, first) in enumerate(starts):
        if i + 1 < len(starts):
            length = (starts[i + 1][3] - first).days
        elif final_length is not None:
            length = final_length
        else:
            continue
        if FIRST <= first <= LAST:
            rows.append((year, month, leap, first.isoformat(), length))
    return rows


# ---- Gregorian and the calendars that share its months --------------------------------

def gregorian_starts(year_offset=0):
    for year in range(FIRST.year, LAST.year + 2):
        for month in range(1, 13):
            yield year + year_offset, month, 0, datetime.date(year, month, 1)


# ---- arithmetic calendars (convertdate, jalali_core) ------------------------------------

# ICU's Hebrew months, 1-based: Tishri 1, Heshvan 2, Kislev 3, Tevet 4, Shevat 5, Adar I 6
# (leap years only), Adar (Adar II in leap years) 7, Nisan 8 ... Elul 13. convertdate's:
# Nisan 1 ... Elul 6, Tishri 7 ... Shevat 11, Adar 12 (Adar I in leap years), Adar II 13.
def hebrew_starts():
    hebrew = _convertdate("hebrew")
    for year in range(5660, 5863):   # 5660 began 1899-09-05; 5862 ends after 2101
        leap = hebrew.leap(year)
        order = [(7, 1), (8, 2), (9, 3), (10, 4), (11, 5)]
        order += [(12, 6), (13, 7)] if leap else [(12, 7)]
        order += [(m, m + 7) for m in range(1, 7)]
        for theirs, ours in order:
            yield year, ours, 0, from_jd(hebrew.to_jd(year, theirs, 1))


def islamic_civil_starts(shift_days=0):
    islamic = _convertdate("islamic")
    for year in range(1317, 1528):   # 1317 AH began 1899-05-12; 1527 AH ends after 2101
        for month in range(1, 13):
            first = from_jd(islamic.to_jd(year, month, 1)) + datetime.timedelta(shift_days)
            yield year, month, 0, first


def coptic_starts(year_offset=0):
    coptic = _convertdate("coptic")
    for year in range(1615, 1818):   # 1616 AM began 1899-09-11
        for month in range(1, 14):
            yield year + year_offset, month, 0, from_jd(coptic.to_jd(year, month, 1))


def indian_starts():
    indian = _convertdate("indian_civil")
    for year in range(1821, 2024):   # Saka 1821 began 1899-03-22
        for month in range(1, 13):
            yield year, month, 0, from_jd(indian.to_jd(year, month, 1))


def persian_starts():
    from jalali_core import JalaliToGregorian
    for year in range(1278, 1481):   # 1278 AP began 1899-03-21
        for month in range(1, 13):
            yield year, month, 0, datetime.date(
                *JalaliToGregorian(year, month, 1).getGregorianList())


# ---- official tables ---------------------------------------------------------------------

def umalqura_rows():
    from hijridate import Hijri
    from hijridate import ummalqura
    (first_year, _, _), (last_year, _, _) = ummalqura.HIJRI_RANGE
    rows = []
    for year in range(first_year, last_year + 1):
        for month in range(1, 13):
            hijri = Hijri(year, month, 1)
            first = datetime.date(*hijri.to_gregorian().datetuple())
            if FIRST <= first <= LAST:
                rows.append((year, month, 0, first.isoformat(), hijri.month_length()))
    return rows


def chinese_starts():
    from borax.calendars.lunardate import LCalendars, LunarDate
    for year in range(1900, 2101):
        leap_month = LCalendars.leap_month(year)
        for month in range(1, 13):
            yield year, month, 0, LunarDate(year, month, 1).to_solar_date()
            if month == leap_month:
                yield year, month, 1, LunarDate(year, month, 1, 1).to_solar_date()


def chinese_last_length() -> int:
    from borax.calendars.lunardate import LCalendars
    return LCalendars.ndays(2100, 12)


def dangi_starts():
    from korean_lunar_calendar import KoreanLunarCalendar
    calendar = KoreanLunarCalendar()

    def solar():
        return datetime.date(calendar.solarYear, calendar.solarMonth, calendar.solarDay)

    for year in range(1900, 2051):
        for month in range(1, 13):
            for leap in (False, True):
                if not calendar.setLunarDate(year, month, 1, leap):
                    continue
                # Only months whose last day (29 or 30) the table still covers.
                if not calendar.setLunarDate(year, month, 29, leap):
                    return
                calendar.setLunarDate(year, month, 1, leap)
                yield year, month, int(leap), solar()


def dangi_last_length(year, month, leap) -> int:
    from korean_lunar_calendar import KoreanLunarCalendar
    calendar = KoreanLunarCalendar()
    return 30 if calendar.setLunarDate(year, month, 30, bool(leap)) else 29


# ---- the files -------------------------------------------------------------------------

ICU_ROWS = ("Rows: every month whose first day is in 1900-01-01..2100-12-31 (proleptic "
            "Gregorian), in order; month 1-based as ICU numbers it (UCAL_MONTH + 1); leap "
            "is ICU's UCAL_IS_LEAP_MONTH; length = days to the next month's first day.")


def calendars():
    """[(name, source, release, notes, rows)]"""
    py = f"Python {sys.version_info.major}.{sys.version_info.minor} datetime"
    cd = f"convertdate=={_package_version('convertdate')}"
    out = []
    greg = with_lengths(gregorian_starts())
    out.append(("gregorian", f"proleptic Gregorian calendar ({py})", "ISO 8601 / Gregorian rules",
                ["year: the Gregorian year (ICU UCAL_EXTENDED_YEAR)."], greg))
    out.append(("iso8601", f"proleptic Gregorian calendar ({py})", "ISO 8601 / Gregorian rules",
                ["ICU's iso8601 calendar has the Gregorian months (it differs in week rules "
                 "only); the rows are those of gregorian.", "year: the Gregorian year."], greg))
    out.append(("buddhist", f"proleptic Gregorian calendar ({py})", "Gregorian rules",
                ["year: the Buddhist Era year = Gregorian year + 543 (ICU's UCAL_YEAR in "
                 "era 0; ICU's UCAL_EXTENDED_YEAR is the Gregorian year); months are the "
                 "Gregorian months."],
                with_lengths(gregorian_starts(543))))
    out.append(("roc", f"proleptic Gregorian calendar ({py})", "Gregorian rules",
                ["year: Gregorian year - 1911 (ICU's UCAL_YEAR in era 1 'Minguo'; years <= 0 "
                 "are ICU's era 0 'Before R.O.C.' year 1 - year; ICU's UCAL_EXTENDED_YEAR is "
                 "the Gregorian year); months are the Gregorian months."],
                with_lengths(gregorian_starts(-1911))))
    out.append(("japanese", f"proleptic Gregorian calendar ({py})", "Gregorian rules",
                ["year: the Gregorian year (ICU UCAL_EXTENDED_YEAR); months are the "
                 "Gregorian months, and an era can begin mid-month.",
                 "Era starts in the range (first day of the era's year 1): Meiji 1868-09-08 "
                 "(before the range), Taisho 1912-07-30, Showa 1926-12-25, Heisei "
                 "1989-01-08, Reiwa 2019-05-01 (the dates of the Emperors' accessions and "
                 "the era-name proclamations; the same as CLDR's calendarData eras)."],
                with_lengths(gregorian_starts())))
    out.append(("hebrew", f"{cd} convertdate.hebrew", "arithmetic Hebrew calendar "
                "(molad and dehiyyot, as in Calendrical Calculations ch. 8)",
                ["year: Anno Mundi (ICU UCAL_EXTENDED_YEAR), beginning at 1 Tishri.",
                 "month: ICU's numbering, Tishri 1, Heshvan 2, Kislev 3, Tevet 4, Shevat 5, "
                 "Adar I 6 (leap years only: in common years there is no month 6), Adar "
                 "(Adar II in leap years) 7, Nisan 8, Iyar 9, Sivan 10, Tammuz 11, Av 12, "
                 "Elul 13; leap is 0 throughout (ICU sets no UCAL_IS_LEAP_MONTH for Adar I)."],
                with_lengths(hebrew_starts())))
    out.append(("islamic-civil", f"{cd} convertdate.islamic", "tabular Islamic calendar, "
                "leap years 2,5,7,10,13,16,18,21,24,26,29 of 30, epoch Friday 16 July 622 "
                "(Julian) = JD 1948439.5",
                ["year: Anno Hegirae (ICU UCAL_EXTENDED_YEAR)."],
                with_lengths(islamic_civil_starts())))
    out.append(("islamic-tbla", f"{cd} convertdate.islamic, shifted one day earlier",
                "tabular Islamic calendar, leap years 2,5,7,10,13,16,18,21,24,26,29, "
                "astronomical epoch Thursday 15 July 622 (Julian)",
                ["The same table as islamic-civil with the epoch one day earlier, so every "
                 "month begins one day before the civil one.",
                 "year: Anno Hegirae (ICU UCAL_EXTENDED_YEAR)."],
                with_lengths(islamic_civil_starts(-1))))
    hijri_version = _package_version("hijridate")
    out.append(("islamic-umalqura", f"hijridate=={hijri_version} (hijridate.ummalqura."
                "MONTH_STARTS)", "the Umm al-Qura calendar of Saudi Arabia, official table "
                "1343-01-01..1500-12-30 AH (1924-08-01..2077-11-16)",
                ["Outside the table (before 1924-08-01 and after 2077-11-16) there are no "
                 "rows: the package has no data there, and ICU falls back to islamic-civil.",
                 "year: Anno Hegirae (ICU UCAL_EXTENDED_YEAR)."], umalqura_rows()))
    out.append(("persian", f"jalali-core=={_package_version('jalali-core')} (FarsiWeb "
                "jalali.c by Roozbeh Pournader and Mohammad Toossi)",
                "arithmetic Persian (Solar Hijri) calendar, 33-year cycle: leap years have "
                "year mod 33 in {1,5,9,13,17,22,26,30}, 12053 days a cycle",
                ["The arithmetic calendar ICU documents for 'persian'. convertdate's persian "
                 "is instead astronomical (the March equinox at the Tehran meridian, with "
                 "pymeeus) and is not used.",
                 "year: Anno Persico (ICU UCAL_EXTENDED_YEAR); months Farvardin 1 .. "
                 "Esfand 12."], with_lengths(persian_starts())))
    out.append(("indian", f"{cd} convertdate.indian_civil", "Indian national (Saka) "
                "calendar: Chaitra 1 = March 22 (March 21 in Gregorian leap years)",
                ["year: Saka era (ICU UCAL_EXTENDED_YEAR); months Chaitra 1 .. Phalguna 12. "
                 "Lengths from consecutive first days (convertdate's month_length tests "
                 "the wrong Gregorian year for Chaitra, so it is not used)."],
                with_lengths(indian_starts())))
    out.append(("coptic", f"{cd} convertdate.coptic", "Coptic calendar, epoch 29 August 284 "
                "(Julian) = JD 1825029.5",
                ["year: Era of the Martyrs (ICU UCAL_EXTENDED_YEAR); months Thout 1 .. "
                 "Mesori 12, the epagomenal month Pi Kogi Enavot 13 (5 or 6 days)."],
                with_lengths(coptic_starts())))
    ethiopic_note = ("convertdate has no Ethiopic module: the Ethiopic calendar is the "
                     "Coptic one with years 276 higher (Reingold and Dershowitz, Calendrical "
                     "Calculations, 3rd ed., ch. 4: ethiopic-epoch = RD 2796 = 27 August 8 "
                     "(Julian), coptic-epoch = RD 103605 = 29 August 284 (Julian), the same "
                     "month structure), so these rows are convertdate.coptic's with the year "
                     "shifted.")
    out.append(("ethiopic", f"{cd} convertdate.coptic, year + 276", "Ethiopic calendar, "
                "Amete Mihret era", [ethiopic_note, "year: Amete Mihret (ICU "
                "UCAL_EXTENDED_YEAR); months Meskerem 1 .. Nehasse 12, Pagumen 13."],
                with_lengths(coptic_starts(276))))
    out.append(("ethiopic-amete-alem", f"{cd} convertdate.coptic, year + 276 + 5500",
                "Ethiopic calendar, Amete Alem era", [ethiopic_note, "year: Amete Alem = "
                "Amete Mihret + 5500 (ICU's UCAL_YEAR in its era 0; compare with that "
                "field, not UCAL_EXTENDED_YEAR)."], with_lengths(coptic_starts(276 + 5500))))
    out.append(("chinese", f"borax=={_package_version('borax')} (borax.calendars.lunardate "
                "YEAR_INFOS, lunar years 1900..2100; its documented source: the tables of "
                "jjonline/calendar.js, checked against Microsoft's ChineseLunisolarCalendar)",
                "Chinese lunisolar calendar (months begin on the day of the new moon in "
                "UTC+8), lunar years 1900..2100",
                ["year: the Gregorian year in which the lunar year begins (ICU "
                 "UCAL_EXTENDED_YEAR = year + 2637); month 1..12, a leap month has the "
                 "number of the month before it and leap 1.",
                 "Rows begin with 1900 month 1 (1900-01-31): the table starts there.",
                 "Why borax, not lunardate 0.3.0: lunardate's table (from the 'lunar' "
                 "program of Fung F. Lee and Ricky Yeung) differs in 6 months, 3 of them "
                 "against the new moon's date in UTC+8: it starts 1933 month 6 on "
                 "1933-07-22 (new moon 07-23 00:03), 1954 month 11 on 1954-11-26 (new moon "
                 "11-25 20:30), 1978 month 8 on 1978-09-02 (new moon 09-03 00:09); borax "
                 "agrees with the new moons there.",
                 "The other 3 are new moons within a minute of midnight UTC+8, which the "
                 "Hong Kong Observatory's conversion tables flag as possibly one day off: "
                 "2057-09-28, 2089-09-04, 2097-08-07. borax begins those months the day "
                 "after (2057-09-29, 2089-09-05, 2097-08-08); lunardate on the day itself."],
                with_lengths(chinese_starts(), chinese_last_length())))
    dangi = list(dangi_starts())
    out.append(("dangi", f"korean-lunar-calendar=={_package_version('korean-lunar-calendar')}"
                " (its table, documented as the KASI/KARI standard)", "Korean lunisolar "
                "calendar (Dangi), lunar years 1900..2050",
                ["year: the Gregorian year in which the lunar year begins (ICU "
                 "UCAL_EXTENDED_YEAR = year + 2333); month 1..12, a leap month has the "
                 "number of the month before it and leap 1.",
                 "Rows begin with 1900 month 1 (1900-01-31) and end with the last month the "
                 "table covers whole (it ends at lunar 2050-11-18 = 2050-12-31): no rows "
                 "after."],
                with_lengths(dangi, dangi_last_length(*dangi[-1][:3]))))
    return out


OMITTED = [
    ("islamic", "-", "no file: ICU's 'islamic' is its own astronomical approximation "
     "(CalendarAstronomer's new moon and a visibility rule); no published table or formula "
     "follows it, and the observed (sighting) calendar differs by place, so there is nothing "
     "to compare it with."),
    ("islamic-rgsa", "-", "no file: ICU treats it as 'islamic' (astronomical)."),
]


def main(argv) -> int:
    out_dir = pathlib.Path(argv[0]) / "calendars"
    index = []
    packages = ", ".join(f"{name}=={_package_version(name)}" for name in
                         ("convertdate", "hijridate", "jalali-core", "borax",
                          "korean-lunar-calendar"))
    for name, source, release, notes, rows in calendars():
        header = [f"source: {source}", f"release: {release}", f"calendar: {name} (ICU)",
                  *notes, ICU_ROWS, COLUMNS]
        common.write_gzip(out_dir / f"{name}.tsv.gz", header, rows)
        index.append((name, f"{name}.tsv.gz", rows[0][3], rows[-1][3], len(rows), source))
        print(f"{out_dir / name}.tsv.gz: {len(rows)} months")
    for name, file, note in OMITTED:
        index.append((name, file, "-", "-", 0, note))
    common.write_text(out_dir / "index.tsv",
                      [f"source: Scripts/reference/calendars.py with {packages}",
                       "release: the per-file sources below",
                       "The calendars both ICUs know, the file for each, and the first days "
                       "of its first and last rows.",
                       "columns: calendar\tfile\tfirst_month\tlast_month\tmonths\tsource"],
                      index)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
