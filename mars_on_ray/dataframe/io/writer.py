"""What every writer shares: parts written in parallel, then one commit.

``df.to_xxx(...)`` is lazy, as in Mars: it returns a DataFrame node whose execution writes.
Each chunk of ``df`` is written as a *part* by its own subtask (fused with whatever computes
the chunk), into a staging place that no reader sees under the final name (a hidden
directory, a staging table). When every part is done, one *commit* subtask makes them final
(renames, one ``INSERT ... SELECT`` in a transaction). A failure before the commit leaves
nothing under the final name. The written node's value is an empty DataFrame with the
written columns and dtypes.
"""
from __future__ import annotations

from ...core.entity import ChunkData
from ...core.operand import Operand
from ..blockwise import chunk_shape, row_chunks, rows_grid
from ..core import new_frame


class Write(Operand):
    """Base of the writers. Subclasses implement ``write_part`` and ``commit`` (and
    ``prepare`` when parts need something made first, e.g. a staging table)."""

    _params = ("stage", "part", "n_parts", "written")
    stage = None
    part = None
    n_parts = None
    #: True when a ``prepare`` chunk must run before any part
    needs_prepare = False

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n = len(chunks)
        first = []
        if self.needs_prepare:
            first = [ChunkData(self.new(stage="prepare", n_parts=n), [], (0,), None, (0,))]
        parts = [ChunkData(self.new(stage="part", part=i, n_parts=n), [c, *first], (0,), None, (i,))
                 for i, c in enumerate(chunks)]
        commit = ChunkData(self.new(stage="commit", n_parts=n), parts, chunk_shape(out.meta, 0),
                           out.meta, (0, 0))
        return rows_grid([commit], out.meta)

    def execute(self, *values):
        if self.stage == "prepare":
            return self.prepare()
        if self.stage == "part":
            return self.write_part(values[0], self.part)
        self.commit(list(values))
        return self.written

    def check_distributable(self) -> None:
        from ...core.paths import check_shared

        check_shared(getattr(self, "fs", None), self.name)

    def abort(self) -> None:
        """Remove what the parts staged (the task failed before the commit)."""

    def prepare(self):  # pragma: no cover - only writers with needs_prepare
        raise NotImplementedError

    def write_part(self, frame, index: int):  # pragma: no cover - every writer implements it
        """Write one chunk to the staging place; return something small for ``commit``."""
        raise NotImplementedError

    def commit(self, parts: list) -> None:  # pragma: no cover - every writer implements it
        """Make the staged parts (what ``write_part`` returned, in order) final."""
        raise NotImplementedError


def write_node(op: Write, df):
    """The lazy write of ``df`` by ``op``; its value is an empty frame like what was written."""
    meta = df.data.meta.iloc[:0]
    op.written = meta
    return new_frame(op, [df], 0, meta)
