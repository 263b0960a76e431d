"""``mars-on-ray map``: kubeface-run's command line over ``mr.map``.

    mars-on-ray map --expression 'value**2' --generator-expression 'range(10)' \\
        --max-simultaneous 10 --out-csv result.csv [--checkpoint DIR --job-name NAME]

Each input ``value`` of the generator expression gives one row of the CSV (``value``,
``result``), in input order (``--unordered``: as tasks finish). Works the same under ``ray job submit -- mars-on-ray map ...``
(``ray.init()`` joins the job's cluster).
"""
from __future__ import annotations

import argparse
import csv
import importlib
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "map", help="run a Python expression over many inputs as Ray tasks (resumable)",
        description="Evaluate EXPRESSION for every `value` of GENERATOR_EXPRESSION with mr.map.")
    p.add_argument("--expression", required=True,
                   help="Python expression of `value`, run once per input (e.g. 'value**2')")
    p.add_argument("--generator-expression", required=True,
                   help="Python expression giving the inputs (e.g. 'range(10)')")
    p.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                   help="import MODULE for both expressions (repeatable; 'numpy as np' works)")
    p.add_argument("--out-csv", help="write value,result rows here (default: print them)")
    p.add_argument("--max-simultaneous", type=int, default=None)
    p.add_argument("--num-cpus", type=float, default=1)
    p.add_argument("--num-gpus", type=float, default=0)
    p.add_argument("--memory", default=None, help="memory a task reserves, e.g. 500m, 2g")
    p.add_argument("--retries", type=int, default=2)
    p.add_argument("--checkpoint", default=None, help="folder or fsspec URL keeping results")
    p.add_argument("--job-name", default=None, help="the job's name in the checkpoint")
    p.add_argument("--no-speculation", action="store_true", help="never re-submit stragglers")
    p.add_argument("--unordered", action="store_true", help="write rows as tasks finish")
    p.add_argument("--address", default=None, help="Ray address (default: RAY_ADDRESS or local)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.set_defaults(func=run)


def _namespace(imports: list[str]) -> dict:
    namespace: dict = {}
    for spec in imports:
        name, _, alias = spec.partition(" as ")
        module = importlib.import_module(name.strip())
        namespace[(alias or name).strip().split(".")[0]] = (
            module if alias else importlib.import_module(name.strip().split(".")[0]))
    return namespace


class _Expression:
    """``(value, expression)`` with ``value`` bound (picklable: compiled where it runs); the
    value comes back with its result, so rows need no memory of the inputs."""

    def __init__(self, source: str, imports: list[str]):
        compile(source, "<expression>", "eval")  # a syntax error here, not in every task
        self.source, self.imports = source, imports
        self.__qualname__ = source

    def __call__(self, value):
        code = getattr(self, "_code", None)
        if code is None:
            code = self._code = compile(self.source, "<expression>", "eval")
            self._namespace = _namespace(self.imports)
        return value, eval(code, self._namespace, {"value": value})

    def __getstate__(self):
        return {"source": self.source, "imports": self.imports, "__qualname__": self.__qualname__}


def run(args) -> int:
    import ray

    from ..remote import map as mr_map

    try:
        func = _Expression(args.expression, args.imports)
        inputs = eval(compile(args.generator_expression, "<generator-expression>", "eval"),
                      _namespace(args.imports))
    except Exception as exc:
        print(f"mars-on-ray map: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.checkpoint and not args.job_name:
        print("mars-on-ray map: --checkpoint needs --job-name", file=sys.stderr)
        return 2
    started = False
    if not ray.is_initialized():
        ray.init(address=args.address, log_to_driver=True)
        started = True
    results = mr_map(func, inputs, max_simultaneous=args.max_simultaneous,
                     num_cpus=args.num_cpus, num_gpus=args.num_gpus, memory=args.memory,
                     retries=args.retries, checkpoint=args.checkpoint, job_name=args.job_name,
                     speculation=not args.no_speculation, ordered=not args.unordered,
                     show_progress=args.progress)
    out = open(args.out_csv, "w", newline="") if args.out_csv else sys.stdout
    try:
        writer = csv.writer(out)
        writer.writerow(["value", "result"])
        for value, result in results:
            writer.writerow([value, result])
    except Exception as exc:
        print(f"mars-on-ray map: {type(exc).__name__}: {exc}", file=sys.stderr)
        for note in getattr(exc, "__notes__", [])[:1]:
            print(note, file=sys.stderr)
        return 1
    finally:
        results.close()
        if out is not sys.stdout:
            out.close()
        if started:
            ray.shutdown()
    return 0
