"""WebService: runs the dashboard's HTTP server (``mars_on_ray.web``) inside the supervisor."""
from __future__ import annotations

from .registry import Service


class WebService(Service):
    def __init__(self):
        self._server = None

    async def start(self, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                    advertise: str | None = None) -> str:
        """Serve the dashboard (replacing a listener with other settings); returns its URL.
        A host other than loopback needs a ``token``."""
        from ..web.server import WebServer

        server = self._server
        wanted = (host, port, token, advertise)
        if server is not None and (server.host, server.port if port else 0, server.token,
                                   server.advertise) == (host, port, token, advertise):
            return server.url
        new = WebServer(*wanted)  # raises for an exposed host without token, before stopping
        if server is not None:
            await server.stop()
            self._server = None
        url = await new.start()
        self._server = new
        await self.service("cluster").set_web_address.remote(url)
        return url

    async def stop(self) -> None:
        if self._server is not None:
            await self._server.stop()
            self._server = None

    async def address(self) -> str | None:
        return None if self._server is None else self._server.url

    async def needs_token(self) -> bool:
        return self._server is not None and bool(self._server.token)
