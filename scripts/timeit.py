#!/usr/bin/env python3
"""Run a command N times; print the median wall time (ms) and peak RSS (MB).

usage: timeit.py N LABEL [--any-exit] -- CMD...   (stdout of CMD discarded)
Prints one line: LABEL  median_ms  min_ms  max_rss_mb
"""
import resource, statistics, subprocess, sys, time

n = int(sys.argv[1]); label = sys.argv[2]; cmd = sys.argv[sys.argv.index("--") + 1:]
any_exit = "--any-exit" in sys.argv[3:sys.argv.index("--")]  # wn exits with a count
times = []
for _ in range(n):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if any_exit: r.returncode = 0
    times.append((time.perf_counter() - t) * 1e3)
    if r.returncode != 0:
        print(f"{label}: command failed with {r.returncode}: {' '.join(cmd)}", file=sys.stderr)
        sys.exit(1)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{label:<44} median {statistics.median(times):9.1f} ms   min {min(times):9.1f} ms   peak RSS {rss:7.1f} MB   (n={n})")
