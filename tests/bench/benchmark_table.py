#!/usr/bin/env python3
"""The before/after table of run_all_benchmarks.sh: reads OUT/NAME.SIDE.rROUND.{out,time,load} and
prints, per benchmark, its headline quantities: before and after (median over the rounds), after /
before, the rounds' spread (max / min on each side: the run-to-run noise) and a verdict.

Verdicts: time rows "slower" when every after round is slower than every before round and the
ratio exceeds 1.05 ("faster" the other way round), else "~"; result rows (estimates, costs, step
counts, iterations) "same" when before and after print the same text, else "DIFFERS".

Usage: benchmark_table.py OUT_DIR
"""
import glob
import os
import re
import statistics
import sys

NUM = r"([-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)"

# Per benchmark: (quantity, regex with one group, kind, which match), kind "t" = time (lower is
# better), "r" = a result that should not change, "i" = information. Regexes match both the older
# and the newer output format. Whole-process CPU time and peak memory are added to every benchmark.
def fit_row(method, rtol):
    return rf"cubic fit\s+{method}\s+(?:include\s+)?rtol {rtol}\s+{NUM} ms"


SPECS = {
    "bench_foundation": [
        ("hand-written f [ns/call] (control: same code)", r"\n  f \((?:rhs at t, x|setPoint \+ rhs)\)\s+" + NUM, "t", 0),
        ("f, setPoint + rhs, native [ns/call]", r"f \(setPoint \+ rhs\)\s+\S+\s+\S+\s+" + NUM, "t", 0),
        ("f, setPoint + rhs, interpreted [ns/call]", r"f \(setPoint \+ rhs\)\s+\S+\s+" + NUM, "t", 0),
        ("df/dx, setPoint + stateJacobian, native [ns/call]", r"df/dx \(setPoint \+ stateJacobian\)\s+\S+\s+\S+\s+" + NUM, "t", 0),
        ("df/dp, setPoint + parameterJacobian, native [ns/call]", r"df/dp \(setPoint \+ parameterJacobian\)\s+\S+\s+\S+\s+" + NUM, "t", 0),
        ("sensitivity rhs, native [ns/call]", r"sensitivity rhs, dx/d\(k,B\) \(SensitivitySystem\)\s+\S+\s+\S+\s+" + NUM, "t", 0),
        ("sensitivity rhs, interpreted [ns/call]", r"sensitivity rhs, dx/d\(k,B\) \(SensitivitySystem\)\s+\S+\s+" + NUM, "t", 0),
        ("sim dopri5 x, interpreted [ms]", r"dopri5      x\s+1000\s+\d+\s+\d+\s+" + NUM, "t", 0),
        ("sim dopri5 x+dx/dp, interpreted [ms]", r"dopri5      x, dx/d\(k,B\)\s+1000\s+\d+\s+\d+\s+" + NUM, "t", 0),
        ("sim dopri5 x, native [ms]", r"dopri5      x\s+1000\s+\d+\s+\d+\s+" + NUM, "t", 1),
        ("sim dopri5 x+dx/dp, native [ms]", r"dopri5      x, dx/d\(k,B\)\s+1000\s+\d+\s+\d+\s+" + NUM, "t", 1),
        ("sim dopri5 x+dx/dp+dx/dx0, native [ms]", r"dopri5      x, dx/d\(k,B\), dx/dx0\s+1000\s+\d+\s+\d+\s+" + NUM, "t", 1),
        ("sim rosenbrock4 x+dx/dp, native [ms]", r"rosenbrock4 x, dx/d\(k,B\)\s+10\s+\d+\s+\d+\s+" + NUM, "t", 1),
        ("dopri5 x+dx/dp steps", r"dopri5      x, dx/d\(k,B\)\s+1000\s+\d+\s+" + NUM, "r", 0),
        ("rosenbrock4 x+dx/dp steps", r"rosenbrock4 x, dx/d\(k,B\)\s+10\s+\d+\s+" + NUM, "r", 0),
        ("max|S| end, dopri5 x+dx/dp", r"dopri5      x, dx/d\(k,B\)\s+1000(?:\s+\S+){4}\s+" + NUM, "r", 0),
    ],
    "bench_fit_cubic": [
        ("fit, median [ms]", r"median " + NUM + " ms", "t", 0),
        ("fit, min [ms]", r"min " + NUM + " ms", "t", 0),
        ("one simulation with 3 sensitivities [ms]", r"3 sensitivities at the start: " + NUM + " ms", "t", 0),
        ("iterations", r"iterations \(accepted LM steps\) " + NUM, "r", 0),
        ("cost", r"cost 1/2 sum r\^2 = " + NUM, "r", 0),
        ("k3 estimate", r"\n  k3\s+\S+\s+" + NUM, "r", 0),
        ("steps of one simulation at the start", r"ms, " + NUM + " steps", "r", 0),
    ],
    "bench_periodic": [
        ("single shooting [ms]", r"single shooting\s+" + NUM + " ms", "t", 0),
        ("multiple shooting (8) [ms]", r"multiple shooting \(8\)\s+" + NUM + " ms", "t", 0),
        ("multiple (8), 2 threads [ms, CPU of both]", r"multiple \(8\), 2 threads\s+" + NUM + " ms", "t", 0),
        ("frequency sweep, 200 points [ms]", r"frequency sweep\s+" + NUM + " ms", "t", 0),
        ("periodic-response fit, reuse auto [ms]", r"periodic-response fit \(example\)\s+off\s+\S+ ms.*\n\s+auto\s+" + NUM, "t", 0),
        ("31 orbits, 8 states, differenced, auto [ms]", r"31 orbits, 8 states, differenced\s+off.*\n\s+auto\s+" + NUM, "t", 0),
        ("single shooting |x(0) - ref|", r"single shooting\s+\S+ ms.*\|x\(0\) - ref\| = " + NUM, "r", 0),
        ("sweep max |x(0) - ref|", r"max \|x\(0\) - ref\| = " + NUM, "r", 0),
        ("periodic-response fit iterations (off/auto/on)", r"fit iterations (\d+ / \d+ / \d+)", "r", 0),
    ],
    "bench_discretise": [
        ("central, 1000 nodes [ms/iteration]", r"\ncentral\s+1000\s+\d+\s+" + NUM, "t", 0),
        ("central, 10000 nodes [ms/iteration]", r"\ncentral\s+10000\s+\d+\s+" + NUM, "t", 0),
        ("hermite-simpson, 10000 nodes [ms/iteration]", r"\nhermite-simpson\s+10000\s+\d+\s+" + NUM, "t", 0),
        ("Newton iterations, hermite-simpson 10000", r"\nhermite-simpson\s+10000\s+" + NUM, "r", 0),
    ],
    "bench_bvp": [
        ("m = 100, total/(m-1) [ms]", r"\n\s+100\s+\d+(?:\s+\S+){4}\s+" + NUM, "t", 0),
        ("m = 1000, jacobian [ms]", r"\n\s+1000\s+\d+\s+\S+\s+" + NUM, "t", 0),
        ("m = 1000, total/(m-1) [ms]", r"\n\s+1000\s+\d+(?:\s+\S+){4}\s+" + NUM, "t", 0),
        ("m = 1000, Newton iterations", r"\n\s+1000\s+" + NUM, "r", 0),
        ("m = 1000, |F|", r"\n\s+1000\s+\d+(?:\s+\S+){5}\s+" + NUM, "r", 0),
    ],
    "bench_optimal_estimation": [
        ("start 10, median [s]", r"start\s+10:.*median " + NUM + " s", "t", 0),
        ("start 50, median [s]", r"start\s+50:.*median " + NUM + " s", "t", 0),
        ("start 10, iterations", r"start\s+10:.*?" + NUM + " iterations", "r", 0),
        ("start 50, iterations", r"start\s+50:.*?" + NUM + " iterations", "r", 0),
        ("start 50, m", r"start\s+50: m = " + NUM, "r", 0),
    ],
    "bench_equation_error": [
        ("single-step heun, 335 [ms]", r"single-step heun\s+335\s+\S+\s+\d+\s+" + NUM, "t", 0),
        ("single-step rk4, 335 [ms]", r"single-step rk4\s+335\s+\S+\s+\d+\s+" + NUM, "t", 0),
        ("multistep newton-cotes-6, 335 [ms]", r"multistep newton-cotes-6\s+335\s+\S+\s+\d+\s+" + NUM, "t", 0),
        ("output error, 335 [ms]", r"output error \(dopri5\)\s+335\s+\S+\s+\d+\s+" + NUM, "t", 0),
        ("output error, 100000 clean [ms] (one run)", r"output error \(dopri5\)\s+100000\s+0%\s+\d+\s+" + NUM, "t", 0),
        ("single-step rk4, 335, estimates", r"single-step rk4\s+335(?:\s+\S+){5}\s+(\S+ \S+ \S+ \S+)", "r", 0),
        ("newton-cotes-6, 335, estimates", r"multistep newton-cotes-6\s+335(?:\s+\S+){5}\s+(\S+ \S+ \S+ \S+)", "r", 0),
    ],
    "bench_equation_error_100k": [
        ("single-step heun, 100000 5% [ms]", r"single-step heun\s+100000\s+5%\s+\d+\s+" + NUM, "t", 0),
        ("single-step rk4, 100000 5% [ms]", r"single-step rk4\s+100000\s+5%\s+\d+\s+" + NUM, "t", 0),
        ("multistep newton-cotes-6, 100000 5% [ms]", r"multistep newton-cotes-6\s+100000\s+5%\s+\d+\s+" + NUM, "t", 0),
        ("multistep simpson, 100000 5% [ms]", r"multistep simpson\s+100000\s+5%\s+\d+\s+" + NUM, "t", 0),
        ("output error, 100000 5% [ms]", r"output error \(dopri5\)\s+100000\s+5%\s+\d+\s+" + NUM, "t", 0),
        ("newton-cotes-6, estimates", r"multistep newton-cotes-6\s+100000(?:\s+\S+){5}\s+(\S+ \S+ \S+ \S+)", "r", 0),
    ],
    "bench_pde_identification": [
        ("one simulation with 200 sensitivities [s]", r"sensitivity columns \(40200 equations\) " + NUM + " s", "t", 0),
        ("fit, per iteration [s]", r"s total, " + NUM + " s per iteration", "t", 0),
        ("fit, total [s]", r"iterations, " + NUM + " s total", "t", 0),
        ("fit iterations", r"sparse-implicit\): " + NUM + " iterations", "r", 0),
        ("final cost", r"final cost " + NUM, "r", 0),
        ("alpha error rms", r"rms " + NUM, "r", 0),
        ("steps of one simulation", r"cpu \S+ s \(" + NUM + " steps", "r", 0),
    ],
    "bench_seed003_gradient": [
        ("eigenvalues at the truth", r"record 0\.\.\S+: ([^(]+)", "r", 0),
        ("iterations grid, T = 1", r"\n1\s+((?:\s+\S+){9})", "r", 0),
    ],
    "bench_events": [
        ("EMPS fit, tanh [s]", r"Fc\*tanh\(q'/1e-4\)\s+" + NUM, "t", 0),
        ("EMPS fit, sign + events [s]", r"Fc\*sign\(q'\), events\s+" + NUM, "t", 0),
        ("cart kc = 1000, 1e-12 stepped across [ms]", r"\n\s+1000 \|\s+" + NUM, "t", 0),
        ("cart kc = 1000, 1e-8 located [ms]", r"\n\s+1000 \|(?:[^|]*\|){2}\s+" + NUM, "t", 0),
        ("EMPS tanh: iterations, steps", r"Fc\*tanh\(q'/1e-4\)\s+\S+\s+\S+\s+(\d+\s+\d+)", "r", 0),
        ("EMPS sign: iterations, steps", r"Fc\*sign\(q'\), events\s+\S+\s+\S+\s+(\d+\s+\d+)", "r", 0),
        ("EMPS largest relative difference [%]", r"largest relative difference " + NUM, "r", 0),
        ("cart kc = 3000, default: Newton, steps", r"\n\s+3000 \|(?:[^|]*\|){2}\s+\S+\s+(\d+\s+\d+)", "r", 0),
    ],
    "bench_ml_monte_carlo": [
        ("ratio 1, 200 realisations [s]", r"\(ratio 1\): " + NUM + " s", "t", 0),
        ("ratio 10 [s]", r"\(ratio 10\): " + NUM + " s", "t", 0),
        ("ratio 100 [s]", r"\(ratio 100\): " + NUM + " s", "t", 0),
        ("ratio 100, ml k mean, sample sd", r"ratio 100\)[\s\S]*?\nml\s+k\s+(\S+\s+\S+)", "r", 0),
        ("ratio 100, failed", r"\(ratio 100\): \S+ s, (\d+) failed", "r", 0),
    ],
    "bench_dop853": [
        ("cubic fit dopri5 rtol 1e-8 [ms]", fit_row("dopri5", "1e-08"), "t", 0),
        ("cubic fit dop853 rtol 1e-8 [ms]", fit_row("dop853", "1e-08"), "t", 0),
        ("cubic fit dopri5 rtol 1e-10 [ms]", fit_row("dopri5", "1e-10"), "t", 0),
        ("orbit single dopri5 rtol 1e-8 [ms]", r"orbit, single\s+dopri5\s+(?:include\s+)?rtol 1e-08\s+" + NUM, "t", 0),
        ("orbit multiple (8) dop853 rtol 1e-8 [ms]", r"orbit, multiple \(8\)\s+dop853\s+(?:include\s+)?rtol 1e-08\s+" + NUM, "t", 0),
        ("forced dopri5 rtol 1e-8 [ms]", r"forced\s+dopri5\s+(?:include\s+)?rtol 1e-08\s+" + NUM, "t", 0),
        ("forced+dx/dp dopri5 rtol 1e-8 [ms]", r"forced, dx/d\(c, a\)\s+dopri5\s+(?:include\s+)?rtol 1e-08\s+" + NUM, "t", 0),
        ("forced+dx/dp dop853 rtol 1e-10 [ms]", r"forced, dx/d\(c, a\)\s+dop853\s+(?:include\s+)?rtol 1e-10\s+" + NUM, "t", 0),
        ("cubic fit dopri5 1e-8: steps, rhs", r"cubic fit\s+dopri5\s+(?:include\s+)?rtol 1e-08\s+\S+ ms\s+steps\s+(\d+\s+rhs\s+\d+)", "r", 0),
        ("cubic fit dopri5 1e-8: max |p/p_ref - 1|", r"cubic fit\s+dopri5\s+(?:include\s+)?rtol 1e-08.*p_ref - 1\| " + NUM, "r", 0),
        ("forced+dx/dp dop853 1e-10: steps, rhs", r"forced, dx/d\(c, a\)\s+dop853\s+(?:include\s+)?rtol 1e-10\s+\S+ ms\s+steps\s+(\d+\s+rhs\s+\d+)", "r", 0),
        ("forced+dx/dp dop853 1e-10: max |x - ref|", r"forced, dx/d\(c, a\)\s+dop853\s+(?:include\s+)?rtol 1e-10.*ref\| " + NUM, "r", 0),
    ],
    "bench_forced_duffing_long": [
        ("fit, CPU per iteration [s]", r"median per iteration \S+ s \(CPU " + NUM, "t", 0),
        ("fit, CPU total [s]", r"median total \S+ s \(CPU " + NUM, "t", 0),
        ("iterations", r"iterations " + NUM + ", cost", "r", 0),
        ("peak memory (VmHWM) [MB]", r"VmHWM\) " + NUM, "i", 0),
    ],
    "bench_dae_idas": [
        ("sysid ROS34PW2 projection rtol 1e-8, CPU [s]", r"sysid ROS34PW2 projection\s+rtol 1e-08.*cpu\s+" + NUM, "t", 0),
        ("IDAS BDF index 1 rtol 1e-8, CPU [s]", r"IDAS BDF index 1\s+rtol 1e-08.*cpu\s+" + NUM, "t", 0),
        ("sysid ROS34PW2 projection rtol 1e-8, |x-ref|", r"sysid ROS34PW2 projection\s+rtol 1e-08.*\|x-ref\| " + NUM, "r", 0),
    ],
    "cli_fit_sdof_cubic": [
        ("cost", r'"cost": ' + NUM, "r", 0),
        ("iterations", r'"iterations": ' + NUM, "r", 0),
    ],
    "cli_fit_duffing_periodic": [
        ("cost", r'"cost": ' + NUM, "r", 0),
        ("iterations", r'"iterations": ' + NUM, "r", 0),
    ],
}

