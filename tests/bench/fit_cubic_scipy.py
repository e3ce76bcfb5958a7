#!/usr/bin/python3
"""SciPy reference for bench_fit_cubic (issue 3): the same fit, timed, and compared with sysid.

Fits u'' + 2 gamma u' + Omega2 u + k3 u^3 = 0, u(0) = 0, u'(0) = 5 (known) to the data that
bench_fit_cubic wrote (columns t, u), estimating gamma, Omega2, k3 with
scipy.optimize.least_squares over scipy.integrate.solve_ivp, with the same starting point,
integration tolerances (rtol 1e-8, atol 1e-10), convergence tolerances (ftol = xtol = gtol =
1e-10) and the same unweighted cost 1/2 sum (u_model - u_data)^2 as the sysid side. Variants:

  lm-fd     method 'lm' (MINPACK lmdif), Jacobian by forward differences (SciPy's default)
  trf-fd    method 'trf' with the model's bounds, Jacobian '2-point' (SciPy's default)
  lm-sens   method 'lm' (MINPACK lmder), Jacobian from the forward sensitivity equations
  trf-sens  method 'trf', Jacobian from the forward sensitivity equations

Both use x_scale='jac' (Marquardt's column scaling, as sysid does). The right-hand sides are
written by hand in plain Python floats (the fastest plain-SciPy form, no numba/JAX).
With --reference, one more fit with tight tolerances (DOP853, rtol 1e-12, atol 1e-14,
ftol = xtol = gtol = 1e-15) gives the least-squares minimiser itself, to see how far each
side's answer is from it. Timed: the least_squares call only.

Usage: /usr/bin/python3 fit_cubic_scipy.py --data FILE [--sysid JSON] [--runs 3]
          [--variants lm-fd,trf-fd,lm-sens,trf-sens] [--ivp RK45|DOP853] [--reference]
          [--ftol X] [--xtol X] [--gtol X] [--rtol X] [--atol X]
"""

import argparse
import csv
import json
import math
import os
import sys
import time

import numpy as np
import scipy
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares

U0 = (0.0, 5.0)  # u(0), u'(0): known
NAMES = ["gamma", "Omega2", "k3"]
TRUTH = [0.5, 25.0, 2.5]
START = [0.35, 32.5, 1.75]
LOWER = [0.0, 1.0, -20.0]
UPPER = [5.0, 100.0, 20.0]


