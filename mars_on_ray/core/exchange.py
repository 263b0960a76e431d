"""The all-to-all step of a shuffle: every mapper's piece j goes to reducer j.

With m mappers and n reducers a direct exchange makes m * n pieces, each a Ray object: a
million for a thousand chunks, which costs more than the data. Past
``options.shuffle_direct_pieces`` pieces the
exchange runs in two rounds: each mapper sends its pieces in about sqrt(n) groups (one object
per group), and per group of about sqrt(m) consecutive mappers and group of reducers a
``Regroup`` concatenates, reducer by reducer, what those mappers sent (in mapper order). A
reducer then receives about sqrt(m) inputs instead of m, holding the same rows in the same
order: about 2 * m * sqrt(n) objects in all. Reducers must only concatenate their inputs in
order (shuffle reducers all do), never count them as mappers.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..config import options
from .entity import ChunkData
from .operand import Operand
from .shuffle import Pack, packing, split_by_codes
from .tokenize import tokenize

_UNKNOWN = (math.nan, math.nan)


class Packed(Operand):
    """A mapper (``inner``, whose outputs are reducer pieces) whose outputs go out ``group``
    reducers at a time: output J is a Pack of its rows for reducers J * group ... The mapper
    splits by ``shuffle.split_by_codes``, which makes the Packs itself (one take and a slice
    per group, not a piece per reducer); a mapper that does not is packed here."""

    _params = ("inner", "group")
    fusable = False

    def token(self) -> str:
        token = self.__dict__.get("_token")
        if token is None:
            token = self.__dict__["_token"] = tokenize("packed", self.inner.token(), self.group)
        return token

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return -(-self.inner.n_outputs // self.group)

    def execute(self, *values):
        reset = packing.set(self.group)
        try:
            out = self.inner.execute(*values)
        finally:
            packing.reset(reset)
        if isinstance(out, Pack):
            out = (out,)
        elif self.inner.n_outputs == 1 or not isinstance(out[0], Pack):
            pieces = (out,) if self.inner.n_outputs == 1 else out
            out = tuple(Pack((_concat(list(pieces[s:s + self.group])),
                              np.array([len(p) for p in pieces[s:s + self.group]])))
                        for s in range(0, len(pieces), self.group))
        return out if len(out) > 1 else out[0]


def _concat(pieces: list):
    parts = [p for p in pieces if len(p)] or pieces[:1]
    if len(parts) == 1:
        return parts[0]
    if isinstance(parts[0], pd.Index):
        return parts[0].append(parts[1:])
    return pd.concat(parts, axis=0)


class Regroup(Operand):
    """From several mappers' Packs for the same ``width`` reducers: per reducer, its rows
    from all of them in mapper order (one concatenation, one stable sort by reducer)."""

    _params = ("width",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.width

    def execute(self, *packs):
        used = [p for p in packs if len(p[0])] or list(packs[:1])
        rows = _concat([p[0] for p in used])
        codes = np.concatenate([np.repeat(np.arange(self.width), p[1]) for p in used])
        out = split_by_codes(rows, codes, self.width)
        return out if self.width > 1 else out[0]


def exchange(mappers: list[tuple[Operand, list]], n: int, label: str | None = None) -> list[list[ChunkData]]:
    """Per reducer j (of ``n``), its inputs: mapper i's piece j for every mapper i in order,
    or (in two rounds) concatenations of those over consecutive mappers. ``mappers``: the
    (operand, inputs) of each mapper; the operand's ``n`` outputs are its pieces."""
    m = len(mappers)
    if m * n <= options.shuffle_direct_pieces or n == 1 or m == 1:
        pieces = [[ChunkData(op, ins, _UNKNOWN, None, (i, 0), j) for j in range(n)]
                  for i, (op, ins) in enumerate(mappers)]
        return [[row[j] for row in pieces] for j in range(n)]
    group = math.isqrt(n - 1) + 1
    per_group = math.isqrt(m - 1) + 1
    n_groups = -(-n // group)
    packed = [[ChunkData(Packed(inner=op, group=group, label=op.label), ins, (math.nan,), None, (i, 0), g)
               for g in range(n_groups)] for i, (op, ins) in enumerate(mappers)]
    received: list[list[ChunkData]] = [[] for _ in range(n)]
    for block, start in enumerate(range(0, m, per_group)):
        rows = packed[start:start + per_group]
        for g in range(n_groups):
            width = min(group, n - g * group)
            op = Regroup(width=width, label=label)
            ins = [row[g] for row in rows]
            for k in range(width):
                received[g * group + k].append(ChunkData(op, ins, _UNKNOWN, None, (block, g), k))
    return received
