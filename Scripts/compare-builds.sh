#!/usr/bin/env bash
# A redesign keeps behaviour: two builds of `conformance` sweep the same selections and are
# compared case by case and their case files line by line, byte for byte (`conformance
# compare --lines`, by the AFTER build: every line a run writes, values, detail and explain
# included, in plan order).
#
#   Scripts/compare-builds.sh BEFORE_BINARY AFTER_BINARY [extra conformance options]
#   Scripts/compare-builds.sh /tmp/before/.build/release/conformance .build/release/conformance
#
# Runs go under $OUT (.build/compare-builds).
# Runs the core corpus and the core corpus with --record all (FULL=1 adds the full sweep,
# --locales all --calendars all --first-weekdays all --time-zones all: ~20 minutes a build
# on 2 cores). Exit 0 when every pair is the same; 1 when one differs; 2 on bad input.
set -euo pipefail
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY [extra conformance options]" >&2
  exit 2
fi
before=$(realpath "$1"); after=$(realpath "$2"); shift 2
extra=("$@")
cd "$(dirname "$0")/.."
out=${OUT:-.build/compare-builds}
mkdir -p "$out"

selections=("core:" "core-record-all:--record all")
[ "${FULL:-0}" = 1 ] && selections+=("full:--locales all --calendars all --first-weekdays all --time-zones all")
status=0
for selection in "${selections[@]}"; do
  name=${selection%%:*}; options=${selection#*:}
  for side in before after; do
    binary=$before; [ "$side" = after ] && binary=$after
    rm -rf "$out/$name-$side"
    set +e
    # shellcheck disable=SC2086
    "$binary" --out "$out/$name-$side" $options ${extra[@]+"${extra[@]}"} >"$out/$name-$side.log" 2>&1
    code=$?
    set -e
    [ "$code" -le 1 ] || { echo "$name ($side): conformance exited $code" >&2; tail -5 "$out/$name-$side.log" >&2; exit 2; }
  done
  said=$("$after" compare --lines "$out/$name-before" "$out/$name-after" | tail -1) || status=1
  echo "$name: $said"
done
exit $status
