"""A graph as the client sends it: pickled bytes, and the modules of the user's functions in it.

Functions are pickled by reference to their module (except ``__main__``'s), so the supervisor
must import that module to read the graph. When it cannot, Ray's own error says "No module
named ..." from inside the supervisor; here the error names the user's operations that use the
module and how to ship it.
"""
from __future__ import annotations

from ray import cloudpickle  # Ray's own: modules registered by value with it are honoured

from ..core.graph import FlatGraph, topo_order

#: modules every process of the cluster has: functions from them are never the user's problem
_EVERYWHERE = ("mars_on_ray", "numpy", "pandas", "builtins", "operator", "math", "functools",
               "scipy", "sklearn", "pyarrow", "ray", "_operator", "__main__")


def dumps(graph: FlatGraph) -> bytes:
    return cloudpickle.dumps(graph)


def user_modules(roots) -> dict[str, list[str]]:
    """Module name -> the operations (by name) holding a function defined in it."""
    found: dict[str, list[str]] = {}
    for node in topo_order(roots):
        for value in node.op.params.values():
            for func in _callables(value):
                module = getattr(func, "__module__", None) or ""
                if module and module.split(".")[0] not in _EVERYWHERE:
                    names = found.setdefault(module, [])
                    if node.op.name not in names:
                        names.append(node.op.name)
    return found


def _callables(value, depth: int = 0):
    if callable(value) and not isinstance(value, type):
        yield value
    elif isinstance(value, (tuple, list)) and depth < 2:
        for item in value:
            yield from _callables(item, depth + 1)
    elif isinstance(value, dict) and depth < 2:
        for item in value.values():
            yield from _callables(item, depth + 1)


def loads(payload: bytes, modules: dict[str, list[str]] | None = None) -> FlatGraph:
    """The graph, or a ModuleNotFoundError naming the operations whose functions need a module
    this process cannot import."""
    try:
        return cloudpickle.loads(payload)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        ops = [op for module, names in (modules or {}).items()
               if module == missing or module.startswith(missing + ".") for op in names]
        used_by = f" used by {', '.join(ops)}" if ops else ""
        error = ModuleNotFoundError(
            f"the cluster cannot import module {missing!r}{used_by}: functions are sent by "
            f"reference to their module. Make it importable on every node (install it, or "
            f"ray.init(runtime_env={{'py_modules': [...]}})), or send it by value: "
            f"ray.cloudpickle.register_pickle_by_value({missing})", name=missing)
        raise error from None