def read_data(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = [h.strip() for h in rows[0]]
    it, iu = header.index("t"), header.index("u")
    t = np.array([float(r[it]) for r in rows[1:] if r])
    u = np.array([float(r[iu]) for r in rows[1:] if r])
    u_true = None
    if "u_true" in header:
        k = header.index("u_true")
        u_true = np.array([float(r[k]) for r in rows[1:] if r])
    return t, u, u_true


def rhs(t, y, g, w2, k3):
    x, v = y.tolist()
    return [v, -2.0 * g * v - w2 * x - k3 * x * x * x]


def rhs_sens(t, z, g, w2, k3):
    # states x, v; then (dx/dp, dv/dp) for p = gamma, Omega2, k3
    x, v, ax, av, bx, bv, cx, cv = z.tolist()
    x3 = x * x * x
    dfdx = -w2 - 3.0 * k3 * x * x
    dfdv = -2.0 * g
    return [v, -2.0 * g * v - w2 * x - k3 * x3,
            av, dfdx * ax + dfdv * av - 2.0 * v,
            bv, dfdx * bx + dfdv * bv - x,
            cv, dfdx * cx + dfdv * cv - x3]


class Problem:
    """Residuals u_model(t_i; p) - u_i, with an optional sensitivity Jacobian (cached per point)."""

    def __init__(self, t, u, ivp, rtol, atol, max_step=math.inf):
        self.t, self.u, self.ivp, self.rtol, self.atol, self.max_step = t, u, ivp, rtol, atol, max_step
        self.span = (float(t[0]), float(t[-1]))
        self.integrations = 0
        self.rhs_evaluations = 0
        self.cache = {}

    def residuals(self, p):
        self.integrations += 1
        sol = solve_ivp(rhs, self.span, U0, method=self.ivp, t_eval=self.t, rtol=self.rtol, atol=self.atol,
                        max_step=self.max_step, args=tuple(p.tolist()))
        if not sol.success:
            raise RuntimeError("solve_ivp failed at p = %s: %s" % (p, sol.message))
        self.rhs_evaluations += sol.nfev
        return sol.y[0] - self.u

    def _sensitivities(self, p):
        key = p.tobytes()
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        self.integrations += 1
        sol = solve_ivp(rhs_sens, self.span, list(U0) + [0.0] * 6, method=self.ivp, t_eval=self.t, rtol=self.rtol,
                        atol=self.atol, max_step=self.max_step, args=tuple(p.tolist()))
        if not sol.success:
            raise RuntimeError("solve_ivp failed at p = %s: %s" % (p, sol.message))
        self.rhs_evaluations += sol.nfev
        value = (sol.y[0] - self.u, np.ascontiguousarray(sol.y[[2, 4, 6]].T))
        if len(self.cache) > 8:
            self.cache.clear()
        self.cache[key] = value
        return value

    def residuals_sens(self, p):
        return self._sensitivities(p)[0]

    def jacobian_sens(self, p):
        return self._sensitivities(p)[1]


def run_variant(name, t, u, args, ivp, rtol, atol, ftol, xtol, gtol, start, lower, upper):
    method, jac_kind = name.split("-")
    problem = Problem(t, u, ivp, rtol, atol, getattr(args, "max_step", math.inf))
    kwargs = dict(method=method, ftol=ftol, xtol=xtol, gtol=gtol, x_scale="jac", max_nfev=args.max_nfev)
    if method == "trf":
        kwargs["bounds"] = (lower, upper)
    if jac_kind == "fd":
        fun, jac = problem.residuals, "2-point"
    else:
        fun, jac = problem.residuals_sens, problem.jacobian_sens
    t0 = time.perf_counter()
    res = least_squares(fun, np.array(start, dtype=float), jac=jac, **kwargs)
    seconds = time.perf_counter() - t0
    return dict(x=res.x.tolist(), cost=float(res.cost), nfev=int(res.nfev),
                njev=None if res.njev is None else int(res.njev), status=int(res.status), message=res.message,
                integrations=problem.integrations, rhs_evaluations=problem.rhs_evaluations, seconds=seconds,
                optimality=float(res.optimality))


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def rel(a, b):
    return max(abs(x - y) / abs(y) for x, y in zip(a, b))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--sysid", help="results JSON written by bench_fit_cubic --json")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variants", default="lm-fd,trf-fd,lm-sens,trf-sens")
    ap.add_argument("--ivp", default="RK45", choices=["RK45", "DOP853"])
    ap.add_argument("--reference", action="store_true")
    ap.add_argument("--max-nfev", type=int, default=None)
    ap.add_argument("--max-step", type=float, default=math.inf, help="solve_ivp max_step (default: none)")
    for tol, default in (("ftol", None), ("xtol", None), ("gtol", None), ("rtol", None), ("atol", None)):
        ap.add_argument("--" + tol, type=float, default=default)
    args = ap.parse_args()

    sysid = None
    if args.sysid:
        with open(args.sysid) as f:
            sysid = json.load(f)
    start = sysid["start"] if sysid else START
    truth = sysid["truth"] if sysid else TRUTH
    lower = sysid["lower"] if sysid else LOWER
    upper = sysid["upper"] if sysid else UPPER

    def tol(name, default):
        given = getattr(args, name)
        return given if given is not None else (sysid[name] if sysid else default)

    rtol, atol = tol("rtol", 1e-8), tol("atol", 1e-10)
    ftol, xtol, gtol = tol("ftol", 1e-10), tol("xtol", 1e-10), tol("gtol", 1e-10)

    t, u, u_true = read_data(args.data)
    print("SciPy reference fit_cubic_scipy.py")
    print("  load average   : %s (at start)" % loadavg())
    print("  Python %s, NumPy %s, SciPy %s (%s)" % (sys.version.split()[0], np.__version__, scipy.__version__,
                                                  os.path.dirname(scipy.__file__)))
    print("  data           : %s, %d samples, t = %g..%g s" % (args.data, len(t), t[0], t[-1]))
    ivp_label = args.ivp + ("" if math.isinf(args.max_step) else " max_step %g" % args.max_step)
    print("  solve_ivp %s rtol %g atol %g (t_eval = the samples); least_squares ftol %g xtol %g gtol %g,"
          " x_scale='jac', start %s" % (ivp_label, rtol, atol, ftol, xtol, gtol, start))

    for label, f, y0 in (("2 states", rhs, list(U0)), ("2 states + 6 sensitivities", rhs_sens, list(U0) + [0.0] * 6)):
        seconds = []
        for _ in range(5):
            t0 = time.perf_counter()
            sol = solve_ivp(f, (t[0], t[-1]), y0, method=args.ivp, t_eval=t, rtol=rtol, atol=atol,
                            max_step=args.max_step, args=tuple(start))
            seconds.append(time.perf_counter() - t0)
        steps = len(solve_ivp(f, (t[0], t[-1]), y0, method=args.ivp, rtol=rtol, atol=atol, max_step=args.max_step,
                              args=tuple(start)).t) - 1
        error = ""
        if u_true is not None:
            at_truth = solve_ivp(f, (t[0], t[-1]), y0, method=args.ivp, t_eval=t, rtol=rtol, atol=atol,
                                 max_step=args.max_step, args=tuple(truth))
            error = "; at the truth max |u - u_true| %.2e" % np.max(np.abs(at_truth.y[0] - u_true))
        print("  one solve_ivp at the start, %-26s: %.3f ms, %d steps, %d RHS calls%s" % (
            label, 1e3 * float(np.median(seconds)), steps, sol.nfev, error))

    variants = [v for v in args.variants.split(",") if v]
    results = {}
    for v in variants:
        runs = [run_variant(v, t, u, args, args.ivp, rtol, atol, ftol, xtol, gtol, start, lower, upper)
                for _ in range(args.runs)]
        r = dict(runs[-1])
        r["all_seconds"] = [x["seconds"] for x in runs]
        r["median_seconds"] = float(np.median(r["all_seconds"]))
        r["identical"] = all(x["x"] == runs[0]["x"] for x in runs)
        results[v] = r
        print("\n  %-9s wall [s] %s; median %.3f s, min %.3f s" % (
            v, " ".join("%.3f" % s for s in r["all_seconds"]), r["median_seconds"], min(r["all_seconds"])))
        print("            nfev %d, njev %s, integrations %d (%d RHS calls), status %d: %s" % (
            r["nfev"], r["njev"], r["integrations"], r["rhs_evaluations"], r["status"], r["message"]))
        print("            cost %.12g, estimate %s" % (r["cost"], ", ".join("%.15g" % x for x in r["x"])))

    reference = None
    if args.reference:
        print("\n  reference: trf + sensitivities, DOP853 rtol 1e-12 atol 1e-14, ftol = xtol = gtol = 1e-15 ...")

        class Tight:
            max_nfev = 200
        reference = run_variant("trf-sens", t, u, Tight, "DOP853", 1e-12, 1e-14, 1e-15, 1e-15, 1e-15, start,
                                lower, upper)
        print("            %.1f s, nfev %d, status %d, cost %.15g, estimate %s" % (
            reference["seconds"], reference["nfev"], reference["status"], reference["cost"],
            ", ".join("%.15g" % x for x in reference["x"])))

    print("\n  load average   : %s (at end)" % loadavg())
    if not sysid:
        return 0

    # ---------------------------------------------------------------------------------------------
    s_time = sysid["median_seconds"]
    print("\n======== comparison: sysid (dopri5) vs SciPy (solve_ivp %s), same data, start, tolerances ========"
          % ivp_label)
    print("sysid: median of %d runs %.2f ms (min %.2f ms), %d iterations (accepted LM steps), %s" % (
        len(sysid["seconds"]), s_time * 1e3, 1e3 * min(sysid["seconds"]), sysid["iterations"], sysid["stop_reason"]))
    print("SciPy: median of %d runs each; ratio = SciPy median / sysid median; nfev/njev as least_squares counts them"
          % args.runs)
    head = "%-10s %11s %9s %6s %6s %22s %22s %22s %11s %11s" % (
        "side", "median [s]", "ratio", "nfev", "njev", NAMES[0], NAMES[1], NAMES[2], "cost-cost_s", "maxrel vs s")
    print(head)
    print("%-10s %11.5f %9s %6s %6s %22.15g %22.15g %22.15g %11s %11s" % (
        "sysid", s_time, "1", "-", "-", *sysid["estimate"], "0", "0"))
    ok_all = True
    for v, r in results.items():
        ratio = r["median_seconds"] / s_time
        d = rel(r["x"], sysid["estimate"])
        print("%-10s %11.5f %8.1fx %6d %6s %22.15g %22.15g %22.15g %11.3e %11.3e" % (
            v, r["median_seconds"], ratio, r["nfev"], r["njev"] if r["njev"] is not None else "-", *r["x"],
            r["cost"] - sysid["cost"], d))
    if reference:
        print("%-10s %11s %9s %6d %6s %22.15g %22.15g %22.15g %11.3e %11.3e" % (
            "reference", "-", "-", reference["nfev"], reference["njev"], *reference["x"],
            reference["cost"] - sysid["cost"], rel(reference["x"], sysid["estimate"])))
    print("truth%s %22.15g %22.15g %22.15g" % (" " * 40, *truth))
    print()
    for v, r in results.items():
        ratio = r["median_seconds"] / s_time
        d = rel(r["x"], sysid["estimate"])
        agree = d <= 1e-6
        fast = ratio >= 20
        ok_all = ok_all and agree and fast
        line = "%-9s agreement %.2e %s 1e-6 %s; speed ratio %.1f %s 20 %s (min/min %.1f)" % (
            v, d, "<=" if agree else ">", "PASS" if agree else "FAIL", ratio, ">=" if fast else "<",
            "PASS" if fast else "FAIL", min(r["all_seconds"]) / min(sysid["seconds"]))
        if reference:
            line += "; |SciPy - ref| %.1e" % rel(r["x"], reference["x"])
        print(line)
    if reference:
        print("sysid     |sysid - ref| %.1e (ref = the least-squares minimiser, tight tolerances)" % rel(
            sysid["estimate"], reference["x"]))
    print("runs bit-identical (SciPy): %s" % ", ".join(
        "%s %s" % (v, "yes" if r["identical"] else "NO") for v, r in results.items()))
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
