"""The markdown report of a suite run: one table, then the targets."""
from __future__ import annotations

ENGINE_ORDER = ("numpy", "dask-threads", "dask-distributed", "ray", "mars", "mars-local",
                "mars-cold", "mars-warm", "mars-attach")
LABELS = {
    "numpy": "NumPy/pandas (1 process)",
    "dask-threads": "Dask threads",
    "dask-distributed": "Dask LocalCluster 2x1",
    "ray": "raw Ray tasks",
    "mars": "mars_on_ray",
    "mars-local": "mars_on_ray LocalExecutor",
    "mars-cold": "mars_on_ray cold new_session()",
    "mars-warm": "mars_on_ray warm new_session()",
    "mars-attach": "mars_on_ray new_session(address) from a 2nd driver",
}
WORKLOAD_TITLES = {
    "seed": "seed: inner(ones 2-D)",
    "elementwise": "elementwise + reduction",
    "matmul": "matmul 2-D @ 2-D",
    "groupby": "groupby-sum",
    "groupby_agg": "groupby 2 cols x sum+mean+count",
    "overhead": "per-subtask overhead",
    "sessions": "sessions",
    "parquet_write": "to_parquet 8 parts",
    "parquet_read": "read_parquet(columns=3) + filter + groupby",
    "parquet_lazy": "read_parquet()[3 cols] + filter + groupby",
    "csv_read": "read_csv + sum",
}


def _ok(results, workload, engine):
    r = results.get((workload, engine))
    return r if r and r.get("status") == "ok" else None


def _ratio(value, ref):
    return f"{value / ref:.2f}x" if value is not None and ref else "—"


def derived(results: dict, params: dict) -> dict:
    """Ratios the table and the targets need, per (workload, engine)."""
    out = {}
    for (workload, engine), r in results.items():
        if r.get("status") != "ok":
            continue
        d = {}
        med = r["median_s"]
        base = _ok(results, workload, "numpy")
        if base and engine != "numpy":
            d["vs_numpy"] = med / base["median_s"]
        dasks = [x["median_s"] for x in (_ok(results, workload, "dask-threads"),
                                         _ok(results, workload, "dask-distributed")) if x]
        if dasks:
            d["vs_best_dask"] = med / min(dasks)
        if workload == "overhead":
            d["per_task_ms"] = med / params["oh_n"] * 1000
            raw = _ok(results, "overhead", "ray")
            if raw and engine != "ray":
                d["vs_raw_ray"] = med / raw["median_s"]
        out[(workload, engine)] = d
    return out


def _subtasks(runs):
    """Subtasks per run (first is the warm-up); a timed run with fewer reused earlier results."""
    counts = [c for c in runs if isinstance(c, int)]
    if not counts:
        return "subtasks=?"
    if len(set(counts)) == 1:
        return f"subtasks={counts[0]}"
    flag = " (**some runs reused results?**)" if min(counts[1:] or counts) < max(counts) else ""
    return f"subtasks per run={counts}{flag}"


def _notes(r, d):
    parts = []
    if "per_task_ms" in d:
        parts.append(f"{d['per_task_ms']:.3f} ms/task")
    if "vs_raw_ray" in d:
        parts.append(f"**{d['vs_raw_ray']:.2f}x raw Ray**")
    for k, v in (r.get("notes") or {}).items():
        if k in ("what",) or v is None:
            continue
        if k == "subtasks_per_run":
            parts.append(_subtasks(v))
            continue
        if isinstance(v, (list, dict)) and not v:
            continue
        if isinstance(v, dict):
            v = "{" + ", ".join(f"{a}: {b}" for a, b in v.items()) + "}"
        if isinstance(v, list):
            v = "/".join(str(x) for x in v)
        parts.append(f"{k}={v}")
    if r.get("status") != "ok":
        parts.insert(0, f"**{r.get('status', '?').upper()}**: {r.get('error', '')}")
    return "; ".join(str(p).replace("|", "/") for p in parts)


