"""Drives executor.py through conformance-executor/1, as the harness would.

Run from the package root:  python3 -m unittest discover -s Examples/PythonSubject -v

Expected values are derived by hand from documented facts (the calendar, the tz database,
Python's documented datetime semantics), written as UTC wall times and converted with
calendar.timegm; none is copied from the program's output.
"""

import calendar
import json
import os
import subprocess
import sys
import unittest

EXECUTOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "executor.py")
HELLO = {"id": 0, "function": "hello", "protocol": "conformance-executor/1"}


def utc(*fields):
    """Epoch seconds of a UTC wall time: utc(2018, 11, 4, 3) is 2018-11-04T03:00:00Z."""
    fields = fields + (0,) * (6 - len(fields))
    return calendar.timegm(fields)


def cal(zone="UTC", first_weekday=1, identifier="gregorian"):
    return {"identifier": identifier, "timeZone": zone, "firstWeekday": first_weekday,
            "minimumDaysInFirstWeek": 1, "locale": "en_US"}


class Executor:
    """One executor process; says hello first, then asks one question at a time."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, EXECUTOR], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.next_id = 0
        self.hello = self.ask(**{k: v for k, v in HELLO.items() if k != "id"})

    def send_line(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, **question):
        """Sends a question with the next id; returns its answer, checking the echoed id."""
        qid, self.next_id = self.next_id, self.next_id + 1
        self.send_line(json.dumps({"id": qid, **question}))
        line = self.process.stdout.readline()
        assert line, "the executor answered nothing"
        answer = json.loads(line)
        assert answer["id"] == qid, (answer, qid)
        return answer

    def value(self, **question):
        answer = self.ask(**question)
        assert set(answer) == {"id", "answer"}, answer
        return answer["answer"]

    def close(self):
        _, stderr = self.process.communicate(timeout=10)
        return self.process.returncode, stderr


class ExecutorTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.executor = Executor()

    @classmethod
    def tearDownClass(cls):
        cls.executor.close()

    def value(self, **question):
        return self.executor.value(**question)

    def test_hello(self):
        hello = self.executor.hello["answer"]
        self.assertEqual(hello["name"], "py-picker")
        self.assertEqual(set(hello["functions"]), {
            "leadingBlanks", "selecting", "role", "days", "paging", "nights", "text"})
        self.assertEqual(hello["calendars"], ["gregorian", "iso8601"])
        for skipped in ("weekdaySymbols", "closes", "clampedReturn", "fieldDate", "disclosure"):
            self.assertIn(skipped, hello["reasons"])

    def test_leading_blanks_january_2018(self):
        # 1 January 2018 was a Monday: weekday 2 in Foundation's numbering.
        mid_january = utc(2018, 1, 15, 12)
        for first_weekday, blanks in [(1, 1), (2, 0), (7, 2), (3, 6)]:
            self.assertEqual(self.value(function="leadingBlanks", month=mid_january,
                                        calendar=cal(first_weekday=first_weekday)), blanks)
        # iso8601 is the same arithmetic, with the week rules its calendar object carries.
        self.assertEqual(self.value(function="leadingBlanks", month=mid_january,
                                    calendar=cal(first_weekday=2, identifier="iso8601")), 0)

    def test_days_sao_paulo_november_2018_skipped_midnight(self):
        # DST began on 2018-11-04: clocks went 00:00 -> 01:00, -03 -> -02, so that day's
        # midnight does not exist. Python reads the nonexistent 00:00 (fold=0) with the
        # offset before the gap, -03: 03:00Z, which is 01:00-02, the day's first instant.
        cells = self.value(function="days", month=utc(2018, 11, 15, 15),
                           calendar=cal("America/Sao_Paulo"))
        self.assertEqual(len(cells), 30)
        self.assertEqual(cells[0], utc(2018, 11, 1, 3))    # 00:00-03
        self.assertEqual(cells[2], utc(2018, 11, 3, 3))    # 00:00-03
        self.assertEqual(cells[3], utc(2018, 11, 4, 3))    # 01:00-02
        self.assertEqual(cells[4], utc(2018, 11, 5, 2))    # 00:00-02
        self.assertEqual(cells[29], utc(2018, 11, 30, 2))  # 00:00-02
        self.assertEqual(self.value(function="text", kind="day-label", date=cells[3],
                                    calendar=cal("America/Sao_Paulo"), locale="en_US"), "4")

    def test_days_apia_december_2011_skipped_day(self):
        # Samoa skipped 2011-12-30: 29 December ended at 24:00-10, which was
        # 2011-12-30T10:00Z = 2011-12-31T00:00+14. calendar.monthrange knows nothing of
        # zones, so there are 31 cells; the nonexistent 30th, read at -10, is 10:00Z on
        # the 30th, the very instant of the 31st's midnight: two cells, one instant.
        apia = cal("Pacific/Apia")
        cells = self.value(function="days", month=utc(2011, 12, 15), calendar=apia)
        self.assertEqual(len(cells), 31)
        self.assertEqual(cells[0], utc(2011, 12, 1, 10))    # 00:00-10 (DST since September)
        self.assertEqual(cells[28], utc(2011, 12, 29, 10))  # 00:00-10
        self.assertEqual(cells[29], utc(2011, 12, 30, 10))  # "30 December", nonexistent
        self.assertEqual(cells[30], utc(2011, 12, 30, 10))  # 31 December 00:00+14
        labels = [self.value(function="text", kind="day-label", date=t, calendar=apia,
                             locale="en_US") for t in cells[28:]]
        self.assertEqual(labels, ["29", "31", "31"])

    def test_havana_repeated_midnight(self):
        # Cuba left DST on 2020-11-01 at 01:00-04, back to 00:00-05: midnight came twice,
        # at 04:00Z and 05:00Z. startOfDay (fold=0) is the first one, even for an instant
        # in the second hour.
        havana = cal("America/Havana")
        second_half_past = utc(2020, 11, 1, 5, 30)  # 00:30-05
        self.assertEqual(self.value(function="selecting", day=second_half_past, selection={},
                                    calendar=havana), {"start": utc(2020, 11, 1, 4)})
        # 00:30-04 then, 40 minutes later, 00:10-05: Python subtracts datetimes sharing a
        # tzinfo by wall clock (-20 minutes) and timedelta.days floors that to -1.
        self.assertEqual(self.value(function="nights", start=utc(2020, 11, 1, 4, 30),
                                    end=utc(2020, 11, 1, 5, 10), calendar=havana), -1)

    def test_nights(self):
        t = utc(2018, 3, 1, 12)
        self.assertEqual(self.value(function="nights", start=t, end=t + 3 * 86400,
                                    calendar=cal()), 3)
        # One second backwards: timedelta(seconds=-1).days is -1 (floored, not truncated).
        self.assertEqual(self.value(function="nights", start=t + 1, end=t, calendar=cal()), -1)
        # Noon to noon across the Sao Paulo DST start is 23 hours, and one wall-clock day.
        self.assertEqual(self.value(function="nights", start=utc(2018, 11, 3, 15),
                                    end=utc(2018, 11, 4, 14),
                                    calendar=cal("America/Sao_Paulo")), 1)

    def test_paging(self):
        def page(month, offset):
            return self.value(function="paging", month=month, offset=offset, calendar=cal())
        # The day is clamped to the new month's length; the wall time is kept.
        self.assertEqual(page(utc(2018, 1, 31, 12), 1), utc(2018, 2, 28, 12))
        self.assertEqual(page(utc(2020, 1, 31, 12), 1), utc(2020, 2, 29, 12))  # leap year
        self.assertEqual(page(utc(2018, 3, 31, 8), -1), utc(2018, 2, 28, 8))
        self.assertEqual(page(utc(2018, 12, 15), 1), utc(2019, 1, 15))
        self.assertEqual(page(utc(2019, 1, 15), -1), utc(2018, 12, 15))

    def test_selecting_and_role(self):
        c = cal()
        day5, day7, day10 = utc(2018, 1, 5), utc(2018, 1, 7), utc(2018, 1, 10)
        pick = lambda day, selection: self.value(function="selecting", day=day,
                                                 selection=selection, calendar=c)
        self.assertEqual(pick(day5 + 3600 * 13, {}), {"start": day5})
        self.assertEqual(pick(day10 + 60, {"start": day5}), {"start": day5, "end": day10})
        self.assertEqual(pick(day5 + 60, {"start": day5}), {"start": day5, "end": day5})
        self.assertEqual(pick(day5 - 1, {"start": day5}), {"start": utc(2018, 1, 4)})
        self.assertEqual(pick(day7, {"start": day5, "end": day10}), {"start": day7})

        selection = {"start": day5 + 3600 * 13, "end": day10 + 3600 * 9}
        role = lambda day, selection=selection: self.value(function="role", day=day,
                                                           selection=selection, calendar=c)
        self.assertEqual(role(day7), "middle")
        self.assertEqual(role(day5 + 86399), "start")
        self.assertEqual(role(day10), "end")
        self.assertEqual(role(utc(2018, 1, 11)), "outside")
        self.assertEqual(role(utc(2018, 1, 4, 23)), "outside")
        self.assertEqual(role(day5, {"start": day10, "end": day5}), "start")  # reversed
        self.assertEqual(role(day5, {"start": day5, "end": day5 + 60}), "single")
        self.assertEqual(role(day5, {"start": day5 + 60}), "single")
        self.assertEqual(role(day5, {}), "outside")

    def test_day_label_rounds_to_the_microsecond(self):
        # fromtimestamp rounds to microseconds (ROUND_HALF_EVEN): 0.2 us before 2018
        # becomes 2018-01-01T00:00:00Z, so the last instant of 31 December reads "1".
        self.assertEqual(self.value(function="text", kind="day-label", date=1514764799.9999998,
                                    calendar=cal(), locale="en_US"), "1")
        self.assertEqual(self.value(function="text", kind="day-label", date=1514764799.5,
                                    calendar=cal(), locale="en_US"), "31")

    def test_unsupported(self):
        ask = self.executor.ask
        zone = ask(function="days", month=0, calendar=cal("Mars/Olympus_Mons"))
        self.assertIn("Mars/Olympus_Mons", zone["unsupported"])
        self.assertIn("unsupported", ask(function="days", month=0,
                                         calendar=cal(identifier="hebrew")))
        self.assertIn("unsupported", ask(function="weekdaySymbols", calendar=cal()))
        self.assertIn("unsupported", ask(function="text", kind="month-title", date=0,
                                         calendar=cal(), locale="en_US"))

    def test_errors_are_answered(self):
        # Far beyond datetime's year 9999: the port fails, says so, and carries on.
        failed = self.executor.ask(function="days", month=1e300, calendar=cal())
        self.assertEqual(set(failed), {"id", "error"})
        missing = self.executor.ask(function="days", month=0)
        self.assertTrue(missing["error"].startswith("KeyError"), missing)
        self.assertEqual(self.value(function="leadingBlanks", month=utc(2018, 1, 15),
                                    calendar=cal()), 1)


class StreamTests(unittest.TestCase):
    def test_malformed_line_is_survived(self):
        executor = Executor()
        executor.send_line("{this is not json")
        executor.send_line('{"function": "days"}')  # no id to echo
        # The next question is answered, and is the next line on stdout.
        self.assertEqual(executor.value(function="leadingBlanks", month=utc(2018, 1, 15),
                                        calendar=cal(first_weekday=7)), 2)
        code, stderr = executor.close()
        self.assertEqual(code, 0)
        self.assertIn("line 2", stderr)
        self.assertIn("line 3", stderr)

    def test_answers_in_order_with_matching_ids(self):
        questions = [HELLO] + [
            {"id": i, "function": ["days", "nights", "role", "weekdaySymbols"][i % 4],
             "month": utc(2018, i % 12 + 1, 10), "start": 0, "end": i * 86400,
             "day": i * 86400, "selection": {"start": 0}, "calendar": cal("Europe/Paris")}
            for i in range(1, 200)]
        stdin = "".join(json.dumps(q) + "\n" for q in questions)
        done = subprocess.run([sys.executable, EXECUTOR], input=stdin, capture_output=True,
                              text=True, timeout=30)
        self.assertEqual(done.returncode, 0)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual([a["id"] for a in answers], list(range(200)))
        self.assertEqual(answers[1]["answer"], 1)  # id 1: nights from 0 to a day later
        self.assertEqual(answers[2]["answer"], "outside")  # id 2: role, 3 Jan vs 1 Jan
        self.assertIn("unsupported", answers[3])  # id 3: weekdaySymbols
        self.assertEqual(len(answers[4]["answer"]), 31)  # id 4: days of May 2018


if __name__ == "__main__":
    unittest.main()
