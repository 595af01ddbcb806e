#!/usr/bin/env bash
# Runs one fuzz target for a set time, at the lowest CPU priority, one job:
#
#   Fuzz/run.sh TARGET SECONDS [--record] [--merge]
#
# TARGET is image, weights, model, cli, request, video, result (libFuzzer, built by `make fuzz-build`, or
# with FUZZ_BUILD=.build-asan the AddressSanitizer test build's targets, as `make fuzz-ci` runs them) or checkpoint
# (atheris over tools/checkpoint.py). The working corpus and any findings go to
# .build-fuzz/work/TARGET/{corpus,artifacts}; the committed seeds in Fuzz/Corpus/TARGET (and the
# extra seed folders below) are read first, so every run replays every earlier finding.
# --record appends the run to Fuzz/stats.tsv (executions, corpus, findings), whose per-target
# totals `make fuzz-stats` prints; --merge then adds to Fuzz/Corpus/TARGET the inputs of the
# working corpus that reach new coverage (libFuzzer -merge=1), to be committed. Exit status 1 if
# the run found anything.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: Fuzz/run.sh TARGET SECONDS [--record] [--merge]}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS [--record] [--merge]}
shift 2
record=no merge=no
for flag in "$@"; do
  case $flag in
    --record) record=yes ;;
    --merge) merge=yes ;;
    *) echo "unknown flag $flag" >&2; exit 2 ;;
  esac
done
work=.build-fuzz/work/$target
build=${FUZZ_BUILD:-.build-fuzz}  # where the targets were built: .build-fuzz (make fuzz-build) or .build-asan (make fuzz-ci)
mkdir -p "$work/corpus" "$work/artifacts" "Fuzz/Corpus/$target"
export SWIFT_BACKTRACE=enable=no  # libFuzzer reports crashes itself; the Swift backtracer would hang it
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=0:detect_leaks=1}

seeds=("Fuzz/Corpus/$target")
options=(-max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10
         -print_final_stats=1 -artifact_prefix="$work/artifacts/")
[ -f "Fuzz/Dictionaries/$target.dict" ] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
case $target in
  image)
    seeds+=(Tests/Fixtures/images/decode Tests/Fixtures/images/hostile)
    options+=(-max_len=65536)
    runner=("$build"/release/fuzz-image) ;;
  weights)
    seeds+=(.build-fuzz/seeds/weights)  # the tiny model, cut to max_len: its header, metadata and table
    options+=(-max_len=8192)
    runner=("$build"/release/fuzz-weights) ;;
  model)
    export SWIFT_YOLO_FUZZ_TENSORS=.build-fuzz/seeds/tiny-yolo11.swyolo
    options+=(-max_len=65536)
    runner=("$build"/release/fuzz-model) ;;
  cli)
    options+=(-max_len=2048)
    runner=("$build"/release/fuzz-cli) ;;
  request)
    options+=(-max_len=65536)
    runner=("$build"/release/fuzz-request) ;;
  video)
    options+=(-max_len=65536)
    runner=("$build"/release/fuzz-video) ;;
  result)
    options+=(-max_len=65536)
    runner=("$build"/release/fuzz-result) ;;
  checkpoint)
    options+=(-max_len=262144)
    runner=(python3 tools/fuzz/fuzz_checkpoint.py) ;;
  *)
    echo "unknown fuzz target '$target' (image, weights, model, cli, request, video, result, checkpoint)" >&2
    exit 2 ;;
esac

before=$(find "$work/artifacts" -type f | wc -l)
log=$work/last-run.log
echo "fuzz $target: ${seconds}s, corpus $work/corpus, seeds ${seeds[*]}"
status=0
started=$(date +%s)
nice -n 19 "${runner[@]}" "${options[@]}" "$work/corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
elapsed=$(( $(date +%s) - started ))  # less than asked when a finding stops the run

executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -n 1 | cut -d' ' -f2)
findings=$(( $(find "$work/artifacts" -type f | wc -l) - before ))
grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::)' "$log" || true
echo "fuzz $target: ${executions:-0} executions in ${elapsed}s, corpus ${corpus:-?}, ${findings} new finding(s), exit status $status"

if [ "$record" = yes ]; then
  [ -f Fuzz/stats.tsv ] || printf 'ended\ttarget\tseconds\texecutions\tcorpus\tfindings\tcommit\n' > Fuzz/stats.tsv
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$target" "$elapsed" "${executions:-0}" \
    "${corpus:-?}" "$findings" "$(git rev-parse --short HEAD 2>/dev/null || echo -)" >> Fuzz/stats.tsv
fi

if [ "$merge" = yes ] && [ "$status" -eq 0 ]; then
  before_merge=$(ls "Fuzz/Corpus/$target" | wc -l)
  nice -n 19 "${runner[@]}" -merge=1 "${options[@]:1}" "Fuzz/Corpus/$target" "$work/corpus" >"$work/last-merge.log" 2>&1 \
    || { echo "merge failed, see $work/last-merge.log" >&2; exit 1; }
  echo "fuzz $target: merged $(( $(ls "Fuzz/Corpus/$target" | wc -l) - before_merge )) input(s) into Fuzz/Corpus/$target"
fi

if [ "$findings" -gt 0 ] || [ "$status" -ne 0 ]; then
  echo "FINDING in $target — the log is $log; the inputs:" >&2
  ls -t "$work/artifacts" | head -n "$(( findings > 0 ? findings : 1 ))" | sed "s|^|  $work/artifacts/|" >&2
  tail -n 60 "$log" >&2
  echo "reproduce: ${runner[*]} ARTIFACT   (SWIFT_BACKTRACE=enable=no)" >&2
  exit 1
fi
