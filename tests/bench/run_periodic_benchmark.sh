#!/usr/bin/env bash
# Issue 5 periodic benchmark: sysid (bench_periodic) against SciPy's solve_bvp (periodic_scipy.py)
# on the same Duffing orbit and 200-point frequency sweep, in one run.
#
# Usage: tests/bench/run_periodic_benchmark.sh [BUILD_DIR] [-- extra periodic_scipy.py options]
#   BUILD_DIR  a configured Release build with bench_periodic built (default <source>/build)
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
"$python" "$here/periodic_scipy.py" "$work/sysid.json" "$@"
