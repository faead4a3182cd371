#!/usr/bin/env python3
"""Check a fault storm's reports against a clean run's, case by case.

A storm is a run with `CONFORMANCE_FAULT=kind:glob` where the glob takes every case of one
check (`trap:*leading-blanks*`) or of one check in one calendar
(`week-of-year:leading-blanks|calendar=hebrew|*`). Issue 14 asks that such a run still
report every affected case, and give every other case exactly the clean run's result:

    python3 Scripts/compare-storm.py CLEAN_DIR STORM_DIR --check leading-blanks [--calendar hebrew]

A run lists only the cases that did not pass, so what is compared is (1) each check's counts
in results.json and (2) every listed case outside the storm, record for record (the whole
JSON line but its explain command, which names the injected fault: verdict, values,
pattern, detail, review). The affected part must be every case listed, each `errored` (it
ran and faulted) or `not-run` (the breaker stopped it first; its detail begins `not run: `),
with a fault signature as its pattern (`trap (SIGILL) in ...`, `hang in ...`); the script
prints how many of each, per signature.

Exit 0 when all holds, 1 with the first differences otherwise, 2 for unreadable input.
Standard library only.
"""

import argparse
import collections
import gzip
import json
import os
import sys


def load(directory):
    try:
        with open(os.path.join(directory, "results.json")) as handle:
            results = json.load(handle)
        cases = []
        with gzip.open(os.path.join(directory, results["files"]["cases"]), "rt") as handle:
            for line in handle:
                cases.append(json.loads(line))
    except (OSError, ValueError, KeyError) as error:
        print(f"cannot read the reports in {directory}: {error}", file=sys.stderr)
        sys.exit(2)
    return results, cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("clean")
    parser.add_argument("storm")
    parser.add_argument("--check", required=True, help="the check the fault hits")
    parser.add_argument("--calendar", help="the calendar it hits (default: every calendar)")
    arguments = parser.parse_args()

    def affected(case):
        dimensions = case.get("dimensions", {})
        return case["check"] == arguments.check and (
            arguments.calendar is None or dimensions.get("calendar") == arguments.calendar)

    clean, clean_cases = load(arguments.clean)
    storm, storm_cases = load(arguments.storm)
    problems = []

    # (1) Counts of every check the fault does not touch.
    clean_counts = {c["id"]: c["counts"] for c in clean["checks"]}
    storm_counts = {c["id"]: c["counts"] for c in storm["checks"]}
    if set(clean_counts) != set(storm_counts):
        problems.append(f"checks differ: {sorted(clean_counts)} vs {sorted(storm_counts)}")
    for check, counts in clean_counts.items():
        other = storm_counts.get(check)
        if other is None:
            continue
        if check != arguments.check and counts != other:
            problems.append(f"{check}: counts {counts} in the clean run, {other} in the storm")
        if check == arguments.check and counts["cases"] != other["cases"]:
            problems.append(f"{check}: {counts['cases']} cases in the clean run, {other['cases']} in the storm")

    # (2) Every listed case outside the storm, record for record; but the explain command,
    # which names the storm's injected fault so that it reproduces the storm's case.
    def record(case):
        return {key: value for key, value in case.items() if key != "explain"}

    clean_rest = {c["id"]: record(c) for c in clean_cases if not affected(c)}
    storm_rest = {c["id"]: record(c) for c in storm_cases if not affected(c)}
    for case_id in sorted(set(clean_rest) | set(storm_rest)):
        before, after = clean_rest.get(case_id), storm_rest.get(case_id)
        if before != after:
            problems.append(f"{case_id}: differs\n  clean: {json.dumps(before)[:400]}\n  storm: {json.dumps(after)[:400]}")

    # (3) The affected part: every case errored (it ran and faulted) or not run (the breaker
    # did not ask it), with the fault's signature either way.
    hit = [c for c in storm_cases if affected(c)]
    by_signature = collections.Counter()
    for case in hit:
        pattern = case.get("pattern", "")
        if case["verdict"] not in ("errored", "not-run") or not pattern or pattern == "error":
            problems.append(f"{case['id']}: {case['verdict']} with pattern {pattern!r}, not a fault")
        if pattern.startswith("not run"):
            problems.append(f"{case['id']}: pattern {pattern!r}: the breaker's cases keep the fault's signature")
        detail = case.get("detail") or [""]
        if case["verdict"] == "not-run" and not detail[0].startswith("not run: "):
            problems.append(f"{case['id']}: not run, but its detail does not say why: {detail[0]!r}")
        if case["verdict"] == "errored" and detail[0].startswith("not run: "):
            problems.append(f"{case['id']}: errored, but its detail says it was not run: the breaker guessed")
        by_signature[(pattern, "not run" if case["verdict"] == "not-run" else "faulted")] += 1
    if arguments.calendar is None:
        expected = clean_counts.get(arguments.check, {}).get("cases", 0)
    else:
        # A step's name is its fixed dimension values ("hebrew · UTC").
        expected = sum(s["counts"]["cases"] for s in steps(arguments.clean, clean)
                       if s["check"] == arguments.check and arguments.calendar in s["name"].split(" · "))
    if len(hit) != expected:
        problems.append(f"{len(hit)} cases of {arguments.check} listed in the storm, {expected} swept")

    print(f"clean: {clean['summary']}")
    print(f"storm: {storm['summary']}")
    for (pattern, how), count in by_signature.most_common():
        print(f"  {count:7d} × {pattern} ({how})")
    print(f"outside the storm: {len(storm_rest)} listed cases compared")
    if problems:
        for problem in problems[:20]:
            print(problem)
        print(f"DIFFERENT: {len(problems)} problems")
        sys.exit(1)
    print(f"as the clean run outside the storm; {len(hit)} affected cases, each errored or not run with a signature")


def steps(directory, results):
    """The step records (steps.jsonl.gz): each step's check, name and counts."""
    with gzip.open(os.path.join(directory, results["files"]["steps"]), "rt") as handle:
        return [json.loads(line) for line in handle]


if __name__ == "__main__":
    main()
