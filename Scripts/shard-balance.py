#!/usr/bin/env python3
"""How evenly a step cost model cuts a night, judged on another run's measured step CPU.

    Scripts/shard-balance.py RUN [--model Corpora/step-costs.json] [--shards 8,4] [--classes-only]

RUN is a finished full sweep's results directory (a single run's, or a merged night's): its
step records hold each step's evaluation CPU. The script cuts RUN's steps as `Plan.balance`
does (most expensive first, each to the lightest shard, the lowest-numbered on a tie) on the
model's expected costs, then adds up what each shard's steps cost in RUN (evaluation CPU and
the model's per-non-passing cost) and prints the slowest over the mean. `--classes-only`
ignores the model's per-step rates (the cut before they existed).

Measured 2026-12-01: a model fitted from one single run, judged on the same night's 8 shards
merged, 1.155 (8) and 1.043 (4) with class rates only, 1.004 and 1.005 with per-step rates.
"""
import argparse
import gzip
import heapq
import json
import os


def group(plan):
    text = plan.split("\t")[0]
    parts = text.split("|")
    return text, parts[0], dict(p.split("=", 1) for p in parts[1:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("--model", default=os.path.join(os.path.dirname(__file__), "..", "Corpora", "step-costs.json"))
    parser.add_argument("--shards", default="8,4")
    parser.add_argument("--classes-only", action="store_true")
    args = parser.parse_args()
    model = json.load(open(args.model))
    per_non_passing = model.get("perNonPassing", 97.0)
    measured_steps = {} if args.classes_only else (model.get("steps") or {})
    steps = [json.loads(line) for line in gzip.open(os.path.join(args.run, "steps.jsonl.gz"), "rt")]
    steps.sort(key=lambda s: s["index"])

    def per_case(check, calendar, zone_class):
        rate = model["checks"].get(check)
        if rate is None:
            return 1.0
        by_calendar = (rate.get("calendars") or {}).get(calendar, rate) if calendar else rate
        finest = (by_calendar.get("zoneClasses") or {}).get(zone_class, by_calendar) if zone_class else by_calendar
        return finest["perCase"] + (finest.get("nonPassing") or 0) * per_non_passing

    expected, truth = [], []
    for step in steps:
        text, check, dims = group(step["plan"])
        counts = step["counts"]
        cases = counts["cases"]
        key = text[len(check) + 1:] if text.startswith(check + "|") else text
        rate = measured_steps.get(check, {}).get(key)
        if rate is None:
            classes = step.get("cells", {}).get("zone class", {})
            zone_class = next(iter(classes)) if dims.get("zone") and len(classes) == 1 else None
            rate = per_case(check, dims.get("calendar"), zone_class)
        expected.append(cases * rate)
        non_passing = cases - counts["passed"] - counts["skipped"]
        truth.append(step["cpuSeconds"] + non_passing * per_non_passing / 1e6)

    for count in [int(n) for n in args.shards.split(",")]:
        order = sorted(range(len(steps)), key=lambda i: (-expected[i], i))
        heap = [(0.0, k) for k in range(count)]
        sums = [0.0] * count
        for i in order:
            load, shard = heapq.heappop(heap)
            sums[shard] += truth[i]
            heapq.heappush(heap, (load + expected[i], shard))
        mean = sum(sums) / count
        print(f"{count} shards: slowest {max(sums):.1f} CPU-s, mean {mean:.1f}: {max(sums) / mean:.3f} ×  "
              + " ".join(f"{s:.1f}" for s in sums))


if __name__ == "__main__":
    main()
