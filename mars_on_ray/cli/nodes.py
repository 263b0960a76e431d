"""``mars-on-ray supervisor`` (alias ``scheduler``) and ``mars-on-ray worker``: Mars' node
commands, each running one Ray node (``ray start --block``) until SIGTERM / Ctrl-C."""
from __future__ import annotations

import argparse
import logging.config
import re
import signal
import sys
import threading

from ..deploy.head import start_services_beside, wait_for_job_api
from ..deploy.local import DeployError, NodeOptions, plan_node
from ..deploy.process import NodeStartError, RayNode

_START_ATTEMPTS = 5  # Ray start-up time-outs are retried (see _run)
_SUPERVISOR_MAP = """\
how Mars' options map onto `ray start` (this node is the Ray head):
  -a ADDR          --node-ip-address (the address other nodes and clients use)
  -H HOST          --dashboard-host (the job API / dashboard bind host); also the node
                   address when -a is not given
  -p PORT          --port (the GCS port workers join with -s; default 6379)
  -s ENDPOINTS     no Ray meaning: a Ray cluster has one head (notice)
  --nproc N        --num-cpus N: CPUs the head offers to chunks (default 0: as in Mars, the
                   supervisor runs the services, workers run the chunks)
  --log-level      `ray --logging-level` and RAY_BACKEND_LOG_LEVEL (raylet, GCS)
  --log-format     `ray --logging-format`
  --log-conf FILE  this command's own logging (Ray's processes log under the session dir)
  --cache-mem, --phy-mem, --min-mem, --spill-dirs, --plasma-dir: as for workers
The services (one detached supervisor actor) start on the head; the dashboard (job API)
listens on --dashboard-port, the Ray client server (ray://) on --ray-client-port."""

_WORKER_MAP = """\
how Mars' options map onto `ray start --address` (this node joins the head):
  -s ENDPOINTS     --address: the supervisor's host:port (the first of a comma-separated
                   list; a Ray cluster has one head); checked reachable before starting
  -a ADDR          --node-ip-address
  -H HOST          no separate Ray meaning: services bind on the node address (notice)
  -p PORT          --node-manager-port (the raylet's port)
  --cpu-procs N    --num-cpus N (chunks run as Ray tasks, one CPU each by default)
  --net-procs N    no Ray meaning: Ray's object manager moves data (notice)
  --cuda-device I  --num-gpus (count) + CUDA_VISIBLE_DEVICES=I (comma-separated indices)
  --cache-mem S    --object-store-memory (chunk storage: 4g, 512m, 30%%)
  --phy-mem S      the memory monitor's threshold (share of this host's memory)
  --min-mem S      refuse to start unless this much memory is available
  --spill-dirs D   object spilling directories (several: ':'-separated or repeated)
  --plasma-dir D   --plasma-directory (the object store's memory-mapped files)
  --log-level, --log-format, --log-conf: as for the supervisor"""


