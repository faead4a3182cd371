#!/usr/bin/env bash
# The one timing script: two sides of a change timed alternating, so that both meet the same
# minutes of a shared machine (a minute runs up to a tenth faster or slower than the next, and
# an evening drifts by a third: Documentation/Benchmarks.md). Ratios hold where absolute times
# drift. Every time is GNU time's wall and user + system CPU, which counts the children a
# process reaped (workers, executors).
#
#   Scripts/timing.sh command BEFORE_BINARY AFTER_BINARY RUNS -- ARGUMENT...
#     One command in two builds, RUNS times each, alternating; each side's mean wall and CPU
#     and the ratio (after / before). An argument `{out}` becomes a fresh directory per run
#     (removed after it), for commands that write reports. Example, a merge of 8 shards:
#       Scripts/timing.sh command /tmp/before/conformance .build/release/conformance 3 -- \
#         merge /tmp/shards/shard-{1..8} --out {out}
#
#   Scripts/timing.sh night BEFORE_BINARY AFTER_BINARY SHARDS DIR [MERGES [-- SELECTION...]]
#     A whole night as CI runs it, in two builds: the full sweep in SHARDS shards (`--shard
#     k/N`), then `merge`. Shard k runs in both builds back to back, before first in odd
#     shards and after first in even ones; each build then merges its own shards MERGES
#     times (default 3), alternating the same way. Outputs stay in DIR/{before,after}/
#     {shard-k,merged}, the times in DIR/times (side, step, wall s, CPU s). Prints each
#     side's sweep, merge and night, and the night on SHARDS runners (its slowest shard over
#     their mean; slowest shard + merge), the ratios, then what `conformance compare --lines`
#     says of the two merged nights (exit 1 when they differ). SELECTION defaults to the full
#     sweep; `3 --` alone sweeps the core corpus (a minute a side, to try the script).
#
#   Scripts/timing.sh loop [PASSES]
#     What a loop in a team's function costs its sweep (issue 48: at most 3 × the same sweep
#     without it): Examples/SwiftSubject's `aLoopSweepToTime` with MyPicker's `days`, which
#     loops in Chinese leap months, against one that does not, PASSES times (default 1),
#     alternating; the median ratio, exit 1 over 3. The example must be built
#     (`swift build --package-path Examples/SwiftSubject --build-tests`).
#
#   Scripts/timing.sh tests [RUNS]
#     The fast lane as a newcomer meets it (issue 50: at most 120 s): `swift test` on a fresh
#     clone of this checkout's HEAD, the build included, RUNS times (default 3), each in a new
#     clone; every run's wall time and the slowest. Exit 1 when a run fails or is over 120 s.
#
# Each run's own line goes to stderr, the summary to stdout. Exit 2 on bad arguments.
set -euo pipefail

usage() {
  sed -n '/^#   Scripts\/timing.sh /s/^#   //p' "$0" >&2
  exit 2
}
[[ -x /usr/bin/time ]] || { echo "$0: needs GNU time (/usr/bin/time, Debian's time)" >&2; exit 2; }

# timed LOG TIMES LABEL COMMAND...: runs COMMAND under GNU time, its output to LOG, and
# appends "LABEL wall cpu" to TIMES (and to stderr). Exit 1 is a run with findings, which is
# what a sweep of the real subject ends with; any other failure stops the script.
timed() {
  local log=$1 times=$2 label=$3 status=0
  shift 3
  /usr/bin/time -f "%e %U %S" -o "$log.time" "$@" > "$log" 2>&1 || status=$?
  if [[ $status -gt 1 ]]; then
    echo "$0: $* exited $status:" >&2
    tail -5 "$log" >&2
    exit 2
  fi
  read -r wall user system < <(tail -1 "$log.time")
  echo "$label $wall $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" | tee -a "$times" >&2
}

# order K A B: the two sides, A first when K is odd.
order() { if (( $1 % 2 )); then echo "$2 $3"; else echo "$3 $2"; fi; }

