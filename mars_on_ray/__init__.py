"""mars_on_ray: Mars (distributed NumPy, pandas, scikit-learn) as a plugin for Ray."""
from .config import options
from .ray_settings import apply_defaults as _apply_ray_defaults

_apply_ray_defaults()  # before any Ray this process starts (see ray_settings.py)

__all__ = ["ExecutableTuple", "Session", "execute", "explain", "fetch", "get_default_session", "map",
           "new_session", "options", "spawn"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # The client API loads on first use, so the service actors, which import this package,
    # do not pay for NumPy/pandas/session imports they never use.
    if name == "explain":
        from .core.explain import explain

        return explain
    if name in ("map", "spawn"):
        from . import remote

        return getattr(remote, name)
    if name == "ExecutableTuple":
        from .core.executable import ExecutableTuple

        return ExecutableTuple
    if name in __all__:
        from . import session

        return getattr(session, name)
    raise AttributeError(f"module 'mars_on_ray' has no attribute {name!r}")
