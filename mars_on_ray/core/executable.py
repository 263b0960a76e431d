"""Mars' ``ExecutableTuple``: a tuple of lazy results executed and fetched together."""
from __future__ import annotations

from .user import Tileable

__all__ = ["ExecutableTuple"]


class ExecutableTuple(tuple):
    """A tuple whose lazy members run as one task (shared work computed once); other members
    are plain values and pass through."""

    def _lazy(self) -> list:
        return [x for x in self if isinstance(x, Tileable)]

    def execute(self, session=None, **kwargs) -> "ExecutableTuple":
        """Execute every lazy member in one task; returns the tuple itself."""
        from .. import session as session_mod

        lazy = self._lazy()
        if lazy:
            session_mod.execute(*lazy, session=session, **kwargs)
        return self

    def fetch(self, session=None) -> list:
        """The members' values (lazy ones executed first if needed), in order."""
        from .. import session as session_mod

        lazy = self._lazy()
        values = iter(session_mod.fetch(*lazy, session=session) if len(lazy) > 1 else
                      [session_mod.fetch(*lazy, session=session)] if lazy else [])
        return [next(values) if isinstance(x, Tileable) else x for x in self]

    def __repr__(self) -> str:
        return f"ExecutableTuple{tuple.__repr__(self)}"