def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def values(out_dir, name, side, pattern, nth):
    """The matched text per round (None where it does not match)."""
    found = []
    for path in sorted(glob.glob(os.path.join(out_dir, f"{name}.{side}.r*.out"))):
        text = (read(path) or "") + (read(path[: -len(".out")] + ".json") or "")
        matches = [m.group(1) for m in re.finditer(pattern, text)]
        found.append(matches[nth].strip() if len(matches) > nth else None)
    return found


def process_values(out_dir, name, side, field):
    found = []
    for path in sorted(glob.glob(os.path.join(out_dir, f"{name}.{side}.r*.time"))):
        text = (read(path) or "").strip().splitlines()
        parts = text[-1].split() if text else []
        if len(parts) != 4:
            found.append(None)
            continue
        wall, user, system, rss = map(float, parts)
        found.append({"cpu": user + system, "rss": rss / 1024.0, "wall": wall}[field])
    return found


def failures(out_dir, name, side):
    """(rounds that failed, the last lines of the first failure's output), or None."""
    failed, message = 0, ""
    for path in sorted(glob.glob(os.path.join(out_dir, f"{name}.{side}.r*.out"))):
        text = read(path) or ""
        if re.search(r"^exit \d+", text, re.M):
            failed += 1
            if not message:
                lines = [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("exit ")]
                message = " / ".join(lines[-2:])[:120].replace("|", "/")
    return (failed, message) if failed else None