def register(subparsers) -> None:
    sup = subparsers.add_parser(
        "supervisor", aliases=["scheduler"], help="start the Ray head running the services",
        description="Start a Mars supervisor: the Ray head node with the mars_on_ray services.",
        epilog=_SUPERVISOR_MAP, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(sup)
    sup.add_argument("--nproc", type=int, help="CPUs the head offers to chunks (default 0)")
    sup.add_argument("--dashboard-port", type=int, default=8265,
                     help="Ray dashboard / job API port (default 8265)")
    sup.add_argument("--ray-client-port", type=int, default=10001,
                     help="Ray client server port for ray:// addresses (default 10001)")
    sup.set_defaults(func=_run, role="supervisor")

    worker = subparsers.add_parser(
        "worker", help="start a Ray worker node joining a supervisor",
        description="Start a Mars worker: a Ray node joining the supervisor's cluster.",
        epilog=_WORKER_MAP, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(worker)
    worker.add_argument("--cpu-procs", type=int, help="CPUs for chunks (ray start --num-cpus)")
    worker.add_argument("--net-procs", type=int, help="accepted; no Ray meaning")
    worker.add_argument("--cuda-device", "--cuda-devices", dest="cuda_devices",
                        help="GPU indices, comma-separated (--num-gpus, CUDA_VISIBLE_DEVICES)")
    worker.set_defaults(func=_run, role="worker")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-a", "--advertise-address", dest="advertise",
                        help="address other nodes and clients reach this node at")
    parser.add_argument("-H", "--host", help="host to bind")
    parser.add_argument("-p", "--port", type=int, help="port (see the mapping below)")
    parser.add_argument("-s", "--supervisors", help="supervisor endpoints, comma-separated")
    parser.add_argument("--log-level", help="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    parser.add_argument("--log-format", help="a Python logging format string")
    parser.add_argument("--log-conf", help="a logging configuration file (fileConfig)")
    parser.add_argument("--phy-mem", help="memory the node may use: 16g, 90%%")
    parser.add_argument("--cache-mem", help="object store size: 4g, 512m, 30%%")
    parser.add_argument("--min-mem", help="memory that must be available to start")
    parser.add_argument("--spill-dir", "--spill-dirs", dest="spill_dirs", action="append",
                        default=[], help="spill directories, ':'-separated (may repeat)")
    parser.add_argument("--plasma-dir", help="object store directory (memory-mapped files)")
    parser.add_argument("--temp-dir", help="Ray's temporary/session directory for this node")
    parser.add_argument("--quiet", action="store_true", help="do not echo Ray's output")


def _options(args) -> NodeOptions:
    extra = {"nproc": args.nproc, "dashboard_port": args.dashboard_port,
             "client_port": args.ray_client_port} if args.role == "supervisor" else {
        "cpu_procs": args.cpu_procs, "net_procs": args.net_procs,
        "cuda_devices": args.cuda_devices}
    return NodeOptions(
        role=args.role, advertise=args.advertise, host=args.host, port=args.port,
        supervisors=args.supervisors, log_level=args.log_level, log_format=args.log_format,
        log_conf=args.log_conf, phy_mem=args.phy_mem, cache_mem=args.cache_mem,
        min_mem=args.min_mem, spill_dirs=args.spill_dirs, plasma_dir=args.plasma_dir,
        temp_dir=args.temp_dir, **extra)


def _say(text: str) -> None:
    print(text, flush=True)


def _run(args) -> int:
    role = args.role
    try:
        plan = plan_node(_options(args))
    except DeployError as exc:
        print(f"mars-on-ray {role}: {exc}", file=sys.stderr, flush=True)
        return 2
    if args.log_conf:
        logging.config.fileConfig(args.log_conf, disable_existing_loggers=False)
    for notice in plan.notices:
        print(f"notice: {notice}", file=sys.stderr, flush=True)

    stop = threading.Event()
    _on_signals(stop)
    _say(f"mars-on-ray {role}: starting the Ray node: {' '.join(plan.command[1:])}")
    for attempt in range(_START_ATTEMPTS):
        node = RayNode(plan.command, plan.env, echo=None if args.quiet else _say)
        try:
            node.start()
            if not stop.is_set():
                _announce(args, plan, node)
            break
        except NodeStartError as exc:
            node.stop()
            # Ray's fixed start-up waits (raylet registration, agent port files, the client
            # server's node lookup) are missed on an overloaded host, and `ray start --block`
            # then takes the whole node down; it is fully stopped, so starting again is safe
            if _missed_a_wait(node) and attempt + 1 < _START_ATTEMPTS and not stop.is_set():
                _say(f"mars-on-ray {role}: Ray timed out during start-up; starting again")
                continue
            print(f"mars-on-ray {role}: {exc}", file=sys.stderr, flush=True)
            return 1
        except Exception as exc:  # the node is up but not usable: take it down again
            print(f"mars-on-ray {role}: {type(exc).__name__}: {exc}; stopping the node",
                  file=sys.stderr, flush=True)
            node.stop()
            return 1
    while not stop.is_set() and node.alive():
        stop.wait(0.5)
    died = not stop.is_set()
    _say(f"mars-on-ray {role}: stopping the Ray node")
    node.stop()
    if died:
        print(f"mars-on-ray {role}: the Ray node exited on its own", file=sys.stderr, flush=True)
        return 1
    _say(f"mars-on-ray {role}: stopped")
    return 0


def _missed_a_wait(node: RayNode) -> bool:
    text = "\n".join(node.output).lower()
    return "timed out" in text or "exited unexpectedly" in text


def _on_signals(stop: threading.Event) -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())


def _announce(args, plan, node: RayNode) -> None:
    """Finish a node's start (the supervisor starts the services) and print its addresses."""
    if args.role == "worker":
        _say(f"mars-on-ray worker: joined {plan.gcs_address}; clients connect with "
             f"ray.init(address='{plan.gcs_address}') + mr.new_session()")
        _say("MARS_ON_RAY_READY worker")
        return
    gcs = _reported_address(node) or plan.gcs_address
    host = gcs.rsplit(":", 1)[0]
    dashboard_host = "127.0.0.1" if args.host in (None, "0.0.0.0", "::") else args.host
    dashboard = f"http://{dashboard_host}:{args.dashboard_port}"
    tuning = {k: getattr(plan.tuning, k) for k in ("cache_mem", "spill_dirs", "phy_mem", "min_mem")
              if getattr(plan.tuning, k) not in (None, [])}
    start_services_beside(node, gcs, tuning)
    wait_for_job_api(dashboard, node=node)
    _say(f"mars-on-ray supervisor: the services run on the head {gcs}\n"
         f"  workers:  mars-on-ray worker -s {gcs}\n"
         f"  clients:  mr.new_session(address='ray://{host}:{args.ray_client_port}')  or  "
         f"ray.init(address='{gcs}'); mr.new_session()\n"
         f"  jobs:     ray job submit --address {dashboard} --working-dir DIR -- python SCRIPT")
    _say(f"MARS_ON_RAY_READY supervisor gcs={gcs} dashboard={dashboard} "
         f"client=ray://{host}:{args.ray_client_port}")


def _reported_address(node: RayNode) -> str | None:
    """The GCS address ``ray start`` printed (the real port when -p 0 picked one)."""
    for line in node.output:
        match = re.search(r"ray start --address='([^']+)'", line)
        if match:
            return match.group(1)
    return None
