"""``mars-on-ray kube convert marsjob.yaml``: a KubeDL MarsJob as a KubeRay RayJob + Ingress."""
from __future__ import annotations

import sys


def register(subparsers) -> None:
    kube = subparsers.add_parser("kube", help="Kubernetes (KubeRay) helpers")
    commands = kube.add_subparsers(dest="kube_command", metavar="COMMAND", required=True)
    convert = commands.add_parser(
        "convert", help="turn a KubeDL MarsJob into a KubeRay RayJob (+ an Ingress for webHost)",
        description="Reads a KubeDL MarsJob and prints a RayJob (and, with webHost, an Ingress) with "
                    "the same meaning: Scheduler -> Ray head, WebService -> the head's dashboard, "
                    "Worker -> a worker group, memoryTuningPolicy -> object store / spill dirs, "
                    "cleanPodPolicy -> shutdownAfterJobFinishes. What has no Ray meaning is said "
                    "on stderr.")
    convert.add_argument("marsjob", help="MarsJob YAML file ('-' for stdin)")
    convert.add_argument("-o", "--output", help="write the YAML here instead of stdout")
    convert.add_argument("--entrypoint", help="command the RayJob runs (default: an interactive "
                         "RayJob whose cluster waits for sessions, as a MarsJob's does)")
    convert.set_defaults(func=_convert)


def _convert(args) -> int:
    import yaml

    from ..deploy.kubernetes.convert import convert_marsjob

    try:
        if args.marsjob == "-":
            docs = list(yaml.safe_load_all(sys.stdin))
        else:
            with open(args.marsjob) as f:
                docs = list(yaml.safe_load_all(f))
        out, notices = [], []
        for doc in docs:
            if doc:
                objs, said = convert_marsjob(doc, entrypoint=args.entrypoint)
                out += objs
                notices += said
        if not out:
            raise ValueError(f"{args.marsjob} holds no MarsJob")
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(f"mars-on-ray kube convert: {exc}", file=sys.stderr)
        return 2
    for notice in notices:
        print(f"notice: {notice}", file=sys.stderr)
    text = yaml.safe_dump_all(out, sort_keys=False)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