def markdown(results: dict, params: dict, meta: dict) -> str:
    d_all = derived(results, params)
    lines = [f"# mars_on_ray benchmarks ({'quick' if meta.get('quick') else 'full'})", "",
             f"{meta.get('date', '')}; {meta.get('machine', '')}; commit {meta.get('commit', '?')}; "
             f"{meta.get('versions', '')}", "",
             "Times: median of the timed repeats after the warm-up (build + execute + result in the "
             "driver). Ratios: this engine's time / the reference's (>1 is slower). Memory: peak "
             "of the summed RSS (and PSS) of the phase process and all its descendants, Δ = over "
             "the value just before the timed repeats (see README).", "",
             "| workload | engine | median s | best s | repeats | vs NumPy/pandas | vs best Dask "
             "| peak RSS MiB | Δ RSS MiB | peak PSS MiB | notes |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    order = ("seed", "elementwise", "matmul", "groupby", "groupby_agg", "overhead", "sessions", "parquet_write",
             "parquet_read", "parquet_lazy", "csv_read")
    workloads = sorted({w for w, _ in results}, key=lambda w: order.index(w) if w in order else 99)
    for w in workloads:
        for e in ENGINE_ORDER:
            r = results.get((w, e))
            if r is None:
                continue
            d = d_all.get((w, e), {})
            title = WORKLOAD_TITLES.get(w, w)
            if r.get("status") == "ok":
                m = r["memory"]
                cells = [f"{r['median_s']:.3f}", f"{r.get('min_s', min(r['times_s'])):.3f}",
                         str(len(r["times_s"])),
                         _ratio(d.get("vs_numpy"), 1) if "vs_numpy" in d else "—",
                         _ratio(d.get("vs_best_dask"), 1) if "vs_best_dask" in d else "—",
                         f"{m['peak_rss_mib']:.0f}", f"{m['peak_rss_mib'] - m['base_rss_mib']:.0f}",
                         f"{m['peak_pss_mib']:.0f}"]
            else:
                cells = ["—"] * 8
            lines.append(f"| {title} | {LABELS.get(e, e)} | " + " | ".join(cells)
                         + f" | {_notes(r, d)} |")
    lines += ["", "## Targets", ""] + targets(results, d_all)
    return "\n".join(lines) + "\n"


def targets(results: dict, d_all: dict) -> list[str]:
    out = []
    d = d_all.get(("overhead", "mars"))
    if d and "vs_raw_ray" in d:
        verdict = "met" if d["vs_raw_ray"] <= 1.2 else "NOT met"
        out.append(f"- per-subtask overhead within 1.2x raw Ray: {d['vs_raw_ray']:.2f}x ({verdict})")
    elif ("overhead", "mars") in results:
        out.append("- per-subtask overhead within 1.2x raw Ray: not measured (mars failed)")
    r = _ok(results, "sessions", "mars-warm")
    if r:
        verdict = "met" if r["median_s"] < 0.5 else "NOT met"
        out.append(f"- warm new_session() < 0.5 s: {r['median_s']:.3f} s ({verdict})")
    elif ("sessions", "mars-warm") in results:
        out.append("- warm new_session() < 0.5 s: not measured (mars failed)")
    r = _ok(results, "sessions", "mars-cold")
    if r:
        verdict = "met" if r["median_s"] <= 4 else "NOT met"
        out.append(f"- cold new_session() <= 4 s: {r['median_s']:.2f} s, embedded Ray start "
                   f"included ({verdict})")
        rest = r.get("notes", {}).get("resting_pss_mb") or []  # one per run
        if rest:
            verdict = "met" if max(rest) <= 700 else "NOT met"
            out.append(f"- resting memory of the whole process tree <= 700 MB PSS: {max(rest):.0f} MB "
                       f"({verdict})")
    lazy, explicit = _ok(results, "parquet_lazy", "mars"), _ok(results, "parquet_read", "mars")
    if lazy and explicit:
        out.append(f"- lazy column selection costs {lazy['median_s'] / explicit['median_s']:.2f}x the "
                   "explicit columns= read (goal: 1x)")
    seed = _ok(results, "seed", "mars")
    if seed:
        verdict = "met" if seed["median_s"] <= 0.25 else "NOT met"
        out.append(f"- seed example <= 0.25 s warm: {seed['median_s']:.3f} s ({verdict})")
    for w in ("seed", "elementwise", "matmul", "groupby", "groupby_agg", "parquet_write", "parquet_read", "parquet_lazy", "csv_read"):
        dm = d_all.get((w, "mars"))
        if dm and "vs_best_dask" in dm:
            faster = "faster" if dm["vs_best_dask"] < 1 else "slower"
            out.append(f"- {w}: mars_on_ray {dm['vs_best_dask']:.2f}x the best Dask ({faster}); "
                       f"{dm.get('vs_numpy', float('nan')):.2f}x NumPy/pandas")
    return out or ["- nothing measured"]
