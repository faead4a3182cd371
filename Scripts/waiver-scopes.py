#!/usr/bin/env python3
"""What each waiver explained in a run, by dimension, and whether its scope lists it.

A waiver's `scope` (Corpora/known-differences.json) names the cases it was written for: with
`--baseline`, a case that newly fails is waived only by a waiver whose scope lists it. This
reads a run's cases (`cases.jsonl.gz`, waived cases are always recorded) and prints, for
each waiver, how many cases it waived and the values of each dimension among them: where
the scopes' lists come from. With --check it exits 1 when a waived case lies outside its
waiver's scope (a nightly baseline would call that case new if it had passed the night
before), naming the waiver and an example.

Usage: Scripts/waiver-scopes.py RESULTS_DIR [--waivers FILE] [--check] [--values N]
"""
import argparse
import collections
import fnmatch
import gzip
import json
import os
import sys


def parse_id(text):
    """`check|key=value|...` → (check, {key: value})."""
    parts = text.split("|")
    values = {}
    for part in parts[1:]:
        key, _, value = part.partition("=")
        values[key] = value
    return parts[0], values


def globs_hold(conditions, values):
    """The waiver's dimension rule: any positive glob matches, or no negated one excludes."""
    for key, globs in conditions.items():
        globs = [globs] if isinstance(globs, str) else globs
        value = values.get(key)
        if value is None:
            return False
        if all(g.startswith("!") for g in globs):
            if any(fnmatch.fnmatchcase(value, g[1:]) for g in globs):
                return False
        elif not any(fnmatch.fnmatchcase(value, g) for g in globs if not g.startswith("!")):
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--waivers", default=os.path.join(
        os.path.dirname(__file__), "..", "Corpora", "known-differences.json"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--values", type=int, default=12,
                        help="list a dimension's values when there are at most this many")
    args = parser.parse_args()
    with open(args.waivers) as f:
        waivers = {w["id"]: w for w in json.load(f)["waivers"]}
    counts = collections.Counter()
    values = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    outside = collections.Counter()
    example = {}
    with gzip.open(os.path.join(args.results, "cases.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            waiver = (case.get("review") or {}).get("waiver")
            if not waiver:
                continue
            check, dims = parse_id(case["id"])
            counts[waiver] += 1
            for key, value in dims.items():
                values[waiver][key][value] += 1
            scope = waivers.get(waiver, {}).get("scope")
            if scope is None or not globs_hold(scope, dims):
                outside[waiver] += 1
                example.setdefault(waiver, case["id"])
    for waiver, count in counts.most_common():
        scope = waivers.get(waiver, {}).get("scope")
        print(f"{waiver}: {count} waived; scope {json.dumps(scope) if scope else 'none'}")
        for key, seen in sorted(values[waiver].items()):
            listed = sorted(seen) if len(seen) <= args.values else f"{len(seen)} values"
            print(f"  {key}: {listed}")
        if outside[waiver]:
            print(f"  OUTSIDE its scope: {outside[waiver]} (e.g. {example[waiver]})")
    if args.check and outside:
        print(f"{sum(outside.values())} waived cases lie outside their waiver's scope "
              f"({', '.join(sorted(outside))})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
