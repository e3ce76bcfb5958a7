#!/usr/bin/env python3
"""Independent reference for the subharmonic orbits of Ueda's Duffing oscillator
x'' + k x' + x^3 = B cos t (tests/validation/test_subharmonic_validation.cpp).

For each (k, B, n): settle from a start for many forcing periods, then solve P^n(x) = x for the
stroboscopic (period 2 pi) map P with scipy.optimize.fsolve, every flow integrated by solve_ivp
(DOP853, rtol 1e-12, atol 1e-14). The Floquet multipliers are the eigenvalues of the monodromy
matrix, integrated with the variational equations over n periods. Prints, per case, the n points
of the orbit on t = 0 mod 2 pi (sysid's x(0) must equal one of them), the multipliers, and
whether the orbit closes after fewer periods (it must not). Independent of sysid: SciPy only.

Usage: /usr/bin/python3 tests/bench/ueda_subharmonics_scipy.py
"""
import json
import math

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import fsolve

TWO_PI = 2.0 * math.pi
TOL = dict(method="DOP853", rtol=1e-12, atol=1e-14)

# (k, B, n, start): n-periodic cases and a start that settles onto the orbit.
CASES = [
    (0.1, 5.0, 2, (0.0, 0.0)),
    (0.2, 5.5, 2, (0.0, 0.0)),
    (0.1, 7.5, 3, (0.0, 0.0)),
    (0.2, 9.0, 3, (1.0, 0.0)),
]


def rhs(k, B):
    return lambda t, y: [y[1], -k * y[1] - y[0] ** 3 + B * math.cos(t)]


def variational(k, B):
    def f(t, y):
        x, v = y[0], y[1]
        S = y[2:].reshape(2, 2)
        A = np.array([[0.0, 1.0], [-3.0 * x * x, -k]])
        return np.concatenate(([v, -k * v - x ** 3 + B * math.cos(t)], (A @ S).ravel()))
    return f


def flow(k, B, y0, periods):
    r = solve_ivp(rhs(k, B), (0.0, TWO_PI * periods), y0, **TOL)
    return r.y[:, -1]


def main():
    out = []
    for k, B, n, start in CASES:
        y = flow(k, B, list(start), 300)
        x = fsolve(lambda z: flow(k, B, z, n) - z, y, xtol=1e-14)
        closing = float(np.max(np.abs(flow(k, B, x, n) - x)))
        points = [x.tolist()]
        for _ in range(n - 1):
            points.append(flow(k, B, points[-1], 1).tolist())
        # not closed after any proper divisor of n periods
        divisors = [d for d in range(1, n) if n % d == 0]
        gaps = [float(np.max(np.abs(flow(k, B, x, d) - x))) for d in divisors]
        r = solve_ivp(variational(k, B), (0.0, TWO_PI * n), np.concatenate((x, np.eye(2).ravel())), **TOL)
        M = r.y[2:, -1].reshape(2, 2)
        mu = np.linalg.eigvals(M)
        mu = sorted(mu, key=lambda z: -abs(z))
        out.append({"k": k, "B": B, "periods": n, "points": points, "closing_error": closing,
                    "divisor_gaps": gaps, "multipliers": [[z.real, z.imag] for z in mu],
                    "liouville": math.exp(-k * TWO_PI * n)})
        print(f"k = {k}, B = {B}: {n}-periodic, x(0) = {x[0]:.12f}, {x[1]:.12f} (closing {closing:.1e}); "
              f"gaps after {divisors} periods {['%.3g' % g for g in gaps]}; multipliers "
              + ", ".join(f"{z.real:.10f}{z.imag:+.10f}i" for z in mu)
              + f"; |mu1 mu2| = {abs(mu[0] * mu[1]):.12e}, exp(-k n 2pi) = {math.exp(-k * TWO_PI * n):.12e}")
        for p in points:
            print(f"    point on t = 0 mod 2 pi: {p[0]:.12f}, {p[1]:.12f}")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
