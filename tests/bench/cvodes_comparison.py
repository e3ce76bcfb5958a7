#!/usr/bin/env python3
"""sysid against SUNDIALS CVODES in its best form, in one run (run_fit_benchmark.sh and
run_periodic_benchmark.sh call it; it can also be run alone).

Problems (the reference programs' own, ../shared/peers/README.md):
  fit       output-error fit of u'' + 2 gamma u' + Omega2 u + k3 u^3 = 0, u(0) = 0, u'(0) = Q to
            resources/examples/data/sdof_cubic_5pct.csv, start gamma, Omega2, k3, Q = 0.35, 22.5,
            1.75, 3.5, rtol 1e-8, atol 1e-10, stop at relative cost change 1e-10 or 50 iterations.
            sysid: `sysid fit PROJECT` on a copy of resources/examples/sdof_cubic.sysid with that
            start and stop; CVODES: cvodes_sdof_fit --sens augmented (plain Levenberg-Marquardt in
            Eigen on the 10-state augmented system, its fastest form).
  periodic  Duffing x'' + 0.1x' + x + 0.5x^3 = 0.5cos(1.4t), single shooting from (0, 0), rtol 1e-8,
            atol 1e-10, Newton tolerance 1e-8, Floquet multipliers. sysid: `sysid periodic`;
            CVODES: cvodes_duffing_periodic --sens augmented (KINSOL). Known answer
            x(0) = -0.5897598533, x'(0) = 0.1430676552.

Whole process: each program started N times, sysid (and the baseline sysid, if given) and CVODES
interleaved so that the machine's load falls on all; wall time (median) and CPU time of the child
(user + system, from wait4; what the load cannot inflate). Each side's start-up is included;
CVODES prints one JSON line, sysid writes its result JSON to standard output (`-o -`) unless
--write-file is given (then to a file, with sysid's durable atomic write: fsync and rename).
Solve only: bench_fit_cubic --project / bench_periodic --part cvodes (sysid's solve timed inside
the process, median of --runs) against the peers' own solve timing (wall_s, median of --repeat),
alternated for --rounds rounds, and as CPU per solve (CPU of a process with 1 + runs solves minus
that of a process with one, divided by runs: what the load cannot inflate); and the timer sysid's CLI reports in its result JSON
(statistics.seconds.total, one solve per process), for the baseline too.

Usage: cvodes_comparison.py fit|periodic --build BUILD [--baseline DIR] [--peers DIR] [--runs N]
       [--rounds R] [--write-file] [--integrator dopri5|dop853]
  --build     sysid build directory (app/sysid, tests/bench/bench_*)
  --baseline  a directory with an older `sysid` (and optionally its bench_* executables) to measure
              in the same run
  --peers     where cvodes_sdof_fit and cvodes_duffing_periodic are (default: built into a
              temporary directory from ../shared/peers with g++ and Debian's libsundials-dev)
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
PEERS_SOURCE = os.environ.get("SYSID_PEERS_DIR", os.path.abspath(os.path.join(SOURCE, "..", "shared", "peers")))
ORBIT = (-0.5897598533, 0.1430676552)
W = 1.4
SUN = ["-lsundials_cvodes", "-lsundials_nvecserial", "-lsundials_sunmatrixdense", "-lsundials_sunlinsoldense",
       "-lsundials_sunnonlinsolfixedpoint", "-lsundials_sunnonlinsolnewton"]
FLAGS = ["-O2", "-march=native", "-DNDEBUG", "-std=c++17", "-I/usr/include/eigen3"]


def build_peers(out):
    """The peers as ../shared/peers/build.sh builds them, but the fit without its Ceres solver: the
    fastest form (--solver lm) does not use it, and a program that does not link Ceres and glog starts
    faster, so CVODES' whole-process time is its best too."""
    fit_src = os.path.join(PEERS_SOURCE, "cvodes_sdof_fit.cpp")
    orbit_src = os.path.join(PEERS_SOURCE, "cvodes_duffing_periodic.cpp")
    if not os.path.exists("/usr/include/cvodes/cvodes.h"):
        sys.exit("cvodes_comparison: SUNDIALS is not installed (install-deps.sh installs libsundials-dev)")
    text = open(fit_src).read()
    lines, skipping = [], False
    for line in text.splitlines():
        if line.startswith("// ---") and line.rstrip().endswith(" Ceres"):
            skipping = True
            continue
        if skipping and line.startswith("// ---") and line.rstrip().endswith(" main"):
            skipping = False
        if skipping or "#include <ceres/ceres.h>" in line or "google::InitGoogleLogging" in line:
            continue
        lines.append(line.replace('o.solver == "ceres" ? solveCeres(model, data, o) : solveLm(model, data, o)',
                                  "solveLm(model, data, o)"))
    stripped = os.path.join(out, "cvodes_sdof_fit_lm.cpp")
    with open(stripped, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run(["g++", *FLAGS, stripped, "-o", os.path.join(out, "cvodes_sdof_fit"), *SUN], check=True)
    subprocess.run(["g++", *FLAGS, orbit_src, "-o", os.path.join(out, "cvodes_duffing_periodic"), *SUN,
                    "-lsundials_kinsol"], check=True)


def fit_project(work, integrator):
    project = json.load(open(os.path.join(SOURCE, "resources", "examples", "sdof_cubic.sysid")))
    project["model"]["source"] = os.path.join(SOURCE, "resources", "examples", "sdof_cubic.model")
    project["data"][0]["path"] = os.path.join(SOURCE, "resources", "examples", "data", "sdof_cubic_5pct.csv")
    project["parameters"] = {"gamma": 0.35, "Omega2": 22.5, "k3": 1.75, "u'(0)": 3.5}
    settings = project["settings"]
    settings["integrator"].update({"method": integrator, "rtol": 1e-8, "atol": 1e-10})
    settings["cost_tolerance"] = 1e-10
    settings["max_iterations"] = 50
    path = os.path.join(work, "sdof_cubic_cvodes.sysid")
    with open(path, "w") as f:
        json.dump(project, f, indent=1)
    return path


def placed(executables, into):
    """Copies of the executables, side by side in `into`, each written in 1 MiB blocks as cp or an
    installer writes it. A file the linker has just written sits in the page cache in small pieces, and
    a process that maps it starts slower: sysid's orbit took 0.3-0.4 ms more of its 2.6 ms when run
    from its fresh link than from a cp copy of it (kernel 6.18; docs/DECISIONS.md, "The command line's
    start"). Every side is timed from such a copy, none in the state its last link left it in."""
    os.makedirs(into, exist_ok=True)
    out = []
    for exe in executables:
        target = os.path.join(into, os.path.basename(exe))
        with open(exe, "rb") as src, open(target, "wb") as dst:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                dst.write(block)
        shutil.copymode(exe, target)
        out.append(target)
    return out


def timed(cmd):
    """(wall seconds, child CPU seconds (user + system, wait4), stdout) of one process; exits on failure."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.exit("cvodes_comparison: %s failed (%d): %s" % (" ".join(cmd), p.returncode, err.read().decode()[-2000:]))
        return wall, usage.ru_utime + usage.ru_stime, out.read()


def run(cmd):
    return timed(cmd)[2]


def fmt_ms(x):
    return "%8.2f" % (1e3 * x)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("problem", choices=["fit", "periodic"])
    ap.add_argument("--build", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--peers")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--write-file", action="store_true")
    ap.add_argument("--integrator", default="dopri5", help="sysid's integrator (dopri5 | dop853; the fit's "
                    "bench run follows it, bench_periodic stays on dopri5)")
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="sysid-cvodes-")
    try:
        peers = a.peers
        if not peers:
            peers = os.path.join(work, "built")
            os.makedirs(peers)
            build_peers(peers)
        peers = os.path.dirname(placed([os.path.join(peers, p) for p in ("cvodes_sdof_fit", "cvodes_duffing_periodic")],
                                       os.path.join(work, "peers"))[0])

        def sysid_side(directory, into):
            helper = os.path.join(directory, "sysid-symbolic")  # sysid looks for it next to itself
            return placed([os.path.join(directory, "sysid")] + ([helper] if os.path.exists(helper) else []),
                          os.path.join(work, into))[0]

        sides = [("sysid", sysid_side(os.path.join(a.build, "app"), "sysid"))]
        if a.baseline:
            sides.append(("sysid before", sysid_side(a.baseline, "before")))

        if a.problem == "fit":
            project = fit_project(work, a.integrator)

            def sysid_cmd(exe, k):
                out = os.path.join(work, "result%d.json" % k) if a.write_file else "-"
                return [exe, "fit", project, "--quiet", "-o", out]
            peer_cmd = [os.path.join(peers, "cvodes_sdof_fit"), "--sens", "augmented",
                        "--data", os.path.join(SOURCE, "resources", "examples", "data", "sdof_cubic_5pct.csv")]
            bench_cmd = [os.path.join(a.build, "tests", "bench", "bench_fit_cubic"), "--project", project]
            title = "cubic-oscillator fit (4 unknowns, 335 samples)"
        else:
            model = os.path.join(SOURCE, "resources", "examples", "duffing_periodic.model")

            def sysid_cmd(exe, k):
                out = os.path.join(work, "orbit%d.json" % k) if a.write_file else "-"
                return [exe, "periodic", model, "--set", "c=0.1", "--set", "k=1", "--set", "k3=0.5", "--set", "B=0.5",
                        "--set", "w=%r" % W, "--period", repr(2 * math.pi / W), "--shooting-intervals", "1",
                        "--settle", "0", "--guess", "x=0", "--guess", "x'=0", "--tolerance", "1e-8",
                        "--rtol", "1e-8", "--atol", "1e-10", "--integrator", a.integrator, "--quiet", "-o", out]
            peer_cmd = [os.path.join(peers, "cvodes_duffing_periodic"), "--sens", "augmented"]
            bench_cmd = [os.path.join(a.build, "tests", "bench", "bench_periodic"), "--part", "cvodes"]
            title = "Duffing periodic orbit (w = 1.4, single shooting from (0, 0))"

        print("cvodes_comparison.py %s  %s  load average %s" % (a.problem, time.strftime("%Y-%m-%dT%H:%M:%S"),
                                                              open("/proc/loadavg").read().split()[:3]))
        print(title + ", sysid's integrator " + a.integrator)
        for _ in range(2):  # warm the page cache and sysid's native-code cache
            for name, exe in sides:
                run(sysid_cmd(exe, 0))
            run(peer_cmd)

        wall = {n: [] for n, _ in sides}
        cpu = {n: [] for n, _ in sides}
        inproc = {n: [] for n, _ in sides}
        wall["CVODES"], cpu["CVODES"], inproc["CVODES"] = [], [], []
        answers = {}
        for k in range(a.runs):
            for name, exe in sides:
                w, c, out = timed(sysid_cmd(exe, k))
                wall[name].append(w)
                cpu[name].append(c)
                text = open(sysid_cmd(exe, k)[-1]).read() if a.write_file else out.decode()
                result = json.loads(text)
                inproc[name].append(result["statistics"]["seconds"]["total"])
                answers[name] = result
            w, c, out = timed(peer_cmd)
            wall["CVODES"].append(w)
            cpu["CVODES"].append(c)
            answers["CVODES"] = json.loads(out.decode())
            inproc["CVODES"].append(answers["CVODES"]["wall_s"])

        # Solve only: sysid's bench executable and the peer's own timer, alternated. CPU per solve:
        # (CPU of a process with 1 + runs solves - CPU of one with 1) / runs, which the load cannot inflate.
        solve = {"sysid": [], "CVODES": []}
        solve_cpu = {"sysid": [], "CVODES": []}
        bench_answer = None
        for _ in range(a.rounds):
            for name, cmd, flag in (("sysid", bench_cmd, "--runs"), ("CVODES", peer_cmd, "--repeat")):
                _, cpu1, _ = timed(cmd + [flag, "1"])
                _, cpun, out = timed(cmd + [flag, str(1 + a.runs)])
                answer = json.loads(out.decode())
                solve[name].append(answer["wall_s"])
                solve_cpu[name].append((cpun - cpu1) / a.runs)
                if name == "sysid":
                    bench_answer = answer

        med = statistics.median
        cv_wall, cv_cpu = med(wall["CVODES"]), med(cpu["CVODES"])
        print("\nwhole process (%d starts each, interleaved; result %s)" %
              (a.runs, "written to a file" if a.write_file else "on standard output"))
        print("  %-14s %12s %12s %14s %14s %22s" % ("", "wall [ms]", "CPU [ms]", "CVODES/it wall", "CVODES/it CPU",
                                                    "paired CPU (quartiles)"))
        for name in [n for n, _ in sides] + ["CVODES"]:
            # The machine's speed drifts: the ratio of the two starts made one after the other, per start.
            paired = sorted(c / s for c, s in zip(cpu["CVODES"], cpu[name]))
            quartile = lambda q: paired[int(q * (len(paired) - 1))]
            print("  %-14s %s %s %14.2f %14.2f %8.2f (%.2f-%.2f)" % (
                name, fmt_ms(med(wall[name])) + "    ", fmt_ms(med(cpu[name])) + "    ", cv_wall / med(wall[name]),
                cv_cpu / med(cpu[name]), med(paired), quartile(0.25), quartile(0.75)))
        print("\nsolve only (median of %d solves in one process, median over %d alternated rounds)" % (a.runs, a.rounds))
        print("  %-34s %12s %12s %14s %14s" % ("", "wall [ms]", "CPU [ms]", "CVODES/it wall", "CVODES/it CPU"))
        for name, label in (("sysid", "sysid (%s)" % os.path.basename(bench_cmd[0])), ("CVODES", "CVODES (its own wall_s)")):
            print("  %-34s %12.3f %12.3f %14.2f %14.2f" % (
                label, 1e3 * med(solve[name]), 1e3 * med(solve_cpu[name]), med(solve["CVODES"]) / med(solve[name]),
                med(solve_cpu["CVODES"]) / med(solve_cpu[name])))
        print("  one solve per process, as each program's own timer reports it (median of %d; sysid periodic's "
              "timer includes compiling the model):" % a.runs)
        for name in [n for n, _ in sides] + ["CVODES"]:
            print("  %-34s %9.3f ms   CVODES/it %.2f" % (name, 1e3 * med(inproc[name]), med(inproc["CVODES"]) / med(inproc[name])))

        print("\naccuracy")
        if a.problem == "fit":
            cv = answers["CVODES"]["estimates"]
            names = [("gamma", "gamma"), ("Omega2", "Omega2"), ("k3", "k3"), ("u'(0)", "Q")]
            for name, _ in sides:
                est = {n: p["value"] for n, p in answers[name]["parameters"].items()}
                print("  %-14s %s  iterations %d" % (name, "  ".join("%s=%.10g" % (n, est[n]) for n, _ in names),
                                                     answers[name]["iterations"]))
            print("  %-14s %s  iterations %d" % ("CVODES", "  ".join("%s=%.10g" % (n, cv[c]) for n, c in names),
                                                 answers["CVODES"]["iterations"]))
            for name, _ in sides:
                est = {n: p["value"] for n, p in answers[name]["parameters"].items()}
                rel = max(abs(est[n] - cv[c]) / abs(cv[c]) for n, c in names)
                print("  %-14s max relative difference from CVODES %.1e" % (name, rel))
            rel = max(abs(bench_answer["estimates"][n] - cv[c]) / abs(cv[c]) for n, c in names)
            print("  %-14s max relative difference from CVODES %.1e (the solve-only run)" % ("bench", rel))
        else:
            rows = [(name, answers[name]["initial_state"]["x"], answers[name]["initial_state"]["x'"],
                     answers[name]["iterations"]) for name, _ in sides]
            cv = answers["CVODES"]
            rows.append(("CVODES", cv["estimates"]["x0"], cv["estimates"]["v0"], cv["iterations"]))
            rows.append(("bench", bench_answer["estimates"]["x0"], bench_answer["estimates"]["v0"],
                         bench_answer["iterations"]))
            for name, x, v, it in rows:
                print("  %-14s x(0) = %.10f  x'(0) = %.10f  |error| %.1e  Newton iterations %d" %
                      (name, x, v, max(abs(x - ORBIT[0]), abs(v - ORBIT[1])), it))
        print("\nload average at the end: %s" % open("/proc/loadavg").read().split()[:3])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
