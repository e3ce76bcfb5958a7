#!/usr/bin/env bash
# Issue 3 fit benchmark: sysid (bench_fit_cubic) against SciPy (fit_cubic_scipy.py) on the same
# data, in one run. bench_fit_cubic writes the noisy data and its results; the Python script fits
# the same CSV and prints the comparison (estimates, max relative difference, speed ratio).
#
# Then (issue 22) sysid against SUNDIALS CVODES in its best form on the reference program's own
# problem (cvodes_comparison.py fit): whole process (`sysid fit PROJECT` against cvodes_sdof_fit
# --sens augmented, interleaved) and solve only (bench_fit_cubic --project against the peer's timer).
#
# Usage: tests/bench/run_fit_benchmark.sh [--build] [--keep DIR] [--baseline DIR] [--no-scipy] [--no-cvodes]
#                                         [-- extra fit_cubic_scipy.py options]
#   --build        configure and build bench_fit_cubic and sysid first (Release, no GUI, no tests)
#   --keep DIR     keep the data CSV and the sysid results JSON in DIR (default: a temporary directory)
#   --baseline DIR an older build's `sysid` measured in the same CVODES run (before/after)
#   --no-scipy, --no-cvodes  leave that comparison out
# Environment: SYSID_FIT_BENCH_BUILD (build directory, default <source>/build-fitbench),
#              SYSID_FIT_BENCH_PYTHON (default /usr/bin/python3, which has Debian's python3-scipy),
#              SYSID_FIT_BENCH_RUNS (sysid runs, default 5), SCIPY_RUNS (default 3).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=${SYSID_FIT_BENCH_BUILD:-$source_dir/build-fitbench}
python=${SYSID_FIT_BENCH_PYTHON:-/usr/bin/python3}
sysid_runs=${SYSID_FIT_BENCH_RUNS:-5}
scipy_runs=${SCIPY_RUNS:-3}
build=0
keep=
baseline=
scipy=1
cvodes=1

while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --no-scipy) scipy=0; shift ;;
    --no-cvodes) cvodes=0; shift ;;
    --) shift; break ;;
    *) echo "run_fit_benchmark.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ "$build" = 1 ]; then
  cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSYSID_BUILD_GUI=OFF \
    -DSYSID_BUILD_TESTS=OFF -DSYSID_BUILD_BENCH=ON >/dev/null
  cmake --build "$build_dir" -j2 --target bench_fit_cubic sysid
fi
bench=$build_dir/tests/bench/bench_fit_cubic
if [ ! -x "$bench" ]; then
  echo "run_fit_benchmark.sh: $bench not found; run with --build or build the target bench_fit_cubic" >&2
  exit 2
fi
if [ "$scipy" = 1 ] && ! "$python" -c 'import scipy' 2>/dev/null; then
  echo "run_fit_benchmark.sh: $python has no scipy (set SYSID_FIT_BENCH_PYTHON)" >&2
  exit 2
fi

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

echo "run_fit_benchmark.sh  $(date -Is)  host $(uname -n), nproc $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
status=0
if [ "$scipy" = 1 ]; then
"$bench" --data "$work/fit_cubic_data.csv" --json "$work/sysid.json" --runs "$sysid_runs" || status=$?
if [ ! -s "$work/sysid.json" ]; then
  echo "run_fit_benchmark.sh: bench_fit_cubic failed (exit $status)" >&2
  exit 1
fi
# Pass 1: RK45 = Dormand-Prince 5(4), the same pair as sysid's dopri5; plus the tight-tolerance
# reference minimiser. Pass 2: DOP853 (SciPy's faster choice at these tolerances) with max_step
# 0.1 s: without it its dense output between the long steps is off by ~3e-8 on the samples
# (the step points are within ~2e-9), which moves the finite-difference fits by ~1e-6.
echo
echo "======================== pass 1: SciPy solve_ivp RK45 ========================"
"$python" "$here/fit_cubic_scipy.py" --data "$work/fit_cubic_data.csv" --sysid "$work/sysid.json" \
  --runs "$scipy_runs" --ivp RK45 --reference "$@" || status=$?
echo
echo "================== pass 2: SciPy solve_ivp DOP853, max_step 0.1 =================="
"$python" "$here/fit_cubic_scipy.py" --data "$work/fit_cubic_data.csv" --sysid "$work/sysid.json" \
  --runs "$scipy_runs" --ivp DOP853 --max-step 0.1 "$@" || status=$?
fi
if [ "$cvodes" = 1 ]; then
  echo
  echo "================== SUNDIALS CVODES (its fastest form), the peer's own problem =================="
  "$python" "$here/cvodes_comparison.py" fit --build "$build_dir" ${baseline:+--baseline "$baseline"} || status=$?
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
