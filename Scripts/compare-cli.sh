#!/usr/bin/env bash
# A change to the command line keeps what users see: two builds of `conformance` are given the
# same command lines (every help text, a table of bad inputs, dry runs, small real runs and
# explain commands) and what each printed and exited with is compared, file by file.
#
#   Scripts/compare-cli.sh BEFORE_BINARY AFTER_BINARY
#   OUT=/tmp/cli Scripts/compare-cli.sh /tmp/before/conformance .build/debug/conformance
#
# Captures go under $OUT (.build/compare-cli)/before and /after: NAME.out, NAME.err, NAME.rc
# per command line, and for a real run NAME.run (results.json's arguments, explain command and
# options by name), NAME.order (the options' order) and NAME.explain (every explain command its
# cases file prints). The binary's path,
# the capture directory and timings are normalised. Exit 0 when the two agree, 1 (with the
# diff) when they differ, 2 on bad input. About a minute a build.
set -euo pipefail
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2
  exit 2
fi
before=$(realpath "$1"); after=$(realpath "$2")
cd "$(dirname "$0")/.."
out=$(realpath -m "${OUT:-.build/compare-cli}")
case_id='weekday-symbols|locale=zh_CN|calendar=gregorian|fw=own'
small=(--locales en_US --calendars gregorian --time-zones UTC --years 2021...2021)
failing=(--locales zh_CN,en_US --calendars gregorian --time-zones UTC --years 2021...2021
         --checks weekday-symbols)

# NAME ARGS...: runs the binary under capture; its output normalised into $dir/NAME.*.
run() {
  local name=$1; shift
  set +e
  "$binary" "$@" >"$dir/$name.out" 2>"$dir/$name.err" </dev/null
  echo $? >"$dir/$name.rc"
  set -e
  normalise "$dir/$name.out" "$dir/$name.err"
}

normalise() {
  sed -i -e "s#$binary#conformance#g" -e "s#$dir#DIR#g" -e '/^progress: /d' \
    -e 's/in [0-9.]* s\b/in N s/g' \
    -e 's/([0-9]\{4\}-[0-9-]*T[0-9:]*Z)/(DATE)/g' -e "s#$PWD#PACKAGE#g" "$@"
}

# NAME ARGS...: a real run into DIR/NAME, then what it reports of its options.
sweep() {
  local name=$1; shift
  run "$name" "$@" --out "$dir/runs/$name"
  if [ -f "$dir/runs/$name/results.json" ]; then
    # The options' values apart from their order, so a reordering shows as one line.
    jq -c '.run | {arguments, explain, options: (.options | sort_by(.name))}' \
      "$dir/runs/$name/results.json" >"$dir/$name.run"
    jq -r '[.run.options[].name] | join(" ")' "$dir/runs/$name/results.json" >"$dir/$name.order"
    zcat "$dir/runs/$name/cases.jsonl.gz" | jq -r '.explain // empty' >"$dir/$name.explain"
    normalise "$dir/$name.run" "$dir/$name.explain"
  fi
}

