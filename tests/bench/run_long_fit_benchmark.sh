#!/bin/bash
# The long-record fit (bench_forced_duffing_long: forced Duffing, 65 000 multisine samples at 610 Hz, six
# unknowns, rtol 1e-8) against its CVODES reference (cvodes_forced_duffing_fit.cpp, built here; it is no part
# of sysid), and optionally against a binary of the same benchmark built at an earlier commit. The programs run
# in the same run, interleaved round by round; medians of CPU time (the machine is shared: wall time follows
# its load), per fit, per iteration and per integration; ratios; the estimates side by side; peak memory.
# Needs Debian's libsundials-dev and libeigen3-dev.
# Usage: run_long_fit_benchmark.sh BUILD_DIR [ROUNDS] [BASELINE_BINARY]
#   CVODES_MAX_ITER=N limits CVODES' Levenberg-Marquardt trials (its full fit takes minutes: per integration it
#   is as expensive as the whole fit of sysid); CVODES_ARGS adds options (--lmm bdf, --no-tstop, ...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run_long_fit_benchmark.sh BUILD_DIR [ROUNDS] [BASELINE_BINARY]}
rounds=${2:-3}
baseline=${3:-}
bench="$build/tests/bench/bench_forced_duffing_long"
[ -x "$bench" ] || { echo "no $bench: configure with -DSYSID_BUILD_BENCH=ON and build bench_forced_duffing_long" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -march=native -DNDEBUG -std=c++17 -isystem /usr/include/eigen3 "$here/cvodes_forced_duffing_fit.cpp" \
    -o "$work/cvodes_forced_duffing_fit" -lsundials_cvodes -lsundials_nvecserial -lsundials_sunmatrixdense \
    -lsundials_sunlinsoldense 2> "$work/cvodes-build.log" || { cat "$work/cvodes-build.log" >&2; exit 1; }
"$bench" --write "$work" > /dev/null
cvodes=("$work/cvodes_forced_duffing_fit" --data "$work/forced_duffing_long.csv" --repeat 1
        --max-iter "${CVODES_MAX_ITER:-100}" ${CVODES_ARGS:-})
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); rounds: $rounds"
for ((r = 1; r <= rounds; ++r)); do
    "$bench" --runs 1 > "$work/sysid.$r"
    "$bench" --runs 1 --integrator dop853 > "$work/dop853.$r"
    [ -n "$baseline" ] && "$baseline" --runs 1 > "$work/baseline.$r"
    "${cvodes[@]}" > "$work/cvodes.$r"
done
/usr/bin/python3 - "$work" "$rounds" "${baseline:+yes}" <<'EOF'
import json, re, statistics, sys
work, rounds, with_baseline = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes"
def sysid(name):
    runs = []
    for r in range(1, rounds + 1):
        text = open(f"{work}/{name}.{r}").read()
        m = re.search(r"run 1: [\d.]+ s \(CPU ([\d.]+) s\), (\d+) iterations, (\d+) evaluations", text)
        est = dict(re.findall(r"^  (\S+)\s+([-\d.e+]+)  \(truth", text, re.M))
        peak = float(re.search(r"VmHWM\) ([\d.]+) MB", text).group(1))
        cost = float(re.search(r"cost ([-\d.e+]+)", text).group(1))
        runs.append(dict(cpu=float(m.group(1)), iterations=int(m.group(2)), integrations=int(m.group(3)),
                         estimates={k: float(v) for k, v in est.items()}, peak=peak, cost=cost))
    return runs
def cvodes():
    runs = []
    for r in range(1, rounds + 1):
        j = json.loads(open(f"{work}/cvodes.{r}").read())
        runs.append(dict(cpu=j["cpu_s"], iterations=j["iterations"], integrations=j["integrations"],
                         estimates=j["estimates"], peak=j["peak_mb"], cost=j["cost"], stop=j["stop"]))
    return runs
table = {"sysid dopri5": sysid("sysid"), "sysid dop853": sysid("dop853")}
if with_baseline:
    table["baseline dopri5"] = sysid("baseline")
table["CVODES"] = cvodes()
med = lambda runs, f: statistics.median(f(x) for x in runs)
print(f"{'program':16} {'CPU s':>8} {'iter.':>6} {'integr.':>7} {'s/iter.':>8} {'s/integr.':>9} {'peak MB':>8}  cost")
rows = {}
for name, runs in table.items():
    cpu = med(runs, lambda x: x["cpu"])
    per_it = med(runs, lambda x: x["cpu"] / x["iterations"])
    per_int = med(runs, lambda x: x["cpu"] / x["integrations"])
    rows[name] = (cpu, per_it, per_int)
    last = runs[-1]
    print(f"{name:16} {cpu:8.3f} {last['iterations']:6d} {last['integrations']:7d} {per_it:8.4f} {per_int:9.4f} "
          f"{med(runs, lambda x: x['peak']):8.1f}  {last['cost']:.12e}")
ref = rows["sysid dopri5"]
for name, (cpu, per_it, per_int) in rows.items():
    if name != "sysid dopri5":
        print(f"{name} / sysid dopri5: total {cpu / ref[0]:.2f}, per iteration {per_it / ref[1]:.2f}, "
              f"per integration {per_int / ref[2]:.2f}")
names = ["c", "k", "a", "B"]
sysid_est = table["sysid dopri5"][-1]["estimates"]
keys = list(sysid_est)
cv = table["CVODES"][-1]["estimates"]
print("estimates (last round): " + ", ".join(table))
for i, key in enumerate(keys):
    values = [runs[-1]["estimates"][key] if name != "CVODES" else cv[list(cv)[i]] for name, runs in table.items()]
    rel = max(abs(v / values[0] - 1) if values[0] else abs(v) for v in values)
    print(f"  {key:6} " + "  ".join(f"{v:.12g}" for v in values) + f"   largest relative difference {rel:.1e}")
if table["CVODES"][-1]["stop"] != "relative_cost_change":
    print(f"  (CVODES stopped by {table['CVODES'][-1]['stop']}: CVODES_MAX_ITER; its estimates are not converged)")
EOF
