/* Preloaded into a benchmark by run_all_benchmarks.sh (LD_PRELOAD): the monotonic clock the
 * benchmarks time with (std::chrono::steady_clock) reads the process's CPU time instead, so that
 * an older binary that prints wall times and a newer one compete alike on a loaded machine:
 * the time other processes take no longer counts. Waits with a deadline on that clock end early,
 * so timings of work done in a child process (the native-code compiler) are not measured. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

typedef int (*ClockGettime)(clockid_t, struct timespec*);

int clock_gettime(clockid_t id, struct timespec* ts)
{
    static ClockGettime real = 0;
    if (!real)
        real = (ClockGettime)dlsym(RTLD_NEXT, "clock_gettime");
    if (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_MONOTONIC_COARSE)
        id = CLOCK_PROCESS_CPUTIME_ID;
    return real(id, ts);
}
