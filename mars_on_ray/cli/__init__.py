"""The ``mars-on-ray`` command line (also ``python -m mars_on_ray``).

Every module in this package that defines ``register(subparsers)`` adds its commands: one module
a command family (``supervisor``/``worker``/``web`` nodes, ``map``, ``kube``), found at start-up,
so adding a command never edits this file. ``register`` adds a subparser and sets its
``func(args) -> int`` default (the exit code).
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mars-on-ray", description="Mars on Ray: run cluster nodes, the web dashboard, jobs.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "register"):
            module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
