#!/usr/bin/env bash
# Two builds of `conformance` against each other where the breaker decides (issue 33's one
# breaker for worker isolation and executors): a trap storm in worker processes, and an
# executor whose answers to one function are of the wrong type. One worker (--jobs 1), so
# which cases ran before a trip does not depend on two workers racing; each pair is
# compared by Scripts/compare-builds.sh (case by case, and the case files byte for byte).
#
#   Scripts/compare-breaker.sh BEFORE_BINARY AFTER_BINARY
set -euo pipefail
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
after=$(realpath "$2")
slice=(--locales en_US,fa_IR,he_IL --calendars gregorian,hebrew,persian,chinese
       --time-zones UTC,Asia/Tehran,America/Sao_Paulo --years 2017...2021 --jobs 1)
status=0
OUT=${OUT:-.build/compare-breaker}/trap CONFORMANCE_FAULT='trap:*leading-blanks*' \
  Scripts/compare-builds.sh "$1" "$2" "${slice[@]}" || status=1
OUT=${OUT:-.build/compare-breaker}/executor Scripts/compare-builds.sh "$1" "$2" "${slice[@]}" \
  --subject "exec:'$after' executor --misbehave wrong-type:closes --misbehave crash:days:persian" || status=1
exit $status