# binaries BEFORE AFTER: both executable, or exit 2.
binaries() {
  for binary in "$1" "$2"; do
    [[ -x "$binary" ]] || { echo "$0: $binary is not an executable" >&2; exit 2; }
  done
}

command_mode() {
  if [[ $# -lt 5 || "$4" != "--" ]] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]]; then usage; fi
  binaries "$1" "$2"
  local before=$1 after=$2 runs=$3
  shift 4
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  : > "$scratch/times"
  for run in $(seq 1 "$runs"); do
    for side in $(order "$run" before after); do
      local binary=${!side} out="$scratch/out-$side-$run" arguments=()
      for argument in "$@"; do arguments+=("${argument//\{out\}/$out}"); done
      timed "$scratch/log" "$scratch/times" "$side run-$run" "$binary" "${arguments[@]}"
      rm -rf "$out"
    done
  done
  awk -v before="$before" -v after="$after" '
    { wall[$1] += $3; cpu[$1] += $4; count[$1]++ }
    END {
      printf "before %s: mean %.3f s wall, %.3f s CPU over %d runs\n", before, wall["before"] / count["before"], cpu["before"] / count["before"], count["before"]
      printf "after  %s: mean %.3f s wall, %.3f s CPU over %d runs\n", after, wall["after"] / count["after"], cpu["after"] / count["after"], count["after"]
      printf "after / before: %.3f wall, %.3f CPU\n", wall["after"] / wall["before"], cpu["after"] / cpu["before"]
    }' "$scratch/times"
}

night_mode() {
  if [[ $# -lt 4 ]] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]] || ! [[ "${5:-3}" =~ ^[1-9][0-9]*$ ]] ||
    [[ $# -gt 5 && "$6" != "--" ]]; then usage; fi
  binaries "$1" "$2"
  local before after shards=$3 dir=$4 merges=${5:-3}
  before=$(realpath "$1") after=$(realpath "$2")
  mkdir -p "$dir/before" "$dir/after"
  : > "$dir/times"
  local selection=(--locales all --calendars all --first-weekdays all --time-zones all)
  if [[ $# -gt 5 ]]; then selection=("${@:7}"); fi
  for k in $(seq 1 "$shards"); do
    for side in $(order "$k" before after); do
      rm -rf "$dir/$side/shard-$k"
      timed "$dir/$side-shard-$k.log" "$dir/times" "$side shard-$k" "${!side}" \
        --shard "$k/$shards" --out "$dir/$side/shard-$k" ${selection[@]+"${selection[@]}"}
    done
  done
  for m in $(seq 1 "$merges"); do
    for side in $(order "$m" before after); do
      rm -rf "$dir/$side/merged"
      timed "$dir/$side-merge.log" "$dir/times" "$side merge" "${!side}" merge "$dir/$side"/shard-* \
        --out "$dir/$side/merged"
    done
  done
  awk -v merges="$merges" -v shards="$shards" '
    $2 ~ /^shard-/ { sweep[$1] += $3; sweepCPU[$1] += $4; if ($3 > slowest[$1]) slowest[$1] = $3 }
    $2 == "merge" { merge[$1] += $3 / merges; mergeCPU[$1] += $4 / merges }
    END {
      for (i = 1; i <= 2; i++) {
        s = i == 1 ? "before" : "after"
        printf "%-6s sweep %.1f s wall, %.1f s CPU; merge (mean of %d) %.1f s wall, %.1f s CPU; night %.1f s wall, %.1f s CPU\n", s, sweep[s], sweepCPU[s], merges, merge[s], mergeCPU[s], sweep[s] + merge[s], sweepCPU[s] + mergeCPU[s]
        printf "%-6s on %d runners: slowest shard %.1f s, %.3f x the mean (%.1f s); night (slowest + merge) %.1f s\n", s, shards, slowest[s], slowest[s] / (sweep[s] / shards), sweep[s] / shards, slowest[s] + merge[s]
      }
      printf "after / before: sweep %.3f wall, %.3f CPU; merge %.3f wall, %.3f CPU; night %.3f wall, %.3f CPU; on %d runners %.3f\n", sweep["after"] / sweep["before"], sweepCPU["after"] / sweepCPU["before"], merge["after"] / merge["before"], mergeCPU["after"] / mergeCPU["before"], (sweep["after"] + merge["after"]) / (sweep["before"] + merge["before"]), (sweepCPU["after"] + mergeCPU["after"]) / (sweepCPU["before"] + mergeCPU["before"]), shards, (slowest["after"] + merge["after"]) / (slowest["before"] + merge["before"])
    }' "$dir/times"
  local status=0 said
  said=$("$after" compare --lines "$dir/before/merged" "$dir/after/merged" | tail -1) || status=1
  echo "nights: $said"
  return "$status"
}

loop_mode() {
  if [[ $# -gt 1 ]] || ! [[ "${1:-1}" =~ ^[1-9][0-9]*$ ]]; then usage; fi
  local passes=${1:-1} binary
  binary=$(cd "$(dirname "$0")/.." && realpath Examples/SwiftSubject/.build/debug/MyPickerPackageTests.xctest) ||
    { echo "$0: build the example first (swift build --package-path Examples/SwiftSubject --build-tests)" >&2; exit 2; }
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  : > "$scratch/times"
  for pass in $(seq 1 "$passes"); do
    for variant in $(order "$pass" fixed looping); do
      MYPICKER_LOOP_COST=$variant timed "$scratch/$variant.log" "$scratch/times" "$variant pass-$pass" "$binary" \
        --testing-library swift-testing --filter '^MyPickerTests\.aLoopSweepToTime\(\)'
      grep -q "loop cost:" "$scratch/$variant.log" || { cat "$scratch/$variant.log" >&2; exit 1; }
    done
  done
  awk -v passes="$passes" '
    { cpu[$2, $1] = $4; wall[$2, $1] = $3 }
    END {
      for (p = 1; p <= passes; p++) {
        k = "pass-" p
        r[p] = cpu[k, "looping"] / cpu[k, "fixed"]
        printf "pass %d: without the loop %.1f CPU-s (%.1f s), with it %.1f CPU-s (%.1f s): %.2f ×\n", p, cpu[k, "fixed"], wall[k, "fixed"], cpu[k, "looping"], wall[k, "looping"], r[p] > "/dev/stderr"
      }
      # The median of the passes (insertion sort: a handful of values).
      for (i = 2; i <= passes; i++) { v = r[i]; for (j = i - 1; j >= 1 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
      median = passes % 2 ? r[(passes + 1) / 2] : (r[passes / 2] + r[passes / 2 + 1]) / 2
      printf "loop cost: %.2f × the sweep without the loop (median of %d; limit 3 ×)\n", median, passes
      exit median <= 3 ? 0 : 1
    }' "$scratch/times"
}

tests_mode() {
  if [[ $# -gt 1 ]] || ! [[ "${1:-3}" =~ ^[1-9][0-9]*$ ]]; then usage; fi
  local runs=${1:-3} repository
  repository=$(cd "$(dirname "$0")/.." && pwd)
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  : > "$scratch/times"
  for run in $(seq 1 "$runs"); do
    rm -rf "$scratch/clone"
    git clone -q "$repository" "$scratch/clone"
    (cd "$scratch/clone" && timed "$scratch/log" "$scratch/times" "run-$run" swift test) ||
      { tail -20 "$scratch/log" >&2; exit 1; }
    grep -q "Test run with .* passed" "$scratch/log" || { tail -20 "$scratch/log" >&2; exit 1; }
  done
  awk '{ printf "%s %.1f s", (NR > 1 ? "," : "swift test on a fresh clone:"), $2; if ($2 > slowest) slowest = $2 }
    END { printf "; slowest %.1f s (limit 120 s)\n", slowest; exit slowest <= 120 ? 0 : 1 }' "$scratch/times"
}

mode=${1:-}
[[ $# -gt 0 ]] && shift
case $mode in
  command) command_mode "$@" ;;
  night) night_mode "$@" ;;
  loop) loop_mode "$@" ;;
  tests) tests_mode "$@" ;;
  *) usage ;;
esac
