"""Benchmark suite: mars_on_ray vs NumPy/pandas, Dask (threads, LocalCluster) and raw Ray.

    python benchmarks/run.py [--quick] [--only NAME ...] [--out benchmarks/results/latest]

Each engine runs in its own phase process (see bench_workloads.PHASES) so that memory figures
never include another engine's processes; a case that hangs past its timeout is killed and
recorded, and the phase resumes with the next case. See README.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import psutil  # noqa: E402

from bench_report import markdown  # noqa: E402
from bench_workloads import DEFAULT_PHASES, FULL, PHASES, QUICK, WORKLOADS, phase_cases  # noqa: E402


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a 1-2 minute smoke run)")
    ap.add_argument("--only", nargs="+", choices=WORKLOADS, metavar="NAME",
                    help=f"run only these workloads ({', '.join(WORKLOADS)})")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latest"),
                    help="directory for results.json and results.md")
    ap.add_argument("--phases", nargs="+", choices=list(PHASES), default=list(DEFAULT_PHASES),
                    help="engine phases to run (mars-local: the in-process executor, opt-in)")
    ap.add_argument("--repeats", type=int, help="timed repeats per case (default 3)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs per case")
    ap.add_argument("--case-timeout", type=float, help="seconds before a case is killed")
    # internal: run one phase in this process
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--cases", help=argparse.SUPPRESS)
    ap.add_argument("--events", help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def _kill_tree(proc: subprocess.Popen) -> None:
    """Kill a phase process we started and everything it started (Ray, Dask workers)."""
    try:
        root = psutil.Process(proc.pid)
        procs = root.children(recursive=True) + [root]
    except psutil.Error:
        return
    for p in procs:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(procs, timeout=10)


def _read_events(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_phase_process(phase, cases, args, setup_timeout, case_timeout, log):
    """Run ``cases`` of ``phase`` in subprocesses, restarting after a hang or crash.

    A case past its timeout is killed and recorded; the phase resumes after it. A phase
    process that dies (e.g. its Ray cluster went away) is retried once from where it was.
    The processes' output goes to ``<out>/phase-<phase>.log``.
    """
    results, setups, pending, crashes = {}, [], list(cases), 0
    log_path = os.path.join(args.out, f"phase-{phase}.log")
    while pending:
        fd, events = tempfile.mkstemp(prefix="bench-events-", suffix=".jsonl")
        os.close(fd)
        cmd = [sys.executable, os.path.abspath(__file__), "--phase", phase, "--events", events,
               "--cases", ",".join(f"{w}:{e}" for w, e in pending), "--warmup", str(args.warmup),
               "--repeats", str(args.repeats)] + (["--quick"] if args.quick else [])
        with open(log_path, "a") as out:
            out.write(f"==== {time.strftime('%H:%M:%S')} {' '.join(cmd)}\n")
            offset = out.tell()
        with open(log_path, "a") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        started, seen, killed = time.time(), 0, None
        current = None
        while True:
            rc = proc.poll()
            evs = _read_events(events)
            for ev in evs[seen:]:
                if ev["event"] == "setup":
                    setups.append(ev)
                    log(f"  [{phase}] setup {ev.get('status')} {ev.get('notes', ev.get('error', ''))}")
                    if ev.get("status") != "ok":
                        for case in pending:
                            results[case] = {"status": "error", "error": "phase setup: " + ev["error"]}
                elif ev["event"] == "start":
                    current, started = (ev["workload"], ev["engine"]), time.time()
                    log(f"  [{phase}] {ev['workload']} / {ev['engine']} ...")
                elif ev["event"] == "result":
                    case = (ev.pop("workload"), ev.pop("engine"))
                    ev.pop("event")
                    results[case] = ev
                    current, started = None, time.time()
                    shown = f"median {ev['median_s']:.3f} s" if ev["status"] == "ok" else ev["error"]
                    log(f"  [{phase}] {case[0]} / {case[1]}: {shown}")
            seen = len(evs)
            if rc is not None:
                break
            limit = case_timeout if current else setup_timeout
            if time.time() - started > limit:
                killed = current
                _kill_tree(proc)
                proc.wait()
                break
            time.sleep(0.5)
        os.unlink(events)
        with open(log_path) as f:
            f.seek(offset)
            tail = " | ".join(f.read().strip().splitlines()[-3:])[-500:]
        pending = [c for c in pending if c not in results]
        if killed:
            results[killed] = {"status": "timeout", "error": f"killed after {limit:.0f} s"}
        elif rc != 0 and pending:
            crashes += 1
            setups.append({"event": "crash", "rc": rc, "in_case": current, "tail": tail})
            if crashes == 1:
                log(f"  [{phase}] phase process died (rc={rc}); retrying once: {tail[-200:]}")
                continue
            failed = [current] if current else pending
            for case in failed:
                results[case] = {"status": "error", "error": f"phase process died (rc={rc}): {tail}"}
        for case in pending if not killed and rc == 0 else []:  # never reported: do not loop
            results.setdefault(case, {"status": "error", "error": "not run by the phase process"})
        pending = [c for c in pending if c not in results]
    return results, setups


def _meta(args, params):
    def version(mod):
        try:
            return __import__(mod).__version__
        except Exception:
            return "n/a"
    try:
        commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", HERE, "status", "--porcelain", "--", "../mars_on_ray"],
                               capture_output=True, text=True).stdout.split("\n")
        dirty = [line[3:] for line in dirty if line[:2].strip()]
        if dirty:  # the run used uncommitted engine code: say which
            commit += f" + uncommitted {', '.join(os.path.basename(d) for d in dirty)}"
    except OSError:
        commit = "?"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "quick": args.quick, "params": params, "commit": commit,
        "machine": f"{psutil.cpu_count()} CPUs, {psutil.virtual_memory().total / 1024**3:.0f} GiB, "
                   f"{platform.system()} {platform.machine()}, load {os.getloadavg()[0]:.2f}",
        "versions": ", ".join(f"{m} {version(m)}" for m in
                              ("numpy", "pandas", "dask", "distributed", "ray", "mars_on_ray")),
    }


def main(argv=None):
    args = parse_args(argv)
    params = QUICK if args.quick else FULL
    if args.repeats is None:
        args.repeats = 3
    if args.phase:  # child: one phase
        from bench_phase import run_phase
        cases = [tuple(c.split(":")) for c in args.cases.split(",")]
        run_phase(args.phase, cases, params, args.events, args.warmup, args.repeats)
        return 0

    workloads = args.only or list(WORKLOADS)
    case_timeout = args.case_timeout or (120 if args.quick else 420)
    meta = _meta(args, params)
    print(f"# {meta['date']}  {meta['machine']}\n# {meta['versions']}", flush=True)
    results, setups, t0 = {}, {}, time.time()
    for name in os.listdir(args.out) if os.path.isdir(args.out) else []:
        if name.startswith("phase-") and name.endswith(".log"):
            os.unlink(os.path.join(args.out, name))
    for phase in args.phases:
        cases = phase_cases(phase, workloads)
        if not cases:
            continue
        print(f"phase {phase}: {len(cases)} case(s)", flush=True)
        os.makedirs(args.out, exist_ok=True)
        phase_results, phase_setups = run_phase_process(
            phase, cases, args, setup_timeout=240, case_timeout=case_timeout,
            log=lambda s: print(s, flush=True))
        results.update(phase_results)
        setups[phase] = phase_setups
    meta["elapsed_s"] = round(time.time() - t0, 1)
    meta["load_after"] = round(os.getloadavg()[0], 2)

    md = markdown(results, params, meta)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "setups": setups,
                   "results": [{"workload": w, "engine": e, **r} for (w, e), r in results.items()]},
                  f, indent=1, default=str)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(md)
    print()
    print(md)
    print(f"(written to {args.out}; {meta['elapsed_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
