#!/usr/bin/env bash
# Issue 5 periodic benchmark: sysid (bench_periodic) against SciPy's solve_bvp (periodic_scipy.py)
# on the same Duffing orbit and 200-point frequency sweep, in one run.
#
# Then (issue 22) sysid against SUNDIALS CVODES + KINSOL in their best form on the reference
# program's orbit (cvodes_comparison.py periodic): whole process (`sysid periodic` against
# cvodes_duffing_periodic --sens augmented, interleaved) and solve only (bench_periodic --part cvodes).
#
# Usage: tests/bench/run_periodic_benchmark.sh [BUILD_DIR] [-- extra periodic_scipy.py options]
#   BUILD_DIR  a configured Release build with bench_periodic and sysid built (default <source>/build)
# Environment: SYSID_PERIODIC_BENCH_BASELINE (an older build's `sysid`, measured in the same CVODES
#              run), SYSID_PERIODIC_BENCH_CVODES=0 leaves the CVODES comparison out
# Environment: SYSID_PERIODIC_BENCH_PYTHON (default /usr/bin/python3, which has Debian's python3-scipy)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=${1:-$source_dir/build}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
python=${SYSID_PERIODIC_BENCH_PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build_dir/tests/bench/bench_periodic" --json "$work/sysid.json"
echo
status=0
"$python" "$here/periodic_scipy.py" "$work/sysid.json" "$@" || status=$?
if [ "${SYSID_PERIODIC_BENCH_CVODES:-1}" != 0 ]; then
  echo
  echo "================== SUNDIALS CVODES + KINSOL (their fastest form), the peer's own orbit =================="
  baseline=${SYSID_PERIODIC_BENCH_BASELINE:-}
  "$python" "$here/cvodes_comparison.py" periodic --build "$build_dir" ${baseline:+--baseline "$baseline"} || status=$?
fi
exit "$status"