def options(out_dir, name):
    """' (options)' as each side ran (the .cmd files), file paths shortened to their names."""
    shown = {}
    for side in ("before", "after"):
        text = read(os.path.join(out_dir, f"{name}.{side}.r1.cmd"))
        if text:
            words = ["RESULT.json" if w.endswith(".json") else os.path.basename(w) if "/" in w else w
                     for w in text.split()]
            shown[side] = " ".join(words[1:])
    if not shown:
        return ""
    if len(set(shown.values())) == 1:
        return f" ({next(iter(shown.values()))})" if next(iter(shown.values())) else ""
    return " (" + "; ".join(f"{side}: {v or 'no options'}" for side, v in shown.items()) + ")"


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def fmt(x):
    return "-" if x is None else f"{x:.4g}"


def row_time(label, before, after):
    b = [v for v in map(number, before) if v is not None]
    a = [v for v in map(number, after) if v is not None]
    if not a:
        return None
    med_a = statistics.median(a)
    spread = lambda xs: max(xs) / min(xs) if xs and min(xs) > 0 else None
    if not b:
        return [label, "new" if not before else "-", fmt(med_a), "", f"- / {fmt(spread(a))}", "new" if not before else "no before"]
    med_b = statistics.median(b)
    ratio = med_a / med_b if med_b > 0 else None
    verdict = "~"
    if ratio is not None and min(a) > max(b) and ratio > 1.05:
        verdict = "SLOWER"
    elif ratio is not None and max(a) < min(b) and ratio < 0.95:
        verdict = "faster"
    return [label, fmt(med_b), fmt(med_a), f"{ratio:.2f}" if ratio else "-", f"{fmt(spread(b))} / {fmt(spread(a))}", verdict]


