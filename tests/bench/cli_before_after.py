#!/usr/bin/env python3
"""One sysid command line run by two executables, interleaved, in one run: the whole process's wall
time and CPU time (user + system of the child, from wait4; what the machine's load cannot inflate),
medians, and the ratio before / now (> 1: now is faster).

Usage: cli_before_after.py --now SYSID --before SYSID [--runs N] -- ARGUMENTS...
  e.g. cli_before_after.py --now build/app/sysid --before /tmp/old/sysid -- check resources/examples/pendulum_lagrange.model
Output goes to standard output ("-o -"), which is read and dropped. Copy both executables to the same
file system (e.g. both under /tmp) before comparing: where the binary lies changes its page faults.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cvodes_comparison import timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--now", required=True)
    ap.add_argument("--before", required=True)
    ap.add_argument("--runs", type=int, default=60)
    ap.add_argument("arguments", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = a.arguments[1:] if a.arguments[:1] == ["--"] else a.arguments
    sides = (("now", a.now), ("before", a.before))
    for _ in range(3):  # warm the page cache and the native-code cache
        for _, exe in sides:
            timed([exe] + args)
    wall = {n: [] for n, _ in sides}
    cpu = {n: [] for n, _ in sides}
    for k in range(a.runs):
        for name, exe in (sides if k % 2 == 0 else sides[::-1]):
            w, c, _ = timed([exe] + args)
            wall[name].append(w)
            cpu[name].append(c)
    med = statistics.median
    print("sysid %s  (%d runs each, interleaved; load average %s)" %
          (" ".join(args), a.runs, open("/proc/loadavg").read().split()[:3]))
    for name, _ in sides:
        print("  %-7s wall %8.2f ms  CPU %8.2f ms" % (name, 1e3 * med(wall[name]), 1e3 * med(cpu[name])))
    print("  before / now: wall %.3f  CPU %.3f" % (med(wall["before"]) / med(wall["now"]),
                                                  med(cpu["before"]) / med(cpu["now"])))


if __name__ == "__main__":
    main()
