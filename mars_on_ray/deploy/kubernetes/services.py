"""Start the mars_on_ray services on a Ray head once Ray answers (the head pod's postStart hook).

    python -m mars_on_ray.deploy.kubernetes.services [--address ADDR] [--timeout 600]
"""
from __future__ import annotations

import argparse
import sys
import time


def start_services(address: str | None = None, timeout: float = 600, interval: float = 2) -> None:
    """Connect to the Ray at ``address`` (``RAY_ADDRESS`` / the local head), retrying until
    ``timeout``, and start the supervisor actor; it is detached, so it outlives this process."""
    import ray

    from ...services.registry import ensure_services

    deadline = time.monotonic() + timeout
    while True:
        try:
            ray.init(address=address or "auto", log_to_driver=False)
            break
        except (ConnectionError, RuntimeError) as exc:
            if time.monotonic() > deadline:
                raise TimeoutError(f"Ray did not answer within {timeout} s: {exc}") from exc
            time.sleep(interval)
    try:
        ensure_services()
        print("mars_on_ray services running", flush=True)
    finally:
        ray.shutdown()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=None, help="Ray address (default: RAY_ADDRESS or local)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for Ray")
    args = parser.parse_args(argv)
    start_services(args.address, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
