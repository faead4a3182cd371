#!/usr/bin/env python3
"""A run's files as CI's scripts read them: one reader, one status rule.

`.ci/run`, `.ci/check-contract` and `.ci/check-page` import it (the status of a case from its
record is the harness's `CaseStatus`, written down once here), and `.ci/run` calls it:

    .ci/results.py summary DIR          the summary adds up and the cases file holds every
                                        case that did not pass, each status as counted
    .ci/results.py junit DIR STATUS     junit.xml read with junitparser: results.json's
                                        testcase counts, red exactly when STATUS is 1, every
                                        result with a message
"""
import collections
import gzip
import json
import os
import sys

# results.json's summary keys of the statuses a cases file lists (passed and skipped cases
# are listed only with --record all).
LISTED = ["failed", "errored", "notRun", "waived", "oracleStale", "unexpectedPasses"]
SUMMARY_KEY = {"not-run": "notRun", "oracle-stale": "oracleStale", "unexpected-pass": "unexpectedPasses"}


def results(run):
    with open(os.path.join(run, "results.json")) as file:
        return json.load(file)


def cases(run, record=None):
    """Each case record of the run, in plan order."""
    record = record or results(run)
    with gzip.open(os.path.join(run, record["files"]["cases"]), "rt") as lines:
        for line in lines:
            yield json.loads(line)


def status(case):
    """A case's status from its record (`CaseStatus`): a waiver makes a failure waived and a
    pass unexpected, never a case not run; libicu's older data makes a failure oracle-stale."""
    review = case.get("review", {})
    if review.get("waiver") and case["verdict"] != "not-run":
        return "unexpected-pass" if case["verdict"] == "passed" else "waived"
    if review.get("oracleStale") and case["verdict"] == "failed":
        return "oracle-stale"
    return case["verdict"]


def check_summary(run):
    record = results(run)
    summary = record["summary"]
    assert summary["cases"] == summary["passed"] + summary["skipped"] + sum(summary[k] for k in LISTED), summary
    seen = collections.Counter(SUMMARY_KEY.get(status(case), status(case)) for case in cases(run, record))
    for key in LISTED:
        assert seen[key] == summary[key], (key, seen[key], summary[key])
    if record["files"]["casesHold"] == "all":
        assert sum(seen.values()) == summary["cases"], (seen, summary)
    print("results.json:", summary)


def check_junit(run, exit_status):
    from junitparser import JUnitXml
    record = results(run)
    want = {k: sum(c["testcases"][k] for c in record["checks"]) for k in ["tests", "failures", "errors", "skipped"]}
    xml = JUnitXml.fromfile(os.path.join(run, "junit.xml"))
    got = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in xml:
        for case in suite:
            got["tests"] += 1
            for result in case.result:
                got[{"Failure": "failures", "Error": "errors", "Skipped": "skipped"}[type(result).__name__]] += 1
                assert result.message, (case.name, type(result).__name__, "no message")
    assert got == want, (got, want)
    # Red testcases exactly when the --fail-on rule fired.
    assert (got["failures"] + got["errors"] > 0) == (exit_status == 1), (got, exit_status)
    print("junit.xml (junitparser):", got)


if __name__ == "__main__":
    command, run = sys.argv[1], sys.argv[2]
    if command == "summary":
        check_summary(run)
    elif command == "junit":
        check_junit(run, int(sys.argv[3]))
    else:
        sys.exit(f"{command}: not a command (summary DIR, junit DIR STATUS)")
