"""The client side of ``mr.new_session("http://host:port")``: ask the dashboard where Ray is."""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request

TOKEN_ENV = "MARS_ON_RAY_WEB_TOKEN"


def is_web_url(address) -> bool:
    return isinstance(address, str) and address.startswith(("http://", "https://"))


def split_url(url: str, token: str | None = None) -> tuple[str, str | None]:
    """(base URL, token): a token in the URL (``?token=`` or ``#token=``) is used when none is
    given, then the ``MARS_ON_RAY_WEB_TOKEN`` environment variable."""
    parts = urllib.parse.urlsplit(url)
    found = (urllib.parse.parse_qs(parts.query).get("token")
             or urllib.parse.parse_qs(parts.fragment).get("token") or [None])[0]
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    return base, token or found or os.environ.get(TOKEN_ENV) or None


def get_json(base: str, path: str, token: str | None, timeout: float = 30.0):
    request = urllib.request.Request(base + path, headers={"Accept": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            raise PermissionError(
                f"the dashboard at {base} needs its token: new_session(url, token=...) or the "
                f"{TOKEN_ENV} environment variable") from None
        raise ConnectionError(f"the dashboard at {base} answered {exc.code} for {path}") from None
    except urllib.error.URLError as exc:
        raise ConnectionError(f"cannot reach the dashboard at {base}: {exc.reason}") from None


def connect_info(url: str, token: str | None = None) -> dict:
    """``{"ray_address", "namespace", "web_url"}`` of the cluster behind the dashboard at ``url``."""
    base, token = split_url(url, token)
    info = get_json(base, "/api/connect", token)
    info["web_url"] = base
    return info
