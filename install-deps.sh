#!/usr/bin/env bash
# Installs the Debian (bookworm) packages sysid needs to build, test and run.
# This is the only place that names system packages. Idempotent and
# non-interactive: when everything is already installed it changes nothing.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake pkg-config g++ make git
  # the sanitizer and fuzzing build (tests/ci/sanitize-and-fuzz.sh): clang with libFuzzer
  clang-14 libclang-rt-14-dev
  # Qt 6 (Widgets, Concurrent, PrintSupport, Test, Svg); Qt6Gui's CMake files need the OpenGL headers
  qt6-base-dev qt6-svg-dev libgl-dev
  # plots: QCustomPlot 2.1 built for Qt 6
  libqcustomplot-dev libqcustomplot2.1-qt6
  # numerics
  libeigen3-dev libboost-dev libboost-program-options-dev libginac-dev libmuparser-dev
  # project and result files
  nlohmann-json3-dev
  # `mpirun -np N sysid study|profile|contour`: MPI across processes and machines (OpenMPI)
  openmpi-bin libopenmpi-dev
  # reference scripts in tests/bench; SUNDIALS (CVODES, KINSOL, IDAS) for the benchmarks' peer programs only
  # (tests/bench/cvodes_comparison.py, run_dae_idas_comparison.sh), never linked into sysid
  python3-scipy python3-numpy libsundials-dev
  # GUI tests in a real X server at 1366x768: the X server, a window manager, the xcb platform
  # plugin and a font; xdotool drives the window as a user would
  xvfb xauth openbox xdotool qt6-qpa-plugins fonts-dejavu-core
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  sudo=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
