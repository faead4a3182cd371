#!/bin/bash
# What a loop in a team's function costs its sweep (issue 48: at most 3 × the same sweep
# without the loop). Times Examples/SwiftSubject's `aLoopSweepToTime` (ConformanceKit's
# defaults: worker processes of the test binary) twice under GNU time, whose user + system
# CPU counts the test binary and every worker it reaped: with MyPicker's `days`, which loops
# in Chinese leap months (two cases of the sweep), and with one that does not loop.
# Prints both and the ratio; exit 1 when it is over 3. The example must be built
# (`swift build --package-path Examples/SwiftSubject --build-tests`).
#
#   Scripts/loop-cost.sh [passes]     (default 1; the median ratio of the passes)
set -euo pipefail
passes=${1:-1}
binary=$(ls Examples/SwiftSubject/.build/debug/MyPickerPackageTests.xctest)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ratios=()
for pass in $(seq 1 "$passes"); do
  for variant in fixed looping; do
    MYPICKER_LOOP_COST=$variant /usr/bin/time -f '%U %S %e' -o "$scratch/$variant" "$binary" \
      --testing-library swift-testing --filter '^MyPickerTests\.aLoopSweepToTime\(\)' > "$scratch/$variant.log" 2>&1 || {
      cat "$scratch/$variant.log" >&2; exit 1; }
    grep -q "loop cost:" "$scratch/$variant.log" || { cat "$scratch/$variant.log" >&2; exit 1; }
  done
  ratio=$(python3 - "$scratch" "$pass" <<'PY'
import sys
read = lambda name: [float(x) for x in open(f"{sys.argv[1]}/{name}").read().split()[-3:]]
fixed, looping = read("fixed"), read("looping")
cpu = lambda t: t[0] + t[1]
ratio = cpu(looping) / cpu(fixed)
print(f"pass {sys.argv[2]}: without the loop {cpu(fixed):.1f} CPU-s ({fixed[2]:.1f} s), with it "
      f"{cpu(looping):.1f} CPU-s ({looping[2]:.1f} s): {ratio:.2f} ×", file=sys.stderr)
print(f"{ratio:.3f}")
PY
)
  ratios+=("$ratio")
done
python3 - "${ratios[@]}" <<'PY'
import statistics, sys
ratio = statistics.median(float(r) for r in sys.argv[1:])
print(f"loop cost: {ratio:.2f} × the sweep without the loop (median of {len(sys.argv) - 1}; limit 3 ×)")
sys.exit(0 if ratio <= 3 else 1)
PY
