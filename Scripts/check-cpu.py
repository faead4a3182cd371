#!/usr/bin/env python3
"""CPU per check of two runs, from their step records (each step's thread CPU).

Two runs are two moments of a shared machine: their ratio carries the machine's drift
(a third over an evening). `conformance bench` measures what a change costs in one run;
this says where the CPU went, check by check.

Usage: Scripts/check-cpu.py BEFORE_DIR AFTER_DIR
"""
import collections
import gzip
import json
import os
import sys


def cpu_by_check(directory):
    cpu = collections.Counter()
    with gzip.open(os.path.join(directory, "steps.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            step = json.loads(line)
            cpu[step["check"]] += step.get("cpuSeconds", 0)
    return cpu


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = (cpu_by_check(d) for d in sys.argv[1:])
    print(f"{'check':24s} {'before':>9s} {'after':>9s}")
    for check in sorted(set(before) | set(after), key=lambda c: -after.get(c, 0)):
        print(f"{check:24s} {before.get(check, 0):9.1f} {after.get(check, 0):9.1f}")
    total = (sum(before.values()), sum(after.values()))
    print(f"{'total':24s} {total[0]:9.1f} {total[1]:9.1f}  ({(total[1] / total[0] - 1) * 100:+.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
