#!/usr/bin/python3
"""SciPy reference for bench_periodic (issue 5): the same Duffing periodic orbit and the same
200-point frequency sweep with scipy.integrate.solve_bvp, then both timings side by side.

    x'' + 0.1 x' + x + 0.5 x^3 = 0.5 cos(w t),  periodic with T = 2 pi / w

Time is scaled to tau = t / T in [0, 1] (dx/dtau = T f(T tau, x)), the boundary conditions are
x(0) - x(1) = 0, the start is x = 0 on a uniform mesh of 41 nodes, and each sweep point is warm
started from the previous solution's mesh and values. Accuracy is measured exactly as for sysid:
max |x(0) - reference| with the reference x(0) that bench_periodic computed with rtol 1e-12 (read
from its JSON). --tol is solve_bvp's tolerance; the default 1e-6 gives errors of the same order as
sysid's (measured: single orbit 1.9e-9 vs sysid 1.5e-9; sweep 4.7e-8 vs 1.1e-8; tol 1e-8 is
1000 times more accurate than sysid and 2-4 times slower; both errors are printed).

Usage: /usr/bin/python3 tests/bench/periodic_scipy.py SYSID_JSON [--runs N] [--tol X]
(Debian's python3-scipy is installed for /usr/bin/python3 only.)
"""
import argparse
import json
import math
import statistics
import time

import numpy as np
from scipy.integrate import solve_bvp

C, A, F = 0.1, 0.5, 0.5


def rhs(w):
    T = 2 * math.pi / w

    def f(tau, y):
        x, v = y
        return T * np.vstack((v, -C * v - x - A * x**3 + F * np.cos(2 * math.pi * tau)))

    return f


def bc(ya, yb):
    return ya - yb


def solve(w, mesh, guess, tol):
    sol = solve_bvp(rhs(w), bc, mesh, guess, tol=tol, max_nodes=100000)
    if not sol.success:
        raise RuntimeError(f"solve_bvp failed at w = {w}: {sol.message}")
    return sol


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sysid_json")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tol", type=float, default=1e-6)
    args = parser.parse_args()
    with open(args.sysid_json) as f:
        ref = json.load(f)

    mesh0 = np.linspace(0.0, 1.0, 41)
    guess0 = np.zeros((2, mesh0.size))
    reference = np.array(ref["reference"])

    times, sol = [], None
    for _ in range(args.runs):
        t0 = time.perf_counter()
        sol = solve(1.0, mesh0, guess0, args.tol)
        times.append(time.perf_counter() - t0)
    single_seconds = statistics.median(times)
    single_error = float(np.max(np.abs(sol.y[:, 0] - reference)))
    single_nodes = sol.x.size

    ws = ref["sweep_w"]
    sweep_ref = np.array(ref["sweep_reference"])
    sweep_times, sweep_error = [], 0.0
    for _ in range(max(1, args.runs // 2)):
        t0 = time.perf_counter()
        mesh, guess, x0 = mesh0, guess0, []
        for w in ws:
            s = solve(w, mesh, guess, args.tol)
            mesh, guess = s.x, s.y
            x0.append(s.y[:, 0])
        sweep_times.append(time.perf_counter() - t0)
        sweep_error = float(np.max(np.abs(np.array(x0) - sweep_ref)))
    sweep_seconds = statistics.median(sweep_times)

    print(f"Duffing periodic orbit, w = 1, and a {len(ws)}-point sweep w = {ws[0]:.1f}..{ws[-1]:.1f}")
    print(f"sysid: dopri5 rtol 1e-8, Newton tolerance 1e-8 ({ref['build']} build); "
          f"SciPy {__import__('scipy').__version__}: solve_bvp tol {args.tol:g}")
    print(f"{'case':<26}{'sysid [ms]':>12}{'SciPy [ms]':>12}{'ratio':>9}{'sysid err':>12}{'SciPy err':>12}")
    rows = [
        ("single shooting", ref["single_seconds"], single_seconds, ref["single_error"], single_error),
        ("multiple shooting (8)", ref["multiple_seconds"], single_seconds, ref["multiple_error"], single_error),
        (f"sweep, {len(ws)} points", ref["sweep_seconds"], sweep_seconds, ref["sweep_error"], sweep_error),
    ]
    for name, ours, theirs, e1, e2 in rows:
        print(f"{name:<26}{1e3 * ours:12.3f}{1e3 * theirs:12.3f}{theirs / ours:9.1f}{e1:12.1e}{e2:12.1e}")
    print(f"(SciPy's single solve used {single_nodes} mesh nodes; its time is the same solve in both rows)")


if __name__ == "__main__":
    main()
