#!/usr/bin/env bash
# The sanitizer and fuzzing part of the test command (README.md, "Set up"): one clang build in
# build-fuzz with AddressSanitizer, UBSan and libFuzzer's coverage (-DSYSID_FUZZ=ON), then
#  - the suites below under the sanitizers (a set chosen for what it covers per minute; --full
#    builds and runs every suite, which is done before every release), and
#  - each fuzz target for 30 s (tests/fuzz/run.sh; FUZZ_SECONDS overrides).
# The set, the fuzzing time and the batched build (SYSID_UNITY_BUILD) keep the whole CI run under 45
# minutes on 2 cores: compiling the engine under the sanitizers costs as much as the plain build of it
# (docs/DECISIONS.md).
#
#   bash tests/ci/sanitize-and-fuzz.sh [--full]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

full=0
[[ "${1:-}" == "--full" ]] && full=1

# Readers and writers of every file format (the cache of compiled models too), the model language
# and its hostile inputs, the distribution of work, the CLI end to end with its files, signals and
# argument parsing: where outside input enters; and the quantiles of our own (their loops and
# series).
# The GUI suites (which need the whole widget library built a second time) and the slowest CLI
# suite run with --full only, as does test_ui_mainwindow, whose event-loop gaps the sanitizers'
# slowdown exceeds.
suites=(
  test_model_parser test_model_robustness test_data_csv test_project test_settings test_atomic_file test_job
  test_compiled_model_cache
  test_example_catalogue test_distributed_for test_multistart
  test_cli test_cli_files test_cli_docs test_cli_arguments
  test_distributions
)
fuzzers=(fuzz_model_parser fuzz_csv_reader fuzz_project_reader)

start=$SECONDS
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DSYSID_UNITY_BUILD=ON \
  -DCMAKE_BUILD_TYPE=Release -DSYSID_FUZZ=ON -DSYSID_SANITIZE=ON -DSYSID_BUILD_BENCH=OFF -DSYSID_MPI=OFF
if [[ $full -eq 1 ]]; then
  cmake --build build-fuzz -j "$(nproc)"
else
  cmake --build build-fuzz -j "$(nproc)" --target sysid "${suites[@]}" "${fuzzers[@]}"
fi
built=$SECONDS

if [[ $full -eq 1 ]]; then
  ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)"
else
  regex="^($(IFS='|'; echo "${suites[*]}"))\$"
  ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)" -R "$regex"
fi
tested=$SECONDS

# A fixed seed: every CI run tries the same inputs in the same order (as far as its time goes), so
# a finding is the change's, not the luck of the draw; the long run (tests/fuzz/run.sh --runs) is random.
bash tests/fuzz/run.sh --build build-fuzz --time "${FUZZ_SECONDS:-30}" -- -seed=1
echo "sanitize-and-fuzz: build $((built - start)) s, suites $((tested - built)) s, fuzz $((SECONDS - tested)) s"
