"""Optional libraries: import them, or say which extra of mars_on_ray installs them."""
from __future__ import annotations

import importlib
from types import ModuleType


def missing_message(module: str, extra: str) -> str:
    return (f"this feature needs the optional library {module!r}, which is not installed; "
            f"install it with: pip install 'mars_on_ray[{extra}]'")


def require(module: str, extra: str) -> ModuleType:
    """``module`` imported, or an ImportError naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(missing_message(module, extra)) from exc


def optional(module: str) -> ModuleType | None:
    """``module`` imported, or None when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def unavailable(name: str, module: str, extra: str):
    """A stand-in for ``name`` (a class or function) that raises the extra's ImportError
    when called, so ``from ... import name`` works and using it explains what is missing."""

    def stand_in(*args, **kwargs):
        raise ImportError(missing_message(module, extra))

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__doc__ = f"Needs {module!r}: pip install 'mars_on_ray[{extra}]'."
    return stand_in
