#!/usr/bin/env bash
# Compares sysid's DAE integration with SUNDIALS IDAS on the pendulum in natural coordinates
# (tests/bench/bench_dae_idas.cpp). IDAS is not a dependency of sysid: this needs Debian's
# libsundials-dev installed by hand (apt-get install libsundials-dev) and an engine built in
# BUILD (default: build). Usage: tests/bench/run_dae_idas_comparison.sh [BUILD]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
if [[ ! -f /usr/include/idas/idas.h ]]; then
  echo "run_dae_idas_comparison: SUNDIALS IDAS is not installed (apt-get install libsundials-dev)" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -std=c++20 -O3 -DNDEBUG -DSYSID_SOURCE_DIR="\"$root\"" -I"$root" -isystem /usr/include/eigen3 \
  $(pkg-config --cflags ginac) "$root/tests/bench/bench_dae_idas.cpp" -o "$out/bench_dae_idas" \
  "$build/engine/libsysid_engine.a" -lsundials_idas -lsundials_nvecserial -lsundials_sunlinsoldense \
  -lsundials_sunmatrixdense $(pkg-config --libs ginac)
"$out/bench_dae_idas"
