"""A throwaway PostgreSQL server for tests, from Debian's binaries, on 127.0.0.1 and a free port.

``with PostgresServer() as server: server.url`` initialises a cluster in a temporary directory,
starts it and, on exit, stops it and removes the directory. initdb refuses to run as root, so
as root the server runs as the ``postgres`` user. ``unavailable()`` says why it cannot start
here (binaries or driver missing), for ``pytest.skip``.
"""
from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile


def bin_dir() -> str | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding initdb and pg_ctl."""
    found = [os.path.dirname(p) for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")
             if os.path.exists(os.path.join(os.path.dirname(p), "pg_ctl"))]
    version = lambda path: [int(x) for x in re.findall(r"\d+", path.split("/")[-2])]  # noqa: E731
    return max(found, key=version) if found else None


def _run_as() -> list[str]:
    """The command prefix that runs the server as an unprivileged user (root: ``postgres``)."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def unavailable() -> str | None:
    """Why no test server can start here, or None."""
    if bin_dir() is None:
        return "PostgreSQL server binaries not installed (apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install 'psycopg[binary]')"
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root without runuser: initdb refuses to run as root"
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run initdb as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One temporary PostgreSQL cluster; ``url`` connects as the trusted ``postgres`` user."""

    def __init__(self):
        self.bin = bin_dir()
        self.dir = self.port = None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*_run_as(), os.path.join(self.bin, tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode:
            log = os.path.join(self.dir, "server.log")
            tail = open(log).read()[-2000:] if os.path.exists(log) else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}): {done.stderr or done.stdout}\n{tail}")

    def start(self) -> "PostgresServer":
        self.dir = tempfile.mkdtemp(prefix="mars-pg-")
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        data = os.path.join(self.dir, "data")
        self._run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        self.port = _free_port()
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c full_page_writes=off -c synchronous_commit=off")
        self._run("pg_ctl", "-D", data, "-l", os.path.join(self.dir, "server.log"), "-o", options,
                  "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        if self.dir is None:
            return
        try:
            self._run("pg_ctl", "-D", os.path.join(self.dir, "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def __enter__(self) -> "PostgresServer":
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
