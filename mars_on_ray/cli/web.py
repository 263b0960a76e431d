"""``mars-on-ray web``: serve the dashboard of a running cluster (Mars' ``mars-web``).

The server runs inside the cluster's supervisor actor (on the head node); this command attaches
to the cluster, starts it with the given bind host, port and token, prints the URL a client
passes to ``mr.new_session(url)``, and stops it on SIGTERM / Ctrl-C.
"""
from __future__ import annotations

import logging
import logging.config
import os
import secrets
import signal
import sys
import threading

from ..web.client import TOKEN_ENV


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "web", help="serve the dashboard and the JSON API of a running cluster",
        description="Serve the dashboard (cluster, sessions, tasks, workers) and its JSON API "
                    "under /api/, from the cluster's supervisor actor. Binds 127.0.0.1 unless -H "
                    "says otherwise; any other address requires a token (given with --token or "
                    f"{TOKEN_ENV}, else one is generated and printed).")
    parser.add_argument("-H", "--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1; 0.0.0.0 exposes it, with a token)")
    parser.add_argument("-p", "--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("-a", "--advertise-address", default=None,
                        help="host name or IP put in the printed URL (default: the bind host, "
                             "or the head node's IP when binding every address)")
    parser.add_argument("-s", "--supervisor", "--endpoint", dest="supervisor", default=None,
                        help="the cluster's Ray address, host:port of the head (comma-separated "
                             "endpoints: the first is used; default: RAY_ADDRESS or the local cluster)")
    parser.add_argument("--token", default=None,
                        help=f"token every API call must carry (default: {TOKEN_ENV})")
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    parser.add_argument("--log-format", default=None, help="logging format")
    parser.add_argument("--log-conf", default=None, help="a logging configuration file (fileConfig)")
    parser.set_defaults(func=run)


def _configure_logging(args) -> None:
    if args.log_conf:
        logging.config.fileConfig(args.log_conf, disable_existing_loggers=False)
        return
    logging.basicConfig(level=args.log_level.upper(), format=args.log_format or logging.BASIC_FORMAT)


def run(args) -> int:
    from ..web.server import is_loopback

    _configure_logging(args)
    token = args.token or os.environ.get(TOKEN_ENV) or None
    generated = False
    if not is_loopback(args.host) and not token:
        token, generated = secrets.token_urlsafe(24), True
    if not 0 <= args.port <= 65535:
        print(f"mars-on-ray web: port {args.port} is not a port number", file=sys.stderr)
        return 2

    import ray

    from ..services import ensure_services, get_service

    address = (args.supervisor or os.environ.get("RAY_ADDRESS") or "auto").split(",")[0].strip()
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except Exception as exc:
        print(f"mars-on-ray web: cannot attach to the Ray cluster at {address}: {exc}", file=sys.stderr)
        return 1
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)}
    web = get_service("web")
    try:
        ensure_services()
        try:
            url = ray.get(web.start.remote(args.host, args.port, token, args.advertise_address))
        except Exception as exc:
            print(f"mars-on-ray web: the dashboard did not start: {exc}", file=sys.stderr)
            return 1
        print(f"Dashboard: {url}" + (f"/#token={token}" if generated else ""), flush=True)
        print(f"Connect a client: mr.new_session({url!r}" + (", token=...)" if token else ")"), flush=True)
        if generated:
            print(f"Token (generated, also accepted from {TOKEN_ENV}): {token}", flush=True)
        while not stop.wait(1.0):
            pass
        try:
            ray.get(web.stop.remote(), timeout=10)
        except Exception:  # the cluster is already gone
            pass
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        ray.shutdown()
