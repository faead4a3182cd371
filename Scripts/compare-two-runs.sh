#!/usr/bin/env bash
# Two runs of the same selection compared case by case (`conformance compare`, by the given
# build) and their case files byte for byte (decompressed: every line a run writes, values,
# detail and explain included, in plan order; the explain command's binary, which is each
# run's own by its absolute path, read as CONFORMANCE). One line: the compare's verdict; the
# bytes.
#
#   Scripts/compare-two-runs.sh CONFORMANCE BEFORE_DIR AFTER_DIR
#
# What compare-builds.sh and ab-night.sh say of their two runs. Exit 0 when both agree, 1 when
# either differs, 2 on bad arguments.
set -euo pipefail
if [[ $# -ne 3 || ! -x "$1" ]]; then
  echo "usage: $0 CONFORMANCE BEFORE_DIR AFTER_DIR" >&2
  exit 2
fi
conformance=$1 before=$2 after=$3 status=0
verdict=$("$conformance" compare "$before" "$after" 2>&1 | tail -1) || status=1
lines() { gzip -dc "$1/cases.jsonl.gz" | sed -E 's#("explain":"(CONFORMANCE_FAULT=[^ ]+ )?)/[^ "]+ explain #\1CONFORMANCE explain #'; }
if cmp -s <(lines "$before") <(lines "$after"); then
  bytes="cases.jsonl byte-identical but for the binary's path ($(gzip -dc "$after/cases.jsonl.gz" | wc -l) lines)"
else
  bytes="cases.jsonl DIFFERS (diff <(gzip -dc $before/cases.jsonl.gz) <(gzip -dc $after/cases.jsonl.gz))"
  status=1
fi
echo "$verdict; $bytes"
exit $status