capture() {
  binary=$1 dir=$2
  rm -rf "$dir"; mkdir -p "$dir/runs"
  local topics=(explain bench merge compare schema self-test executor costs)
  run help --help; run help-short -h; run help-word help; run version --version
  for topic in "${topics[@]}"; do
    run "help-$topic" help "$topic"; run "$topic-help" "$topic" --help; run "$topic-h" "$topic" -h
  done
  run help-nosuch help nosuch; run help-misspelt help explian

  # Bad input: a sweep's options.
  run locale --locale en_US; run calendar --calendar gregorian; run bogus --bogus; run dash-x -x
  run jobs-0 --jobs 0; run jobs-x --jobs x; run jobs-eq-0 --jobs=0; run jobs-missing --jobs
  run shard-9-8 --shard 9/8; run shard-x --shard x; run shard-eq --shard=0/2
  run years-backwards --years 2021...2020; run years-one --years 2021
  run years-outside --years=1800...1850; run years-missing --years --dry-run
  run locales-missing --locales; run locales-empty --locales ''; run locales-eq-empty --locales=
  run locales-at --locales @; run checks-empty --checks ''; run checks-comma --checks ,
  run out-empty --out ''; run out-eq-empty --out=; run record --record some
  run fail-on --fail-on unexpectd; run oracle-stale --oracle-stale x; run oracle --oracle x
  run month-sweep --month-sweep x; run transitions --transitions x
  run case-timeout-0 --case-timeout 0; run case-timeout-x --case-timeout soon
  run subject --subject foo; run subject-exec --subject exec:; run subject-empty --subject ''
  run subject-log --subject-log /tmp/x; run first-weekdays --first-weekdays 9
  run first-weekdays-empty --first-weekdays ''
  run dashdash-extra -- extra; run dashdash-option --dry-run -- --locales en_US
  run subcommand-unknown nosuch; run subcommand-misspelt explian; run worker-extra __worker x
  run flag-with-value --dry-run=no --years 2021...2021 --time-zones UTC
  run help-after-bad --jobs 0 --help; run help-before-bad --help --jobs 0
  run value-is-option --out --dry-run

  # Bad input: subcommands.
  run explain-none explain; run explain-two explain a b
  run explain-waiver explain --waiver x "$case_id"; run explain-corpora-missing explain --corpora
  run explain-subject explain --subject foo "$case_id"
  run explain-bad-id explain 'leading-blanks|month=2021-13-01'
  run explain-dashdash explain -- --weird; run explain-eq explain --waivers= "$case_id"
  run bench-quick-shards bench --quick --shards 4; run bench-shards-1 bench --shards 1
  run bench-shards-twice bench --shards 8,4,8; run bench-passes bench --passes 2
  run bench-passes-0 bench --shards 8 --passes 0; run bench-holes-reference bench --holes --reference
  run bench-holes-shards bench --holes --shards 4; run bench-jobs bench --jobs 0
  run bench-misspelt bench --jbos 2; run bench-shards-eq bench --shards=x
  run bench-positional bench extra
  run merge-none merge; run merge-misspelt merge --ot x a; run merge-out-missing merge a --out
  run compare-none compare; run compare-one compare a; run compare-three compare a b c
  run compare-show compare --show -1 a b; run compare-misspelt compare --sho 2 a b
  run schema-none schema; run schema-misspelt schema case-recrd; run schema-option schema --x
  run schema-two schema a b; run schema schema case-record
  run self-test-mutants self-test --mutants nosuch; run self-test-jobs self-test --jobs 0
  run self-test-misspelt self-test --mutant x
  run executor-misbehave executor --misbehave nonsense; run executor-misspelt executor --contrct
  run costs-none costs; run costs-two costs a b; run costs-misspelt costs --corpra x
  run costs-missing costs /no/such/run

  # What a selection covers.
  run dry-small --dry-run --locales en_US,de_DE --calendars gregorian --years 2020...2021
  run dry-many --dry-run --locales=en_US --calendars=hebrew,persian --time-zones UTC,Asia/Tehran \
    --first-weekdays own,2 --checks leading-blanks,month-days --years=2000...2001 \
    --transitions all --month-sweep per-offset
  run dry-shard --dry-run --shard 2/3 --exhaustive --time-zones UTC --years 2021...2021
  run dry-oracle --dry-run --calendars all --oracle direct --years 2021...2021 --time-zones UTC
  run dry-dashdash --dry-run --years 2021...2021 --time-zones UTC --

  # Real runs: what they report of their options, and the explain commands they print.
  sweep run-small "${small[@]}" --checks leading-blanks
  sweep run-failing "${failing[@]}" --waivers none --record all --jobs 1 --fail-on any \
    --oracle-stale fail --case-timeout 4 --no-isolation
  sweep run-baseline "${small[@]}" --checks leading-blanks --shard 1/2 \
    --baseline "$dir/runs/run-small" --history "$dir/runs" --oracle direct --month-sweep per-offset
  sweep run-executor "${failing[@]}" --subject "exec:$binary executor" --corpora "$PWD/Corpora" \
    --subject-log "$dir/runs/subject.log" --exhaustive
  sweep run-executor-waivers "${failing[@]}" --subject "exec:$binary executor" \
    --waivers Corpora/known-differences.json
  CONFORMANCE_FAULT="trap:$case_id" sweep run-fault "${failing[@]}" --waivers Corpora/known-differences.json
  run explain "explain" "$case_id" --waivers none
  run explain-executor explain --subject "exec:$binary executor" -- "$case_id"
}

capture "$before" "$out/before"
capture "$after" "$out/after"
if diff -r "$out/before" "$out/after" -x runs -x '*.log'; then
  echo "compare-cli: the same ($(ls "$out/before" | wc -l) files)"
else
  echo "compare-cli: different (above; captures in $out)"
  exit 1
fi