def row_result(label, before, after, informational=False):
    a = [v for v in after if v is not None]
    if not a:
        return None
    shown_a = " ".join(a[0].split())
    if not before:
        return [label, "new", shown_a, "", "", "new"]
    b = [v for v in before if v is not None]
    if not b:
        return [label, "-", shown_a, "", "", "no before"]
    shown_b = " ".join(b[0].split())
    if informational:
        ratio = number(shown_a) / number(shown_b) if number(shown_a) and number(shown_b) else None
        return [label, shown_b, shown_a, f"{ratio:.2f}" if ratio else "", "", "info"]
    same = len({" ".join(v.split()) for v in a + b}) == 1
    return [label, shown_b, shown_a, "", "", "same" if same else "DIFFERS"]


def main():
    out_dir = sys.argv[1]
    meta = read(os.path.join(out_dir, "meta")) or ""
    print("run_all_benchmarks: " + "; ".join(meta.strip().splitlines()))
    names = []
    for path in sorted(glob.glob(os.path.join(out_dir, "*.after.r1.out"))):
        names.append(os.path.basename(path)[: -len(".after.r1.out")])
    order = list(SPECS) + sorted(set(names) - set(SPECS))
    rows = []
    for name in order:
        if name not in names:
            continue
        has_before = bool(glob.glob(os.path.join(out_dir, f"{name}.before.r*.out")))
        side_values = lambda side, *args: values(out_dir, name, side, *args) if (side == "after" or has_before) else []
        title = name + options(out_dir, name)
        rows.append([f"**{title}**", "", "", "", "", ""])
        for label, pattern, kind, nth in SPECS.get(name, []):
            b, a = side_values("before", pattern, nth), side_values("after", pattern, nth)
            row = row_time(label, b, a) if kind == "t" else row_result(label, b, a, kind == "i")
            rows.append(row if row else [label, "?", "not found", "", "", "CHECK"])
        failed = {side: failures(out_dir, name, side) for side in ("before", "after")}
        for label, field, kind in (("process CPU, user + sys [s]", "cpu", "t"), ("peak resident memory [MB]", "rss", "i")):
            b = process_values(out_dir, name, "before", field) if has_before else []
            a = process_values(out_dir, name, "after", field)
            if kind == "t":
                row = row_time(label, [str(v) if v is not None else None for v in b], [str(v) if v is not None else None for v in a])
            else:
                row = row_result(label, [f"{v:.1f}" for v in b if v is not None], [f"{v:.1f}" for v in a if v is not None], True)
            if row and (failed["before"] or failed["after"]):
                row[-1] = "n/a (a side failed: different work)"
            if row:
                rows.append(row)
        for side in ("before", "after"):
            if failed[side]:
                rounds, message = failed[side]
                rows.append([f"{side}: FAILED in {rounds} round(s)", "", "", "", "", message])
    header = ["benchmark / quantity", "before", "after", "after/before", "spread b / a", "verdict"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
