"""The scikit-learn API on chunked data (``mars_on_ray.learn.<submodule>``).

Submodules load on first access (``mars_on_ray.learn.metrics``), so importing the package
stays cheap and a new submodule needs no edit here."""
import importlib


def __getattr__(name):
    if name.startswith("_"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
