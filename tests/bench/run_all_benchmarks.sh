#!/usr/bin/env bash
# Every benchmark in tests/bench, before and after: runs each benchmark built in BASELINE_DIR (the
# binaries of an older build, side A) and in BUILD_DIR (side B) interleaved round by round
# (A B, A B, ... so that the machine's load hits both alike), keeps every run's output and its
# whole-process time and peak memory (/usr/bin/time), and prints one table (benchmark_table.py):
# benchmark, headline quantity, before (median over the rounds), after, after/before, and the
# rounds' spread on each side (max/min of the rounds, the run-to-run noise a ratio must exceed).
# Benchmarks only in BUILD_DIR are listed as "new"; long ones run shortened (the options below,
# named in the table). The numbers that should not change (estimates, costs, step counts) are in
# the table too, so a change in results shows, not only one in time. Every timing is CPU time on
# both sides (cpu_clock_preload.c, below). bench_dae_idas is compared only if built by hand into
# BUILD_DIR/tests/bench (run_dae_idas_comparison.sh shows how). The table of the performance work
# (issue 22) and how to read it: docs/DECISIONS.md, "Every benchmark before and after".
#
# Usage: tests/bench/run_all_benchmarks.sh BUILD_DIR BASELINE_DIR [ROUNDS]   (ROUNDS default 3)
#   BUILD_DIR     a build dir (its benchmarks in tests/bench/, its CLI in app/) or a flat dir of binaries
#   BASELINE_DIR  the same for the older build
#   OUT=DIR       keep the outputs in DIR (default: a new directory under /tmp, printed)
#   ONLY="bench_a bench_b"  run only these
#   TABLE_ONLY=DIR  print the table of the outputs already in DIR, run nothing
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ -n "${TABLE_ONLY:-}" ]]; then
  exec /usr/bin/python3 "$here/benchmark_table.py" "$TABLE_ONLY"
fi
if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR BASELINE_DIR [ROUNDS]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
baseline=$(cd "$2" && pwd)
rounds=${3:-3}
out=${OUT:-$(mktemp -d /tmp/sysid-bench-XXXXXX)}
mkdir -p "$out"

# The benchmarks' steady_clock reads the process's CPU time (cpu_clock_preload.c; CPU_CLOCK=0: wall
# time as printed), so that wall-timed older binaries and CPU-timed newer ones compare alike on a
# loaded machine. Output line-buffered, so that what a crashing benchmark printed is kept.
preload=""
if [[ ${CPU_CLOCK:-1} != 0 ]]; then
  cc -O2 -shared -fPIC -o "$out/cpu_clock_preload.so" "$here/cpu_clock_preload.c" -ldl
  preload="$out/cpu_clock_preload.so"
fi
stdbuf_lib=""
for candidate in /usr/libexec/coreutils/libstdbuf.so /usr/lib/coreutils/libstdbuf.so; do
  [[ -f $candidate ]] && { stdbuf_lib=$candidate; break; }
done
preload="$preload${stdbuf_lib:+ $stdbuf_lib}"

# The binary NAME in DIR: DIR/tests/bench/NAME (a build dir) or DIR/NAME (a flat copy); sysid in app/.
find_binary() {
  local dir=$1 name=$2
  for candidate in "$dir/tests/bench/$name" "$dir/app/$name" "$dir/$name"; do
    if [[ -x $candidate && -f $candidate ]]; then
      echo "$candidate"
      return 0
    fi
  done
  return 0
}

# Options per benchmark (both sides): shorter runs where the default takes minutes on a loaded machine.
# The table names them. bench_dop853 after: only the rows the older binary has (sensitivities in the
# error control); the new "exclude" rows are not compared.
declare -A args=(
  [bench_foundation]=""
  [bench_fit_cubic]="--runs 5"
  [bench_periodic]="--runs 20"
  [bench_discretise]=""
  [bench_bvp]=""
  [bench_optimal_estimation]="--runs 3"
  [bench_equation_error]="--runs 3"
  [bench_equation_error_100k]="--runs 3 --samples 100000"
  [bench_pde_identification]="--no-fd"
  [bench_seed003_gradient]=""
  [bench_events]="--runs 5"
  [bench_ml_monte_carlo]="--realisations 200"
  [bench_dop853]="--runs 3"
  [bench_forced_duffing_long]="--runs 1"
  [bench_dae_idas]=""
  [cli_fit_sdof_cubic]="fit $root/resources/examples/sdof_cubic.sysid --quiet -o @STEM@.json"
  [cli_fit_duffing_periodic]="fit $root/resources/examples/duffing_periodic.sysid --quiet -o @STEM@.json"
)
# Whole-process runs of the command-line program (its own start-up and model compilation included;
# the first run after a build also compiles the native model code into the cache).
declare -A binary_of=([cli_fit_sdof_cubic]=sysid [cli_fit_duffing_periodic]=sysid
                      [bench_equation_error_100k]=bench_equation_error)
declare -A after_args=(
  [bench_dop853]="--runs 3 --sensitivity-error-control include"
)
order=(bench_foundation bench_fit_cubic bench_periodic bench_discretise bench_bvp bench_optimal_estimation
       bench_equation_error bench_equation_error_100k bench_pde_identification bench_seed003_gradient bench_events bench_ml_monte_carlo
       bench_dop853 bench_forced_duffing_long bench_dae_idas cli_fit_sdof_cubic cli_fit_duffing_periodic)
if [[ -n "${ONLY:-}" ]]; then
  read -r -a order <<<"$ONLY"
fi

# One run: output in OUT/NAME.SIDE.rROUND.out, "wall user sys maxrss_kB" in .time, load before in .load.
run_one() {
  local name=$1 side=$2 round=$3 binary=$4 options=$5
  local stem="$out/$name.$side.r$round"
  local work="$out/work.$side"
  mkdir -p "$work"
  cut -d' ' -f1-3 /proc/loadavg >"$stem.load"
  options=${options//@STEM@/$stem}
  echo "$binary $options" >"$stem.cmd"
  # shellcheck disable=SC2086  # the options are words
  (cd "$work" && LD_PRELOAD="$preload" _STDBUF_O=L /usr/bin/time -f '%e %U %S %M' -o "$stem.time" "$binary" $options \
    >"$stem.out" 2>&1) ||
    echo "exit $?" >>"$stem.out"
}

{
  echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "rounds $rounds"
  echo "before $baseline"
  echo "after $build ($(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  echo "cpus $(nproc)"
  echo "cpu_clock ${CPU_CLOCK:-1}"
  echo "load_start $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/meta"
echo "run_all_benchmarks: outputs in $out" >&2

for ((round = 1; round <= rounds; ++round)); do
  for name in "${order[@]}"; do
    before=$(find_binary "$baseline" "${binary_of[$name]-$name}")
    after=$(find_binary "$build" "${binary_of[$name]-$name}")
    [[ -z $after ]] && continue
    echo "  round $round: $name $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >&2
    if [[ -n $before ]]; then
      run_one "$name" before "$round" "$before" "${args[$name]-}"
    fi
    run_one "$name" after "$round" "$after" "${after_args[$name]-${args[$name]-}}"
  done
done
echo "load_end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/meta"
/usr/bin/python3 "$here/benchmark_table.py" "$out"
