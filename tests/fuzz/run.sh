#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz on their seeds (tests/fuzz/seeds/TARGET).
#
#   tests/fuzz/run.sh [--build DIR] [--time SECONDS | --runs N] [TARGET...] [-- LIBFUZZER-OPTION...]
#
# DIR is a build configured with -DSYSID_FUZZ=ON (default build-fuzz, see
# tests/ci/sanitize-and-fuzz.sh). --time 45 is what CI runs; the long run is
# --runs 1000000 (a million inputs per target). TARGET is model, csv or project (default: all).
# New inputs that reach new code go to DIR/fuzz/corpus/TARGET and are reused by the next run;
# a finding is saved as DIR/fuzz/findings/TARGET-crash-*, -timeout-*, -oom-* or -leak-*.
# Reproduce one with: DIR/tests/fuzz/fuzz_TARGET_... FILE. Exit status 1 when any target found something.
# To collect every finding instead of stopping at the first: -- -fork=1 -ignore_crashes=1
# -ignore_timeouts=1 -ignore_ooms=1.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build-fuzz"
limit=(-max_total_time=60)
targets=()
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --time) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    model|csv|project) targets+=("$1"); shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: $0 [--build DIR] [--time SECONDS | --runs N] [model|csv|project...]" >&2; exit 2 ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(model csv project)

declare -A binary=([model]=fuzz_model_parser [csv]=fuzz_csv_reader [project]=fuzz_project_reader)
# Longest input: a model or project long enough for deep nesting and long sums; a CSV of some rows.
declare -A maxlen=([model]=16384 [csv]=8192 [project]=16384)

export ASAN_OPTIONS="detect_stack_use_after_return=0:allocator_may_return_null=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
# The project target writes its inputs into a folder it makes here; a crash leaves it behind.
export TMPDIR="$build/fuzz/tmp"
mkdir -p "$TMPDIR"

status=0
summary=()
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz/${binary[$t]}"
  if [[ ! -x "$exe" ]]; then
    echo "run.sh: $exe is not built (cmake --build $build --target ${binary[$t]})" >&2
    exit 2
  fi
  corpus="$build/fuzz/corpus/$t"
  findings="$build/fuzz/findings"
  log="$build/fuzz/$t.log"
  mkdir -p "$corpus" "$findings"
  echo "== fuzz $t: ${limit[*]} -max_len=${maxlen[$t]} ${extra[*]} (log: $log)"
  # -timeout: one input taking longer is a finding (a hang; generous for a loaded machine); -rss_limit_mb: so is more memory.
  "$exe" "$corpus" "$root/tests/fuzz/seeds/$t" "${limit[@]}" -max_len="${maxlen[$t]}" -timeout=20 \
    -rss_limit_mb=2048 -artifact_prefix="$findings/$t-" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # -fork prints no final statistics: the last status line counts the inputs run
  [[ -n "$runs" ]] || runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  if [[ $rc -ne 0 ]]; then
    status=1
    grep -m1 -E 'ERROR: |terminate called|runtime error|==[0-9]+==' "$log" || true
    grep -E 'Test unit written to' "$log" || true
    tail -n 40 "$log"
    summary+=("$t: FINDING (exit $rc) after ${runs:-?} runs, cov ${cov:-?}, ft ${ft:-?}")
  else
    summary+=("$t: ${runs:-?} runs, ${speed:-?}/s, cov ${cov:-?}, ft ${ft:-?}, no finding")
  fi
done
printf 'fuzz %s\n' "${summary[@]}"
exit $status
