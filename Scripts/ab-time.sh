#!/usr/bin/env bash
# Times two builds of `conformance` on the same arguments, alternating, and prints each one's
# mean wall and CPU and the ratio (after / before).
#
#   Scripts/ab-time.sh BEFORE_BINARY AFTER_BINARY RUNS -- ARGUMENT...
#
# Why alternating: this machine is shared, and a minute runs up to a tenth faster or slower
# than the next (Documentation/Benchmarks.md). Runs of one build, then of the other, would
# measure the minute as much as the build; alternating puts both in the same minutes, so the
# ratio holds where absolute times drift. An argument `{out}` is replaced with a fresh
# directory for each run (removed after it), for commands that write reports.
#
# Example, a merge of 8 shard directories before and after a change:
#
#   Scripts/ab-time.sh /tmp/conformance-before .build/release/conformance 3 -- \
#     merge /tmp/shards/shard-{1..8} --out {out}
#
# Each run's own line goes to stderr; the summary to stdout. Exits 2 on bad arguments.
set -euo pipefail

if [[ $# -lt 5 || "$4" != "--" ]] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY RUNS -- ARGUMENT..." >&2
  exit 2
fi
before=$1 after=$2 runs=$3
shift 4
for binary in "$before" "$after"; do
  [[ -x "$binary" ]] || { echo "$0: $binary is not an executable" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "$0: needs GNU time (/usr/bin/time, Debian's time)" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
: > "$scratch/times"

for run in $(seq 1 "$runs"); do
  for side in before after; do
    binary=${!side}
    out="$scratch/out-$side-$run"
    arguments=()
    for argument in "$@"; do arguments+=("${argument//\{out\}/$out}"); done
    # Exit 1 is a run with findings, which is what a sweep of the real subject ends with.
    status=0
    /usr/bin/time -f "%e %U %S" -o "$scratch/time" "$binary" "${arguments[@]}" > /dev/null 2> "$scratch/err" || status=$?
    if [[ $status -gt 1 ]]; then
      echo "$0: $binary exited $status:" >&2
      tail -5 "$scratch/err" >&2
      exit 1
    fi
    read -r seconds user system < <(tail -1 "$scratch/time")
    awk -v r="$run" -v s="$side" -v w="$seconds" -v u="$user" -v k="$system" \
      'BEGIN { printf "run %d %s: %.2f s wall, %.2f s CPU\n", r, s, w, u + k }' >&2
    echo "$side $seconds $user $system" >> "$scratch/times"
    rm -rf "$out"
  done
done

awk -v before="$before" -v after="$after" '
  { wall[$1] += $2; cpu[$1] += $3 + $4; count[$1]++ }
  END {
    printf "before %s: mean %.3f s wall, %.3f s CPU over %d runs\n", before, wall["before"] / count["before"], cpu["before"] / count["before"], count["before"]
    printf "after  %s: mean %.3f s wall, %.3f s CPU over %d runs\n", after, wall["after"] / count["after"], cpu["after"] / count["after"], count["after"]
    printf "after / before: %.3f wall, %.3f CPU\n", wall["after"] / wall["before"], cpu["after"] / cpu["before"]
  }' "$scratch/times"
