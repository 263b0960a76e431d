"""Mars' node options (supervisor / worker) checked and turned into a ``ray start`` command.

``plan_node(NodeOptions(...))`` validates every value before anything starts (a bad value
raises ``DeployError`` with a message naming the option) and returns the command, its
environment and one notice per option that has no Ray meaning. ``RayNode`` (``process.py``)
runs that command.
"""
from __future__ import annotations

import logging
import os
import socket
import sys
import tempfile
from dataclasses import dataclass, field

from ..ray_settings import RAY_NODE_ENV
from ..storage.tuning import WorkerTuning, parse_size

#: Mars' log levels -> Ray's Python logging level and its C++ (raylet, GCS) log level
_LOG_LEVELS = {"debug": "debug", "info": "info", "warning": "warning", "warn": "warning",
               "error": "error", "critical": "fatal", "fatal": "fatal"}


_AGENT_PORT = 52365


class DeployError(ValueError):
    """An option value that cannot start a node; nothing was started."""


@dataclass
class NodeOptions:
    """Mars' command-line options of one node; ``role`` is "supervisor" or "worker"."""

    role: str
    advertise: str | None = None  # -a
    host: str | None = None  # -H
    port: int | None = None  # -p
    supervisors: str | None = None  # -s, comma-separated
    log_level: str | None = None
    log_format: str | None = None
    log_conf: str | None = None
    nproc: int | None = None  # supervisor
    cpu_procs: int | None = None  # worker
    net_procs: int | None = None
    cuda_devices: str | None = None
    phy_mem: str | None = None
    cache_mem: str | None = None
    min_mem: str | None = None
    spill_dirs: list[str] = field(default_factory=list)
    plasma_dir: str | None = None
    # Ray's own ports and directories (no Mars counterpart)
    dashboard_port: int = 8265
    client_port: int = 10001
    temp_dir: str | None = None


@dataclass
class NodePlan:
    """What to run: the ``ray start`` command, extra environment, notices, the GCS address."""

    command: list[str]
    env: dict[str, str]
    notices: list[str]
    gcs_address: str | None  # to join (worker) or the head's own (supervisor, when known)
    tuning: WorkerTuning


def plan_node(opts: NodeOptions) -> NodePlan:
    """Check ``opts`` and build the ``ray start --block`` command for this node."""
    if opts.role not in ("supervisor", "worker"):
        raise DeployError(f"unknown node role {opts.role!r}")
    tuning = _tuning(opts)  # sizes and directories first: no network wait for a typo
    notices: list[str] = []
    env: dict[str, str] = {}
    top: list[str] = []  # options of the `ray` command itself
    # the dashboard agent's HTTP port is fixed (52365) by default: a second node on this host
    # would collide with the first
    args = ["--block", "--disable-usage-stats",
            f"--dashboard-agent-listen-port={_free_port(_AGENT_PORT)}"]

    node_ip = opts.advertise or (opts.host if opts.host not in (None, "0.0.0.0", "::") else None)
    if node_ip:
        _check_host(node_ip, "-a" if opts.advertise else "-H")
        args.append(f"--node-ip-address={node_ip}")
    for name, port in (("-p", opts.port), ("--dashboard-port", opts.dashboard_port),
                       ("--ray-client-port", opts.client_port)):
        if port is not None and not 0 <= port <= 65535:
            raise DeployError(f"{name} {port}: a port is a number from 0 to 65535")

    gcs = None
    if opts.role == "supervisor":
        if opts.supervisors:
            notices.append("-s: a Ray cluster has one head; this supervisor is it, "
                           f"other supervisors ({opts.supervisors}) are not joined")
        port = 6379 if opts.port is None else opts.port
        args += ["--head", f"--port={port}", "--include-dashboard=true",
                 f"--dashboard-port={opts.dashboard_port}",
                 f"--ray-client-server-port={opts.client_port}"]
        args.append(f"--dashboard-host={opts.host or '127.0.0.1'}")
        nproc = _non_negative(opts.nproc, "--nproc")
        args.append(f"--num-cpus={0 if nproc is None else nproc}")
        gcs = f"{node_ip or '127.0.0.1'}:{port}" if port else None
        for name in ("cpu_procs", "net_procs", "cuda_devices"):
            if getattr(opts, name) is not None:
                raise DeployError(f"--{name.replace('_', '-')} is a worker option")
    else:
        if not opts.supervisors:
            raise DeployError("-s: a worker needs the supervisor's address (host:port)")
        endpoints = [e.strip() for e in opts.supervisors.split(",") if e.strip()]
        gcs = endpoints[0]
        if len(endpoints) > 1:
            notices.append(f"-s: a Ray cluster has one head; joining {gcs}, "
                           f"ignoring {', '.join(endpoints[1:])}")
        args.append(f"--address={gcs}")
        if opts.port is not None:
            args.append(f"--node-manager-port={opts.port}")
        if opts.host and opts.advertise:
            notices.append("-H: Ray binds a worker's services on its node address (-a)")
        cpus = _non_negative(opts.cpu_procs, "--cpu-procs")
        if cpus is not None:
            args.append(f"--num-cpus={cpus}")
        if _non_negative(opts.net_procs, "--net-procs") is not None:
            notices.append("--net-procs: Ray's object manager moves chunk data between nodes; "
                           "ignored")
        if opts.cuda_devices is not None:
            devices = _cuda_devices(opts.cuda_devices)
            args.append(f"--num-gpus={len(devices)}")
            env["CUDA_VISIBLE_DEVICES"] = ",".join(devices)
        if opts.nproc is not None:
            raise DeployError("--nproc is a supervisor option (workers take --cpu-procs)")
        if opts.spill_dirs:
            notices.append("--spill-dirs: Ray spills on every node to the directories given to "
                           "the head (the supervisor); a worker's own are checked, not used")

    tuning_args, tuning_env = _tuning_ray_start(tuning, head=opts.role == "supervisor")
    args += tuning_args
    env.update(tuning_env)
    if opts.plasma_dir:
        _check_writable(opts.plasma_dir, "--plasma-dir")
        args.append(f"--plasma-directory={opts.plasma_dir}")
    if opts.temp_dir:
        _check_writable(opts.temp_dir, "--temp-dir")
        args.append(f"--temp-dir={opts.temp_dir}")

    if opts.log_level is not None:
        level = _LOG_LEVELS.get(opts.log_level.lower())
        if level is None:
            raise DeployError(f"--log-level {opts.log_level!r}: use one of "
                              "DEBUG, INFO, WARNING, ERROR, CRITICAL")
        top.append(f"--logging-level={'critical' if level == 'fatal' else level}")
        env["RAY_BACKEND_LOG_LEVEL"] = level
    if opts.log_format is not None:
        _check_log_format(opts.log_format)
        top.append(f"--logging-format={opts.log_format}")
    if opts.log_conf is not None:
        if not os.path.isfile(opts.log_conf):
            raise DeployError(f"--log-conf {opts.log_conf!r}: no such file")
        notices.append("--log-conf configures this command's own logging; Ray's processes "
                       "log to files under the node's session directory")
    if opts.role == "worker":
        _check_reachable(gcs)  # last: every local check is instant, this one may wait
    # on SIGTERM Ray drains the node for up to 30 s first; a stopped Mars node stops promptly
    env.setdefault("RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S",
                   os.environ.get("RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S", "5"))
    for name, value in RAY_NODE_ENV.items():  # see ray_settings.py (idle workers kept)
        env.setdefault(name, os.environ.get(name, value))
    command = [sys.executable, "-m", "ray.scripts.scripts", *top, "start", *args]
    return NodePlan(command, env, notices, gcs, tuning)


