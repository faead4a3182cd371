#!/usr/bin/env python3
"""Compare two report directories of the conformance harness, case by case.

Why this exists
---------------
`results.json` is what "scripts, the next run" read (Documentation/Reports.md): the
summary, and "every case that did not pass" with its status, expected and actual values,
pattern, triage and baseline class. The nightly's verdict, `--baseline`, waivers and triage
all hang on those per-case verdicts. When the harness is redesigned -- here the move from
`conformance-results/1`/`/2` (one document, failures inline) to `conformance-results/3`
(a small document naming a companion cases file; the check's verdict kept apart from its
review) -- the redesign must change how results are *written*, never what they *say*. This
script is the before/after proof: run the same sweep with the old and the new build, then

    python3 Scripts/compare-runs.py BEFORE_DIR AFTER_DIR [--show N]

For two runs of the current schema, `conformance compare BEFORE AFTER` does the same with
the harness's own readers; this script stays as the reader of schemas 1 and 2 and as an
independent second reader (a test requires both to print the same verdict line).

It prints each run's schema, summary and number of non-passing cases, then, for every
field, how many cases differ (with up to N examples), and the cases found in one run only.
The last line is `same verdicts: N cases compared` (exit 0) or `DIFFERENT: ...` (exit 1).
Unreadable input exits 2, naming the file.

What is compared
----------------
* The two `summary` objects, member by member (so passing and skipped counts agree too).
* Every non-passing case (status other than passed/skipped) of either run:
  - status: schemas 1/2 store it; schema 3 derives it from `verdict` and `review.waiver`
    (a waiver turns a pass into `unexpected-pass` and anything else into `waived`);
  - expected: as canonical JSON; not compared when either side is abridged (no value kept);
  - actual: when both sides are whole, the values themselves (through a hash of their
    canonical JSON); when either side is abridged, the `actualDigest` the harness writes:
    64-bit FNV-1a over the UTF-8 bytes of the value's description (`Value.description` in
    Sources/Conformance/Checks/Value.swift), computed here for a whole side;
  - pattern (absent reads as "", as the harness reads it), triage and baseline class.
* Each run against itself: the non-passing cases it lists, per status, must add up to its
  summary's failed / errored / waived / unexpectedPasses counts (a truncated or partly
  written cases file would otherwise pass for a run with fewer failures).

Memory
------
A full sweep's old `results.json` is ~140 MB with ~400,000 failures, so nothing is parsed
whole: the document is read as a stream (its `failures` array one element at a time), the
schema-3 cases file likewise, and per case only a small tuple is kept. BEFORE is held as a
table; AFTER is streamed against it, each match compared and dropped at once.

Standard library only; Python 3.8 or later.
"""

import argparse
import collections
import gzip
import hashlib
import json
import os
import re
import sys
import zlib
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

OLD_SCHEMAS = ("conformance-results/1", "conformance-results/2")
NEW_SCHEMA = "conformance-results/3"

# Statuses a results.json can hold; only the non-passing ones are compared case by case.
STATUSES = ("passed", "failed", "errored", "skipped", "not-run", "waived", "oracle-stale", "unexpected-pass")
IGNORED_STATUSES = ("passed", "skipped")
VERDICTS = ("passed", "failed", "errored", "skipped", "not-run")
# The summary member that counts each non-passing status.
SUMMARY_MEMBER = {"failed": "failed", "errored": "errored", "not-run": "notRun", "waived": "waived",
                  "oracle-stale": "oracleStale", "unexpected-pass": "unexpectedPasses"}

FIELDS = ("status", "expected", "actual", "pattern", "triage", "baseline")

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
DIGEST_PATTERN = re.compile(r"[0-9a-f]{16}\Z")


class InputError(Exception):
    """Unreadable or malformed input; the message names the file."""


# ---------------------------------------------------------------------------------------------
# Values and digests


def description(value) -> str:
    """The harness's text of a value (`Value.description`): what `actualDigest` hashes."""
    if value is None:
        return "null"
    if isinstance(value, bool):  # before int: bool is a subclass of int in Python
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # the harness's values are integers; tolerate "3.0"
    if isinstance(value, str):
        return '"' + value + '"'  # no escaping at all, as in Swift
    if isinstance(value, list):
        return "[" + ", ".join(description(item) for item in value) + "]"
    raise ValueError("not a case value (a %s): %s" % (type(value).__name__,
                                                     abbreviate(canonical(value))))


