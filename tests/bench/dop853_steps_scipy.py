#!/usr/bin/python3
"""SciPy reference for the step counts of sysid's dop853 (test_dop853, bench_dop853).

Integrates, with scipy.integrate.solve_ivp's DOP853 and RK45 (Dormand-Prince 5(4), as sysid's
dopri5), at the given rtol with atol = rtol / 100:
  cubic    u'' + 2 gamma u' + Omega2 u + k3 u^3 = 0, gamma 0.5, Omega2 25, k3 2.5, u(0) = 0, 5,
           on [0, 5] (the cubic-oscillator fit's model at its true parameters)
  duffing  x'' = -0.05 x' - x^3 + 7.5 cos t, x(0) = 3, 0, on [0, 20] (Ueda's forced Duffing)
and prints the accepted steps, right-hand-side evaluations and the largest error on a grid of
0.01 s against DOP853 at rtol 1e-13.

Usage: /usr/bin/python3 dop853_steps_scipy.py [--rtol 1e-8 ...]
"""

import argparse

import numpy as np
import scipy
from scipy.integrate import solve_ivp


def cubic(t, y):
    return [y[1], -2 * 0.5 * y[1] - 25.0 * y[0] - 2.5 * y[0] ** 3]


def duffing(t, y):
    return [y[1], -0.05 * y[1] - y[0] ** 3 + 7.5 * np.cos(t)]


PROBLEMS = {"cubic": (cubic, [0.0, 5.0], 5.0), "duffing": (duffing, [3.0, 0.0], 20.0)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rtol", type=float, nargs="+", default=[1e-6, 1e-8, 1e-10])
    args = parser.parse_args()
    print(f"scipy {scipy.__version__}")
    for name, (f, y0, t_end) in PROBLEMS.items():
        grid = np.linspace(0.0, t_end, int(round(t_end / 0.01)) + 1)
        ref = solve_ivp(f, (0.0, t_end), y0, method="DOP853", rtol=1e-13, atol=1e-15, t_eval=grid)
        for rtol in args.rtol:
            for method in ("DOP853", "RK45"):
                sol = solve_ivp(f, (0.0, t_end), y0, method=method, rtol=rtol, atol=rtol / 100, dense_output=True)
                err = np.max(np.abs(sol.sol(grid)[0] - ref.y[0]))
                print(f"{name:8s} rtol {rtol:.0e} {method:6s} steps {len(sol.t) - 1:5d} "
                      f"rhs {sol.nfev:6d} max error {err:.2e}")


if __name__ == "__main__":
    main()