def _tuning(opts: NodeOptions) -> WorkerTuning:
    for name in ("cache_mem", "phy_mem", "min_mem"):
        value = getattr(opts, name)
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        try:
            size = parse_size(value)
        except ValueError as exc:
            raise DeployError(f"{flag} {value!r}: {exc}") from None
        if str(value).strip().endswith("%") and not 0 < float(str(value).strip()[:-1]) <= 100:
            raise DeployError(f"{flag} {value!r}: a share of memory is between 0% and 100%")
        if size <= 0:
            raise DeployError(f"{flag} {value!r}: must be more than 0 bytes")
    spill = []
    for path in opts.spill_dirs:
        spill += [p for p in path.split(":") if p]
    for path in spill:
        _check_writable(path, "--spill-dirs")
    try:  # the tuning's own checks: cache-mem above phy-mem, --min-mem above what is free...
        return WorkerTuning(opts.cache_mem, spill, opts.phy_mem, opts.min_mem)
    except (ValueError, MemoryError) as exc:
        raise DeployError(str(exc)) from None


def _tuning_ray_start(tuning: WorkerTuning, head: bool) -> tuple[list[str], dict[str, str]]:
    """``ray start`` arguments and environment of the tuning."""
    try:
        return list(tuning.ray_start_args(head=head)), dict(tuning.ray_start_env(head=head))
    except (ValueError, MemoryError) as exc:
        raise DeployError(str(exc)) from None


def _non_negative(value, flag: str) -> int | None:
    if value is not None and value < 0:
        raise DeployError(f"{flag} {value}: must be 0 or more")
    return value


def _cuda_devices(value: str) -> list[str]:
    devices = [d.strip() for d in value.split(",") if d.strip()]
    if not all(d.isdigit() for d in devices):
        raise DeployError(f"--cuda-device {value!r}: GPU indices, comma-separated (e.g. 0,1)")
    return devices


def _free_port(preferred: int) -> int:
    """``preferred`` if nothing listens there, else a port the OS picks."""
    for port in (preferred, 0):
        with socket.socket() as sock:
            try:
                sock.bind(("", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise DeployError("no free port for Ray's dashboard agent")


def _check_host(host: str, flag: str) -> None:
    try:
        socket.getaddrinfo(host, None)
    except OSError:
        raise DeployError(f"{flag} {host!r}: not a known host name or address") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise DeployError(f"-s {address!r}: a supervisor address is host:port")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise DeployError(f"-s {address}: the supervisor cannot be reached ({exc.strerror or exc})"
                          ) from None


def _check_writable(path: str, flag: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise DeployError(f"{flag} {path!r}: cannot write there ({exc.strerror or exc})") from None


def _check_log_format(fmt: str) -> None:
    record = logging.LogRecord("mars_on_ray", logging.INFO, __file__, 1, "message", None, None)
    try:
        logging.Formatter(fmt).format(record)
    except (ValueError, KeyError, TypeError) as exc:
        raise DeployError(f"--log-format {fmt!r}: not a logging format ({exc})") from None