def fnv1a64(data: bytes) -> int:
    """64-bit FNV-1a, as `Value.digest(of:)`."""
    digest = FNV_OFFSET
    for byte in data:
        digest = ((digest ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return digest


def value_digest(value) -> int:
    return fnv1a64(description(value).encode("utf-8", "surrogatepass"))


def canonical(value) -> str:
    """One text per JSON value, independent of key order and whitespace."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def value_hash(value) -> bytes:
    """An exact fingerprint of a whole value (unlike `description`, which is not injective)."""
    return hashlib.blake2b(canonical(value).encode("utf-8", "surrogatepass"),
                           digest_size=8).digest()


def cases(count: int) -> str:
    return "%d case%s" % (count, "" if count == 1 else "s")


def abbreviate(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------------------------------------
# One case, as kept in memory


class Case(NamedTuple):
    status: str
    expected: Optional[str]   # canonical JSON; None when the case is abridged
    digest: int               # actualDigest (given, or computed from the whole value)
    actual: Optional[bytes]   # value_hash of the whole actual value; None when abridged
    pattern: Optional[str]
    triage: Optional[str]
    baseline: Optional[str]

    @property
    def abridged(self) -> bool:
        return self.actual is None


def _text(obj: dict, key: str) -> Optional[str]:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError("%r is not a string" % key)
    return None if value is None else sys.intern(value)


def _case(status: str, obj: dict, pattern, triage, baseline) -> Case:
    """The comparable part of a case; `obj` holds expected/actual or actualDigest."""
    if "actualDigest" in obj:
        digest = obj["actualDigest"]
        if not isinstance(digest, str) or not DIGEST_PATTERN.match(digest):
            raise ValueError("actualDigest %r is not 16 lowercase hex digits" % (digest,))
        return Case(sys.intern(status), None, int(digest, 16), None, pattern, triage, baseline)
    # A whole case; an absent value is read as null, the harness's `Value.null`.
    expected, actual = obj.get("expected"), obj.get("actual")
    return Case(sys.intern(status), canonical(expected), value_digest(actual),
                value_hash(actual), pattern, triage, baseline)


def _case_id(obj) -> str:
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    case_id = obj.get("id")
    if not isinstance(case_id, str):
        raise ValueError("no string \"id\"")
    return case_id


def case_from_failure(obj) -> Tuple[str, Case]:
    """An element of `failures` (schemas 1 and 2), whole or abridged."""
    case_id = _case_id(obj)
    status = obj.get("status")
    if status not in STATUSES:
        raise ValueError("status %r is not one of %s" % (status, ", ".join(STATUSES)))
    return case_id, _case(status, obj, _text(obj, "pattern"), _text(obj, "triage"),
                          _text(obj, "baseline"))


def case_from_record(obj) -> Tuple[str, Case]:
    """A value of the cases file (schema 3): the check's verdict, and its review apart."""
    case_id = _case_id(obj)
    verdict = obj.get("verdict")
    if verdict not in VERDICTS:
        raise ValueError("verdict %r is not one of %s" % (verdict, ", ".join(VERDICTS)))
    review = obj.get("review")
    if review is None:
        review = {}
    if not isinstance(review, dict):
        raise ValueError("\"review\" is not an object")
    if review.get("waiver") is not None and verdict != "not-run":
        status = "unexpected-pass" if verdict == "passed" else "waived"
    elif review.get("oracleStale") is True and verdict == "failed":
        status = "oracle-stale"
    else:
        status = verdict
    # No pattern is written when the verdict is `passed` (an unexpected pass): the harness
    # reads that as "", which is what schemas 1 and 2 wrote for it.
    pattern = _text(obj, "pattern")
    return case_id, _case(status, obj, sys.intern("") if pattern is None else pattern,
                          _text(review, "triage"), _text(review, "baseline"))


# ---------------------------------------------------------------------------------------------
# Streaming JSON input


def open_text(path: str):
    """`path` as UTF-8 text, decompressed when it starts with gzip's magic bytes."""
    try:
        with open(path, "rb") as probe:
            magic = probe.read(2)
        if magic == b"\x1f\x8b":
            return gzip.open(path, "rt", encoding="utf-8", newline="")
        return open(path, "r", encoding="utf-8", newline="")
    except OSError as error:
        raise InputError("%s: cannot open: %s" % (path, error.strerror or error))


class JSONStream:
    """Reads JSON values from a text file a chunk at a time, so a large document is never
    held whole. `value()` decodes one complete value with `JSONDecoder.raw_decode`, reading
    more when the buffer ends inside it."""

    CHUNK = 1 << 20
    WHITESPACE = re.compile(r"[ \t\n\r]*")

    def __init__(self, file, path: str):
        self.file, self.path = file, path
        self.buffer, self.position = "", 0
        self.lines_before = 0  # newlines in the text already dropped from the buffer
        self.at_end = False
        self.decoder = json.JSONDecoder()

    def _read_more(self) -> bool:
        """Appends at least as much text as is pending (so a long value costs linear time)."""
        if self.at_end:
            return False
        self.lines_before += self.buffer.count("\n", 0, self.position)
        self.buffer, self.position = self.buffer[self.position:], 0
        try:
            chunk = self.file.read(max(self.CHUNK, len(self.buffer)))
        except UnicodeDecodeError as error:
            raise InputError("%s: not UTF-8 text (%s)" % (self.path, error.reason))
        except (OSError, EOFError, zlib.error) as error:
            raise InputError("%s: cannot read: %s" % (self.path, error))
        if not chunk:
            self.at_end = True
            return False
        self.buffer += chunk
        return True

    def fail(self, message: str, at: Optional[int] = None) -> InputError:
        at = self.position if at is None else at
        line = self.lines_before + self.buffer.count("\n", 0, at) + 1
        return InputError("%s, line %d: %s" % (self.path, line, message))

    def peek(self) -> str:
        """The next character after whitespace, or "" at the end of the file."""
        while True:
            self.position = self.WHITESPACE.match(self.buffer, self.position).end()
            if self.position < len(self.buffer):
                return self.buffer[self.position]
            if not self._read_more():
                return ""

    def take(self, allowed: str) -> str:
        char = self.peek()
        if not char or char not in allowed:
            found = "the end of the file" if not char else repr(char)
            raise self.fail("expected %s, found %s" % (" or ".join(map(repr, allowed)), found))
        self.position += 1
        return char

    def value(self):
        if not self.peek():
            raise self.fail("expected a JSON value, found the end of the file")
        while True:
            # Reading more moves the buffer, so positions are used only from the last decode.
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.position)
            except json.JSONDecodeError as error:
                if self.at_end:
                    raise self.fail("invalid JSON: %s" % error.msg, at=error.pos)
                self._read_more()
                continue
            # A value ending exactly at the buffer's end may go on (a number): read on first.
            if end < len(self.buffer) or self.at_end:
                self.position = end
                return value
            self._read_more()


def read_document(path: str, keep: Tuple[str, ...],
                  on_failure: Callable[[object, int], None]) -> Dict[str, object]:
    """Streams the top-level object of a results.json: returns the members named in `keep`
    (and `failures`: how many elements it had), handing each element of `failures` to
    `on_failure` as it is read."""
    members: Dict[str, object] = {}
    with open_text(path) as file:
        stream = JSONStream(file, path)
        stream.take("{")
        if stream.peek() == "}":
            stream.take("}")
        else:
            while True:
                key = stream.value()
                if not isinstance(key, str):
                    raise stream.fail("expected a member name")
                stream.take(":")
                if key == "failures":
                    members[key] = _read_array(stream, on_failure)
                else:
                    value = stream.value()
                    if key in keep:
                        members[key] = value
                if stream.take(",}") == "}":
                    break
        if stream.peek():
            raise stream.fail("unexpected text after the document")
    return members


def _read_array(stream: JSONStream, on_element: Callable[[object, int], None]) -> int:
    stream.take("[")
    count = 0
    if stream.peek() == "]":
        stream.take("]")
        return count
    while True:
        count += 1
        on_element(stream.value(), count)
        if stream.take(",]") == "]":
            return count


def read_sequence(path: str, on_value: Callable[[object, int], None]) -> int:
    """Streams a file holding JSON values one after another (JSON Lines, or any
    whitespace-separated concatenation such as `jq .` output)."""
    count = 0
    with open_text(path) as file:
        stream = JSONStream(file, path)
        while stream.peek():
            count += 1
            on_value(stream.value(), count)
    return count


# ---------------------------------------------------------------------------------------------
# A run


class Run:
    """One report directory (or its results.json given directly)."""

    def __init__(self, label: str, argument: str):
        self.label = label
        if os.path.isdir(argument):
            self.directory, self.results = argument, os.path.join(argument, "results.json")
        elif os.path.exists(argument):
            self.directory, self.results = os.path.dirname(argument) or ".", argument
        else:
            raise InputError("%s: no such report directory (the %s run)" % (argument, label))
        if not os.path.isfile(self.results):
            raise InputError("%s: no such file (the %s run)" % (self.results, label))
        self.schema: Optional[str] = None
        self.summary: Dict[str, object] = {}
        self.cases_file: Optional[str] = None
        self.listed: collections.Counter = collections.Counter()  # non-passing, per status
        self.abridged = 0

    def read(self, on_case: Callable[[str, Case, dict], None]) -> None:
        """Reads the run, handing every non-passing case to `on_case(id, case, object)`."""
        self.listed.clear()
        self.abridged = 0

        def deliver(source: str, convert, what: str):
            def on_value(obj, number: int):
                try:
                    case_id, case = convert(obj)
                except ValueError as error:
                    raise InputError("%s: %s %d: %s" % (source, what, number, error))
                if case.status in IGNORED_STATUSES:
                    return
                self.listed[case.status] += 1
                self.abridged += case.abridged
                on_case(case_id, case, obj)
            return on_value

        members = read_document(self.results, ("schema", "summary", "files"),
                                deliver(self.results, case_from_failure, "failures entry"))
        self.schema = members.get("schema")
        if self.schema not in OLD_SCHEMAS + (NEW_SCHEMA,):
            raise InputError("%s: schema %s, expected one of %s" % (
                self.results, json.dumps(self.schema), ", ".join(OLD_SCHEMAS + (NEW_SCHEMA,))))
        summary = members.get("summary")
        if not isinstance(summary, dict):
            raise InputError("%s: no \"summary\" object" % self.results)
        self.summary = summary
        if self.schema in OLD_SCHEMAS:
            if "failures" not in members:
                raise InputError("%s: no \"failures\" list (schema %s)" % (self.results, self.schema))
            return
        if "failures" in members:
            raise InputError("%s: a \"failures\" list in schema %s, which keeps cases in "
                             "files.cases" % (self.results, self.schema))
        self.cases_file = self._cases_path(members.get("files"))
        read_sequence(self.cases_file, deliver(self.cases_file, case_from_record, "case"))

    def _cases_path(self, files) -> str:
        name = files.get("cases") if isinstance(files, dict) else None
        if not isinstance(name, str) or not name:
            raise InputError("%s: no \"files.cases\" naming the cases file" % self.results)
        path = os.path.join(self.directory, name)
        candidates = [path]
        if path.endswith(".gz"):
            candidates.append(path[:-3])  # written plain, or gunzipped after the run
        else:
            candidates.append(path + ".gz")
        for candidate in candidates:
            if os.path.isfile(candidate):
                return candidate
        raise InputError("%s: no such file (files.cases of %s; also tried %s)" % (
            path, self.results, ", ".join(candidates[1:])))

    def non_passing(self) -> int:
        return sum(self.listed.values())

    def inconsistencies(self) -> List[str]:
        """Where the cases listed disagree with the run's own summary."""
        problems = []
        for status, member in SUMMARY_MEMBER.items():
            counted = self.summary.get(member)
            if counted is None and member in ("oracleStale", "notRun"):
                counted = 0  # a summary written before oracle-stale or not-run was a status
            if counted != self.listed[status]:
                problems.append("%s lists %d %s cases, its summary counts %s" % (
                    self.label, self.listed[status], status, json.dumps(counted)))
        return problems

    def describe(self) -> str:
        statuses = ", ".join("%s %d" % (status, self.listed[status])
                             for status in SUMMARY_MEMBER if self.listed[status])
        summary = " ".join("%s=%s" % (key, json.dumps(value)) for key, value in self.summary.items())
        lines = ["%s: %s" % (self.label, self.results),
                 "  schema: %s" % self.schema]
        if self.cases_file:
            lines.append("  cases file: %s" % self.cases_file)
        lines.append("  summary: %s" % (summary or "(empty)"))
        lines.append("  non-passing cases: %d%s, %d abridged" % (
            self.non_passing(), " (%s)" % statuses if statuses else "", self.abridged))
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Comparison


class Comparison:
    def __init__(self, show: int, strip_pattern_prefix: Optional[str] = None):
        self.show = show
        # A pattern that began with this text, on either side, is compared without it.
        self.strip_pattern_prefix = strip_pattern_prefix
        self.stripped = collections.Counter()
        self.before: Dict[str, Case] = {}
        self.duplicates = {"before": [], "after": []}
        self.duplicate_counts = collections.Counter()
        self.after_seen = set()
        self.only_after: List[Tuple[str, str]] = []  # the first few: (id, status)
        self.only_after_count = 0
        self.compared = 0
        self.expected_skipped = 0     # abridged on a side: no expected value to compare
        self.actual_by_digest = 0     # abridged on a side: compared by actualDigest
        self.differences = {field: 0 for field in FIELDS}
        self.examples: Dict[str, List[Tuple[str, Case, Case]]] = {field: [] for field in FIELDS}

    def _duplicate(self, side: str, case_id: str):
        self.duplicate_counts[side] += 1
        if len(self.duplicates[side]) < self.show:
            self.duplicates[side].append(case_id)

    def _stripped(self, side: str, case: Case) -> Case:
        prefix = self.strip_pattern_prefix
        if prefix and case.pattern and case.pattern.startswith(prefix):
            self.stripped[side] += 1
            return case._replace(pattern=case.pattern[len(prefix):])
        return case

    def add_before(self, case_id: str, case: Case, _obj) -> None:
        case = self._stripped("before", case)
        if case_id in self.before:
            self._duplicate("before", case_id)
        self.before[case_id] = case

    def add_after(self, case_id: str, after: Case, _obj) -> None:
        after = self._stripped("after", after)
        if case_id in self.after_seen:
            self._duplicate("after", case_id)
            return
        self.after_seen.add(case_id)
        before = self.before.pop(case_id, None)
        if before is None:
            self.only_after_count += 1
            if len(self.only_after) < self.show:
                self.only_after.append((case_id, after.status))
            return
        self.compared += 1
        for field in FIELDS:
            if not self._same(field, before, after):
                self.differences[field] += 1
                if len(self.examples[field]) < self.show:
                    self.examples[field].append((case_id, before, after))

    def _same(self, field: str, before: Case, after: Case) -> bool:
        if field == "expected":
            if before.abridged or after.abridged:
                self.expected_skipped += 1
                return True
            return before.expected == after.expected
        if field == "actual":
            if before.abridged or after.abridged:
                self.actual_by_digest += 1
                return before.digest == after.digest
            return before.actual == after.actual
        return getattr(before, field) == getattr(after, field)

    @property
    def only_before(self) -> List[str]:
        return list(self.before)  # what add_after left: in BEFORE's order


MISSING = object()  # a summary member one side does not have
# Summary counts of statuses added after schema 3: a results.json written before has none.
LATER_COUNTS = ("oracleStale", "notRun")


def summary_differences(before: dict, after: dict) -> List[Tuple[str, object, object]]:
    """The members whose values differ (type included: JSON `true` is not `1`)."""
    keys = list(before) + [key for key in after if key not in before]
    differences = []
    for key in keys:
        # A count written before its status existed is 0, as the harness reads it.
        absent = 0 if key in LATER_COUNTS else MISSING
        left, right = before.get(key, absent), after.get(key, absent)
        if left != right or type(left) is not type(right):
            differences.append((key, left, right))
    return differences


def collect_actuals(runs: List[Run], wanted: set) -> Dict[Tuple[str, str], str]:
    """A second pass for the examples of differing actual values: the description of each
    wanted case's whole actual value, per run."""
    found: Dict[Tuple[str, str], str] = {}
    for run in runs:
        def on_case(case_id, case, obj, run=run):
            if case_id in wanted and not case.abridged:
                found[(run.label, case_id)] = description(obj.get("actual"))
        run.read(on_case)
    return found


def show_value(field: str, case: Case, actuals: Dict[Tuple[str, str], str], label: str,
               case_id: str) -> str:
    if field == "expected":
        return abbreviate(case.expected) if case.expected is not None else "(abridged)"
    if field == "actual":
        text = "digest %016x" % case.digest
        if case.abridged:
            return text + " (abridged)"
        value = actuals.get((label, case_id))
        return "%s (%s)" % (abbreviate(value), text) if value is not None else text
    return json.dumps(getattr(case, field), ensure_ascii=False)


def member_text(value) -> str:
    return "(absent)" if value is MISSING else json.dumps(value, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Compare two conformance report directories case by case (the proof that "
                    "a redesign changed no verdict).")
    parser.add_argument("before", metavar="BEFORE_DIR", help="report directory (or its results.json)")
    parser.add_argument("after", metavar="AFTER_DIR", help="report directory (or its results.json)")
    parser.add_argument("--show", metavar="N", type=int, default=5,
                        help="examples to print per kind of difference (default 5)")
    parser.add_argument("--strip-pattern-prefix", metavar="TEXT",
                        help="compare patterns that begin with TEXT without it, on both sides "
                             "(a change that renamed a pattern: 'not run: ' when the breaker's "
                             "cases took the fault's signature); prints how many were")
    arguments = parser.parse_args(argv)
    if arguments.show < 0:
        parser.error("--show must be 0 or more")

    comparison = Comparison(arguments.show, arguments.strip_pattern_prefix)
    try:
        before = Run("before", arguments.before)
        after = Run("after", arguments.after)
        before.read(comparison.add_before)
        after.read(comparison.add_after)
    except InputError as error:
        print("compare-runs: %s" % error, file=sys.stderr)
        return 2

    print(before.describe())
    print(after.describe())
    if arguments.strip_pattern_prefix:
        print("patterns compared without %r: %d before, %d after"
              % (arguments.strip_pattern_prefix, comparison.stripped["before"], comparison.stripped["after"]))
    print()

    reasons: List[str] = []

    # The summaries, member by member.
    summary = summary_differences(before.summary, after.summary)
    if summary:
        print("summary: %d members differ" % len(summary))
        for key, left, right in summary:
            print("  %s: before %s, after %s" % (key, member_text(left), member_text(right)))
        reasons.append("summary (%s)" % ", ".join(key for key, _, _ in summary))
    else:
        print("summary: same (%d members)" % len(before.summary))

    # Each run against its own summary.
    for run in (before, after):
        problems = run.inconsistencies()
        for problem in problems:
            print("inconsistent: %s" % problem)
        if problems:
            reasons.append("%s's cases disagree with its summary" % run.label)

    # Field by field.
    wanted = {case_id for case_id, left, right in comparison.examples["actual"]
              if not (left.abridged and right.abridged)}
    actuals: Dict[Tuple[str, str], str] = {}
    if wanted:
        try:
            actuals = collect_actuals([before, after], wanted)
        except (InputError, ValueError):
            actuals = {}  # examples then show digests only; the verdict stands
    print("cases compared: %d (non-passing in both runs)" % comparison.compared)
    for field in FIELDS:
        count = comparison.differences[field]
        note = ""
        if field == "expected" and comparison.expected_skipped:
            note = " (%d not compared: abridged on a side)" % comparison.expected_skipped
        if field == "actual" and comparison.actual_by_digest:
            note = " (%d compared by digest: abridged on a side)" % comparison.actual_by_digest
        print("  %s: %d differ%s" % (field, count, note))
        for case_id, left, right in comparison.examples[field]:
            print("    %s" % case_id)
            print("      before: %s" % show_value(field, left, actuals, "before", case_id))
            print("      after:  %s" % show_value(field, right, actuals, "after", case_id))
        if count:
            reasons.append("%s in %s" % (field, cases(count)))

    # Cases in one run only, and cases listed twice.
    only_before = [(case_id, comparison.before[case_id].status)
                   for case_id in comparison.only_before]
    for label, examples, count in (
            ("before", only_before[:arguments.show], len(only_before)),
            ("after", comparison.only_after, comparison.only_after_count)):
        print("only in %s: %d" % (label, count))
        for case_id, status in examples:
            print("    %s (%s)" % (case_id, status))
        if count:
            reasons.append("%s only in %s" % (cases(count), label))
    for label in ("before", "after"):
        count = comparison.duplicate_counts[label]
        if count:
            print("listed twice in %s: %d" % (label, count))
            for case_id in comparison.duplicates[label]:
                print("    %s" % case_id)
            reasons.append("%d ids listed twice in %s" % (count, label))

    print()
    if reasons:
        print("DIFFERENT: " + "; ".join(reasons))
        return 1
    print("same verdicts: %d cases compared" % comparison.compared)  # the wording scripts grep
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
