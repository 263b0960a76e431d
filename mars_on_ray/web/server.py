"""The dashboard's HTTP server (aiohttp, which ``ray[default]`` already installs).

Runs on the event loop of the process that starts it: the supervisor actor (WebService), so
handlers reach the services by plain awaits. Binds 127.0.0.1 unless told otherwise; bound to
any other address it refuses to start without a token, which every ``/api/`` call must then
carry (``Authorization: Bearer <token>``). Pages are static files shipped in the package; they
hold no data and ask for the token once. Only GET and HEAD are served: no request body is read.
"""
from __future__ import annotations

import hmac
import ipaddress
import socket
from importlib import resources

from aiohttp import web

from .api import Api, ray_address

STATIC = resources.files(__package__) / "static"
PAGES = {"/": "index.html", "/task/{task_id}": "task.html", "/worker/{node_id}": "worker.html"}


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _node_ip() -> str:
    try:
        import ray

        return ray.util.get_node_ip_address()
    except Exception:
        return socket.gethostbyname(socket.gethostname())


def request_token(request: web.Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[len("Bearer "):].strip()
    return request.headers.get("X-Mars-Token") or request.query.get("token")


class WebServer:
    """One dashboard listener: ``await start()``, ``url``, ``await stop()``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 advertise: str | None = None):
        if not is_loopback(host) and not token:
            raise ValueError(f"the dashboard binds {host}, reachable from other hosts: "
                             "give it a token (mars-on-ray web --token, or MARS_ON_RAY_WEB_TOKEN)")
        self.host, self.port, self.token = host, port, token
        self.advertise = advertise
        self.ray_address = ray_address()
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        host = self.advertise or (_node_ip() if self.host in ("0.0.0.0", "::", "") else self.host)
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._read_only, self._check_token],
                              client_max_size=1024)
        app.add_routes(Api(self).routes())
        for path, page in PAGES.items():
            app.router.add_get(path, self._page(page))
        app.router.add_get("/static/{name}", self._static)
        return app

    async def start(self) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _read_only(self, request: web.Request, handler):
        if request.method not in ("GET", "HEAD"):
            # refused before any body is read: the dashboard never takes code, pickles or data
            return web.json_response({"error": "the dashboard is read-only"}, status=405,
                                     headers={"Allow": "GET, HEAD"})
        return await handler(request)

    @web.middleware
    async def _check_token(self, request: web.Request, handler):
        if self.token and request.path.startswith("/api/"):
            given = request_token(request) or ""
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return web.json_response({"error": "a valid token is required"}, status=401,
                                         headers={"WWW-Authenticate": "Bearer"})
        response = await handler(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @staticmethod
    def _page(name: str):
        async def handler(request: web.Request) -> web.Response:
            return web.Response(body=(STATIC / name).read_bytes(), content_type="text/html",
                                headers={"Cache-Control": "no-store"})
        return handler

    @staticmethod
    async def _static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        types = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
        suffix = name[name.rfind("."):] if "." in name else ""
        if "/" in name or ".." in name or suffix not in types or not (STATIC / name).is_file():
            raise web.HTTPNotFound()
        return web.Response(body=(STATIC / name).read_bytes(), content_type=types[suffix])
