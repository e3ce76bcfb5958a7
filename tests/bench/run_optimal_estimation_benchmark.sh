#!/usr/bin/env bash
# Issue 5 optimal estimation benchmark: sysid (bench_optimal_estimation) against SciPy's solve_bvp
# (optimal_estimation_scipy.py) on the same seed-001 mass-spring-damper problem, in one run.
# Builds nothing.
#
# Usage: tests/bench/run_optimal_estimation_benchmark.sh [BUILD_DIR] [-- extra optimal_estimation_scipy.py options]
#   BUILD_DIR  a configured Release build with bench_optimal_estimation built (default <source>/build)
# Environment: SYSID_OPTIMAL_BENCH_RUNS (timed runs per case, default 3),
#   SYSID_OPTIMAL_BENCH_THREADS (sysid's shooting threads, default 1 like SciPy; 0 = all cores),
#   SYSID_OPTIMAL_BENCH_PYTHON (default /usr/bin/python3, which has Debian's python3-scipy)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=${1:-$source_dir/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
runs=${SYSID_OPTIMAL_BENCH_RUNS:-3}
threads=${SYSID_OPTIMAL_BENCH_THREADS:-1}
python=${SYSID_OPTIMAL_BENCH_PYTHON:-/usr/bin/python3}
bench=$build_dir/tests/bench/bench_optimal_estimation
if [ ! -x "$bench" ]; then
    echo "run_optimal_estimation_benchmark.sh: $bench not found; build it first:" >&2
    echo "  cmake -S $source_dir -B $build_dir -DSYSID_BUILD_BENCH=ON && cmake --build $build_dir --target bench_optimal_estimation" >&2
    exit 1
fi
if ! "$python" -c 'import numpy, scipy' 2>/dev/null; then
    echo "run_optimal_estimation_benchmark.sh: $python cannot import numpy and scipy (set SYSID_OPTIMAL_BENCH_PYTHON)" >&2
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" --runs "$runs" --threads "$threads" --json "$work/sysid.json"
echo
"$python" "$here/optimal_estimation_scipy.py" "$work/sysid.json" --runs "$runs" "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
