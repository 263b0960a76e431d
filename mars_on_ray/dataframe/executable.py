"""``md.ExecutableTuple`` (it lives in ``core.executable``: tensors and remote use it too)."""
from ..core.executable import ExecutableTuple

__all__ = ["ExecutableTuple"]
