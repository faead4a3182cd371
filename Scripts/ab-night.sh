#!/usr/bin/env bash
# Times a whole night, the full sweep and its merge, in two builds of `conformance`, and
# compares the two nights case by case. The night runs as CI runs it: the full sweep in
# SHARDS shards (`--shard k/N`), then `merge`. Issue 33's "full sweep and merge no slower"
# is this script's last line.
#
#   Scripts/ab-night.sh BEFORE_BINARY AFTER_BINARY SHARDS DIR [MERGES [-- SELECTION...]]
#   Scripts/ab-night.sh /tmp/before/conformance .build/release/conformance 2 /tmp/night
#
# SELECTION defaults to the full sweep; `3 --` alone sweeps the core corpus (a minute a side,
# to try the script).
#
# Why shards, alternating: this machine is shared and drifts by a third over an evening
# (Documentation/Benchmarks.md), and one full sweep takes half an hour. Whole sweeps one after
# the other would time the half hours as much as the builds. Shard k runs in both builds
# back to back, before first in odd shards and after first in even ones, so each build meets
# the same minutes. Each build then merges its own shards MERGES times (default 3),
# alternating the same way. Outputs stay in DIR/{before,after}/{shard-k,merged}; the times
# in DIR/times (side, step, wall s, CPU s).
#
# Prints each side's sweep, merge and night (sum) and the ratios after / before, then what
# `conformance compare --lines` says of the two merged nights. Exit 0 when the nights are the
# same, 1 when they differ, 2 on bad arguments.
set -euo pipefail

if [[ $# -lt 4 ]] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]] || ! [[ "${5:-3}" =~ ^[1-9][0-9]*$ ]] ||
  [[ $# -gt 5 && "$6" != "--" ]]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY SHARDS DIR [MERGES [-- SELECTION...]]" >&2
  exit 2
fi
for binary in "$1" "$2"; do
  [[ -x "$binary" ]] || { echo "$0: $binary is not an executable" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "$0: needs GNU time (/usr/bin/time, Debian's time)" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2") shards=$3 dir=$4 merges=${5:-3}
mkdir -p "$dir/before" "$dir/after"
: > "$dir/times"
selection=(--locales all --calendars all --first-weekdays all --time-zones all)
if [[ $# -gt 5 ]]; then selection=("${@:7}"); fi

# timed SIDE STEP ARGUMENT...: runs SIDE's build, appends its wall and CPU to DIR/times.
timed() {
  local side=$1 step=$2 binary status=0
  shift 2
  binary=$before; [[ $side == after ]] && binary=$after
  # Exit 1 is a night with findings, which is what a sweep of the real subject ends with.
  /usr/bin/time -f "%e %U %S" -o "$dir/time" "$binary" "$@" > "$dir/$side-$step.log" 2>&1 || status=$?
  if [[ $status -gt 1 ]]; then
    echo "$0: $binary $step exited $status:" >&2
    tail -5 "$dir/$side-$step.log" >&2
    exit 2
  fi
  read -r wall user system < <(tail -1 "$dir/time")
  echo "$side $step $wall $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" | tee -a "$dir/times" >&2
}

# order K: the two sides, before first when K is odd.
order() { if (( $1 % 2 )); then echo before after; else echo after before; fi; }

for k in $(seq 1 "$shards"); do
  for side in $(order "$k"); do
    rm -rf "$dir/$side/shard-$k"
    timed "$side" "shard-$k" --shard "$k/$shards" --out "$dir/$side/shard-$k" ${selection[@]+"${selection[@]}"}
  done
done
for m in $(seq 1 "$merges"); do
  for side in $(order "$m"); do
    rm -rf "$dir/$side/merged"
    timed "$side" merge merge "$dir/$side"/shard-* --out "$dir/$side/merged"
  done
done

awk -v merges="$merges" '
  $2 ~ /^shard-/ { sweep[$1] += $3; sweepCPU[$1] += $4 }
  $2 == "merge" { merge[$1] += $3 / merges; mergeCPU[$1] += $4 / merges }
  END {
    for (i = 1; i <= 2; i++) {
      s = i == 1 ? "before" : "after"
      printf "%-6s sweep %.1f s wall, %.1f s CPU; merge (mean of %d) %.1f s wall, %.1f s CPU; night %.1f s wall, %.1f s CPU\n", s, sweep[s], sweepCPU[s], merges, merge[s], mergeCPU[s], sweep[s] + merge[s], sweepCPU[s] + mergeCPU[s]
    }
    printf "after / before: sweep %.3f wall, %.3f CPU; merge %.3f wall, %.3f CPU; night %.3f wall, %.3f CPU\n", sweep["after"] / sweep["before"], sweepCPU["after"] / sweepCPU["before"], merge["after"] / merge["before"], mergeCPU["after"] / mergeCPU["before"], (sweep["after"] + merge["after"]) / (sweep["before"] + merge["before"]), (sweepCPU["after"] + mergeCPU["after"]) / (sweepCPU["before"] + mergeCPU["before"])
  }' "$dir/times"

status=0
said=$("$after" compare --lines "$dir/before/merged" "$dir/after/merged" | tail -1) || status=1
echo "nights: $said"
exit "$status"
