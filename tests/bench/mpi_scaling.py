#!/usr/bin/python3
"""Scaling of `sysid study` (and `sysid fit --multistart`, where the build has it) over threads and
MPI processes on this machine, and the numbers for the cost model in docs/DECISIONS.md.

For threads T in 1, 2 and ranks R in 1, 2, 3 it times the same command (R = 1: a plain process;
R > 1: mpirun --oversubscribe -np R), checks that every result equals the single-process one but for
"ranks"/"rank", and prints wall time, speed-up and efficiency = T(1 rank, 1 thread) / (R T time).
CPU time (of every process, mpirun's included) shows the work added by spreading it, apart from
waiting for a busy machine. It also times an almost empty run (one realisation per rank) for the start-up cost, and prints the
load average before each run: the machine may be shared.

Usage: tests/bench/mpi_scaling.py [--build DIR] [--project P.sysid] [--realisations N] [--starts N]
                                  [--multistart-project P.sysid] [--threads 1,2] [--ranks 1,2,3]
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))


def without_ranks(value):
    if isinstance(value, dict):
        # "seconds" and a fit's "report" (whose text prints them) are the run's times.
        skip = ("ranks", "rank", "row_ranks", "seconds", "report")
        return {k: without_ranks(v) for k, v in value.items() if k not in skip}
    if isinstance(value, list):
        return [without_ranks(v) for v in value]
    return value


def load():
    return os.getloadavg()[0]


def run(command, ranks, env):
    if ranks > 1 or os.environ.get("SYSID_BENCH_MPIRUN_ONE"):
        command = [shutil.which("mpirun"), "--oversubscribe", "--bind-to", "none", "-np", str(ranks)] + command
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit("failed: " + " ".join(command) + "\n" + done.stderr[-2000:])
    # CPU time of the command and every process it started (mpirun waits for its ranks).
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def scaling(name, command_for, threads_list, ranks_list, env, folder):
    print(f"\n{name}")
    print("| ranks | threads | processes x threads | load before | wall s | speed-up | efficiency | CPU s | "
          "CPU / CPU(1, 1) | same result |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    reference = None
    base = None
    base_cpu = None
    for threads in threads_list:
        for ranks in ranks_list:
            out = os.path.join(folder, f"{name.split()[0]}-{ranks}-{threads}.json")
            before = load()
            seconds, cpu = run(command_for(threads, out), ranks, env)
            result = without_ranks(json.load(open(out)))
            if reference is None:
                reference = result
            if base is None:
                base, base_cpu = seconds, cpu
            speedup = base / seconds
            print(f"| {ranks} | {threads} | {ranks * threads} | {before:.2f} | {seconds:.2f} | {speedup:.2f} | "
                  f"{speedup / (ranks * threads):.2f} | {cpu:.2f} | {cpu / base_cpu:.2f} | "
                  f"{'yes' if result == reference else 'NO'} |", flush=True)
    return base


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(SOURCE, "build"))
    parser.add_argument("--project", default=os.path.join(SOURCE, "resources/examples/sdof_cubic.sysid"))
    parser.add_argument("--realisations", type=int, default=2000)
    parser.add_argument("--starts", type=int, default=200)
    # Every unknown of a multistart needs finite bounds: the sine's frequency, whose local minima
    # make single fits fail.
    parser.add_argument("--multistart-project", default=os.path.join(SOURCE, "resources/examples/sine_frequency.sysid"))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--ranks", default="1,2,3")
    args = parser.parse_args()
    sysid = os.path.join(args.build, "app/sysid")
    threads_list = [int(t) for t in args.threads.split(",")]
    ranks_list = [int(r) for r in args.ranks.split(",")]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    print(f"machine: {os.cpu_count()} cores; project {os.path.basename(args.project)}")
    with tempfile.TemporaryDirectory() as folder:
        # The model's native code is compiled once and cached; compile it before timing anything.
        run([sysid, "study", args.project, "-n", "1", "-q", "-o", os.path.join(folder, "warm.json")], 1, env)

        start_up = {}
        for ranks in ranks_list:
            out = os.path.join(folder, f"startup-{ranks}.json")
            start_up[ranks], _ = run([sysid, "study", args.project, "-n", str(ranks), "--threads", "1", "-q", "-o", out],
                                  ranks, env)
        print("\nstart-up (one realisation per rank): " +
              ", ".join(f"{r} rank(s) {s:.2f} s" for r, s in start_up.items()))

        base = scaling(f"study of {args.realisations} realisations",
                       lambda t, out: [sysid, "study", args.project, "-n", str(args.realisations), "--threads", str(t),
                                       "-q", "-o", out], threads_list, ranks_list, env, folder)
        print(f"\ntime per realisation (1 rank, 1 thread, start-up subtracted): "
              f"{1000 * (base - start_up[ranks_list[0]]) / args.realisations:.2f} ms")

        help_text = subprocess.run([sysid, "fit", "--help"], capture_output=True, text=True).stdout
        if "--multistart" in help_text:
            scaling(f"multistart of {args.starts} starts",
                    lambda t, out: [sysid, "fit", args.multistart_project, "--multistart", str(args.starts), "--seed", "1",
                                    "--threads", str(t), "-q", "-o", out], threads_list, ranks_list, env, folder)
        else:
            print(f"\nmultistart: skipped, this sysid has no `fit --multistart`")


if __name__ == "__main__":
    main()
