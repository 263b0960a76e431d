"""Contractions: tensordot, dot, inner, matmul, vdot, outer.

Every output block is ONE chunk operand that takes the whole row of ``a`` blocks and column
of ``b`` blocks it needs and contracts them itself: a task per block pair plus a sum would
cost a Ray task each. Inputs split differently along contracted (or batch) axes are
re-split to the union of both block boundaries, which only ever cuts blocks, never joins them.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..config import options
from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor

__all__ = ["tensordot", "dot", "inner", "matmul", "vdot", "outer"]


class ContractBlocks(Operand):
    """``matmul`` or ``tensordot`` of a row of ``a`` blocks with a column of ``b`` blocks.

    Inputs are ``a_1..a_k, b_1..b_k`` in C order over the contracted block ``grid``. Blocks
    thin along the contracted axes are stitched (up to ``stitch_bytes``) and multiplied at
    once, since BLAS is slow on thin products; blocks at least ``_THICK`` deep are multiplied
    one by one, which costs no copy and is as fast. The products are summed. ``scalar``
    makes a 0-d result a NumPy scalar.
    """

    _params = ("axes", "grid", "matmul", "conj", "dtype", "scalar", "stitch_bytes")

    def execute(self, *inputs):
        k = len(inputs) // 2
        a_axes, b_axes = ((-1,), (-2,)) if self.matmul else self.axes
        grid = tuple(self.grid) or (1,)  # no contracted axis (outer): one block pair
        step, result = k // grid[0], None
        for lo, hi in _runs(inputs[:k], inputs[k:], grid, self.stitch_bytes, a_axes):
            run_grid = (hi - lo,) + grid[1:]
            a = _stitch(inputs[lo * step:hi * step], run_grid, a_axes)
            b = _stitch(inputs[k + lo * step:k + hi * step], run_grid, b_axes)
            if self.conj:
                a = np.conj(a)
            prod = np.matmul(a, b) if self.matmul else np.tensordot(a, b, axes=self.axes)
            if result is None:
                result = prod
            elif isinstance(result, np.ndarray) and result.ndim:
                result += prod
            else:
                result = result + prod
        result = np.asarray(result).astype(self.dtype, copy=False)
        return result[()] if self.scalar and result.ndim == 0 else result


#: contracted depth from which a block product runs at full BLAS speed (measured with
#: OpenBLAS: stitching deeper blocks only adds the copy; thinner ones gain from it)
_THICK = 128


def _runs(a_blocks, b_blocks, grid, limit, a_axes):
    """Consecutive ranges of slabs (along the first grid axis) to stitch: a run closes at
    ``limit`` bytes or once it is ``_THICK`` deep along the contracted axes."""
    step = len(a_blocks) // grid[0]
    runs, lo, size, depth = [], 0, 0, 0
    for i in range(grid[0]):
        slab = slice(i * step, (i + 1) * step)
        nbytes = sum(x.nbytes for x in a_blocks[slab] + b_blocks[slab])
        if i > lo and (size + nbytes > limit or depth >= _THICK):
            runs.append((lo, i))
            lo, size, depth = i, 0, 0
        size += nbytes
        depth += _depth(a_blocks[i * step], a_axes)
    runs.append((lo, grid[0]))
    return runs


def _depth(block, axes) -> int:
    shape = np.shape(block)
    return int(np.prod([shape[ax] for ax in axes])) if shape else 1


def _stitch(blocks, grid, axes):
    """Join ``blocks`` laid out in C order on ``grid`` along ``axes`` (one per grid axis)."""
    if not grid:
        return blocks[0]
    step = len(blocks) // grid[0]
    parts = [_stitch(blocks[i * step:(i + 1) * step], grid[1:], axes[1:]) for i in range(grid[0])]
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=axes[0])


class TensorDot(Operand):
    """``tensordot(a, b, (a_axes, b_axes))``: output axes are a's free ones then b's."""

    _params = ("a_axes", "b_axes", "conj", "scalar")

    def tile(self, ctx, out):
        a, b = out.inputs
        ta = yield from ctx.known(a)
        tb = yield from ctx.known(b)
        ta, tb = _align(ta, tb, list(zip(self.a_axes, self.b_axes)))
        free_a = [i for i in range(a.ndim) if i not in self.a_axes]
        free_b = [i for i in range(b.ndim) if i not in self.b_axes]
        # free axes first: a free index then picks the contracted blocks in C order
        rows = np.transpose(ta.chunks, free_a + list(self.a_axes))
        cols = np.transpose(tb.chunks, free_b + list(self.b_axes))
        inner = tuple(ta.chunks.shape[i] for i in self.a_axes)
        nsplits = [ta.nsplits[i] for i in free_a] + [tb.nsplits[i] for i in free_b]
        grid = chunk_grid([len(s) for s in nsplits])
        for idx in itertools.product(*(range(len(s)) for s in nsplits)):
            a_chunks = list(rows[idx[:len(free_a)] + (...,)].reshape(-1))
            b_chunks = list(cols[idx[len(free_a):] + (...,)].reshape(-1))
            op = ContractBlocks(axes=(self.a_axes, self.b_axes), grid=inner, matmul=False,
                                conj=self.conj, dtype=out.dtype, scalar=self.scalar,
                                stitch_bytes=options.chunk_store_limit, label=self.label)
            shape = tuple(nsplits[a][j] for a, j in enumerate(idx))
            grid[idx] = ChunkData(op, a_chunks + b_chunks, shape, out.meta, idx)
        return Tiled(grid, nsplits)


class MatMul(Operand):
    """``matmul`` of two operands with at least 2 dimensions; batch axes broadcast."""

    def tile(self, ctx, out):
        a, b = out.inputs
        ta = yield from ctx.known(a)
        tb = yield from ctx.known(b)
        sa, sb = _extents(ta), _extents(tb)
        nb = out.ndim - 2
        lead_a, lead_b = nb - (a.ndim - 2), nb - (b.ndim - 2)
        # k, and batch axes both sides really have (extent > 1 on both), must share splits
        pairs = [(a.ndim - 1, b.ndim - 2)]
        for axis in range(nb):
            ia, ib = axis - lead_a, axis - lead_b
            if ia >= 0 and ib >= 0 and sa[ia] != 1 and sb[ib] != 1:
                pairs.append((ia, ib))
        ta, tb = _align(ta, tb, pairs)
        batch = []
        for axis in range(nb):
            ia, ib = axis - lead_a, axis - lead_b
            if ia >= 0 and sa[ia] != 1:
                batch.append(ta.nsplits[ia])
            else:
                batch.append(tb.nsplits[ib] if ib >= 0 and sb[ib] != 1 else (1,))
        nsplits = batch + [ta.nsplits[-2], tb.nsplits[-1]]
        grid = chunk_grid([len(s) for s in nsplits])
        for idx in itertools.product(*(range(len(s)) for s in nsplits)):
            ba = tuple(0 if sa[i] == 1 else idx[i + lead_a] for i in range(a.ndim - 2))
            bb = tuple(0 if sb[i] == 1 else idx[i + lead_b] for i in range(b.ndim - 2))
            a_chunks = list(ta.chunks[ba + (idx[-2],)])
            b_chunks = list(tb.chunks[bb + (slice(None), idx[-1])])
            op = ContractBlocks(grid=(len(a_chunks),), matmul=True, conj=False, dtype=out.dtype,
                                scalar=False, stitch_bytes=options.chunk_store_limit,
                                label=self.label)
            shape = tuple(nsplits[a][j] for a, j in enumerate(idx))
            grid[idx] = ChunkData(op, a_chunks + b_chunks, shape, out.meta, idx)
        return Tiled(grid, nsplits)


def _align(ta: Tiled, tb: Tiled, pairs) -> tuple[Tiled, Tiled]:
    """Re-split ``ta`` and ``tb`` so each (a axis, b axis) pair shares one split."""
    from .rechunk import rechunk_tiled

    want_a, want_b = list(ta.nsplits), list(tb.nsplits)
    for ia, ib in pairs:
        if sum(want_a[ia]) != sum(want_b[ib]):  # only possible once unknown extents are real
            raise ValueError(f"shapes {_extents(ta)} and {_extents(tb)} not aligned: "
                             f"{sum(want_a[ia])} (dim {ia}) != {sum(want_b[ib])} (dim {ib})")
        if want_a[ia] != want_b[ib]:
            common = _union_splits(want_a[ia], want_b[ib])
            want_a[ia] = want_b[ib] = common
    return rechunk_tiled(ta, want_a), rechunk_tiled(tb, want_b)


def _extents(tiled: Tiled) -> tuple:
    return tuple(int(sum(s)) for s in tiled.nsplits)


def _union_splits(x: tuple, y: tuple) -> tuple:
    """Blocks cut at every boundary of either split: (3, 3) and (4, 2) -> (3, 1, 2)."""
    cuts = sorted(set(offsets(x)) | set(offsets(y)))
    return tuple(q - p for p, q in itertools.pairwise(cuts)) or (0,)


def _probe(func, a, b, **kwargs):
    """Run NumPy's ``func`` on tiny stand-ins of ``a`` and ``b`` whose extents keep the same
    pattern of equal / 1 / 0 sizes: NumPy raises what it would raise on the real shapes and
    gives the result's dtype and (decoded) shape.

    Unknown (nan) extents try, in turn: a code of their own, one code shared by all unknown
    extents, the code of a known extent; the first that NumPy accepts wins (tiling checks the
    real extents later)."""
    real = sorted({int(s) for s in a.shape + b.shape if not math.isnan(s) and s > 1})
    code = {0: 0, 1: 1, **{s: i + 2 for i, s in enumerate(real)}}
    decode = {v: k for k, v in code.items()}
    n_unknown = sum(math.isnan(s) for s in a.shape + b.shape)
    first_free = len(real) + 2  # codes from here on stand for unknown extents
    shared = first_free + n_unknown
    choices = [[first_free + i, shared, *range(2, first_free)] for i in range(n_unknown)]

    def stand_ins(pick):
        pick = iter(pick)
        return [np.zeros(tuple(next(pick) if math.isnan(s) else code[int(s)] for s in t.shape), t.dtype)
                for t in (a, b)]

    error = None
    for pick in itertools.islice(itertools.product(*choices), 256):
        try:
            result = func(*stand_ins(pick), **kwargs)
        except ValueError as exc:
            error = error or exc
            continue
        shape = tuple(decode.get(s, float("nan")) for s in np.shape(result))
        return shape, np.asarray(result).dtype
    raise ValueError(f"{func.__name__}: shapes {a.shape} and {b.shape} do not line up ({error})")


def _tensordot(a, b, a_axes, b_axes, shape, dtype, name, conj=False, scalar=True):
    a_axes = tuple(ax % a.ndim for ax in a_axes)
    b_axes = tuple(ax % b.ndim for ax in b_axes)
    op = TensorDot(a_axes=a_axes, b_axes=b_axes, conj=conj, scalar=scalar, label=f"mt.{name}")
    return new_tensor(op, [a, b], shape, dtype)


def tensordot(a, b, axes=2):
    """Sum of products over ``axes`` (an int: the last n of ``a`` with the first n of ``b``;
    or a pair of axis sequences), like ``numpy.tensordot``."""
    a, b = as_tensor(a), as_tensor(b)
    shape, dtype = _probe(np.tensordot, a, b, axes=axes)
    try:
        a_axes, b_axes = axes
    except TypeError:
        a_axes, b_axes = list(range(-int(axes), 0)), list(range(int(axes)))
    a_axes = [a_axes] if np.ndim(a_axes) == 0 else list(a_axes)
    b_axes = [b_axes] if np.ndim(b_axes) == 0 else list(b_axes)
    return _tensordot(a, b, a_axes, b_axes, shape, dtype, "tensordot", scalar=False)


def dot(a, b):
    """NumPy's ``dot``: inner product of vectors, matrix product, or a sum over the last axis
    of ``a`` and the second-to-last of ``b``."""
    a, b = as_tensor(a), as_tensor(b)
    shape, dtype = _probe(np.dot, a, b)
    if a.ndim == 0 or b.ndim == 0:
        return _astype(a * b, dtype)
    return _tensordot(a, b, [-1], [0 if b.ndim == 1 else -2], shape, dtype, "dot")


def inner(a, b):
    """Sum of products over the last axes of ``a`` and ``b``."""
    a, b = as_tensor(a), as_tensor(b)
    shape, dtype = _probe(np.inner, a, b)
    if a.ndim == 0 or b.ndim == 0:
        return _astype(a * b, dtype)
    return _tensordot(a, b, [-1], [-1], shape, dtype, "inner")


def matmul(a, b):
    """The ``@`` operator: matrix product with broadcast batch axes (NumPy's ``matmul``)."""
    a, b = as_tensor(a), as_tensor(b)
    shape, dtype = _probe(np.matmul, a, b)
    if a.ndim == 1 or b.ndim == 1:  # a vector operand is contracted, never batched
        return _tensordot(a, b, [-1], [0 if b.ndim == 1 else -2], shape, dtype, "matmul")
    return new_tensor(MatMul(label="mt.matmul"), [a, b], shape, dtype)


def vdot(a, b):
    """Dot product of the flattened operands, conjugating ``a``."""
    a, b = _flat(a), _flat(b)
    if not (math.isnan(a.shape[0]) or math.isnan(b.shape[0])) and a.shape != b.shape:
        raise ValueError(f"vdot: operands of {a.shape[0]} and {b.shape[0]} elements")
    dtype = np.vdot(np.zeros(1, a.dtype), np.zeros(1, b.dtype)).dtype
    return _tensordot(a, b, [0], [0], (), dtype, "vdot", conj=np.iscomplexobj(a.data.meta))


def outer(a, b):
    """Outer product of the flattened operands."""
    a, b = _flat(a), _flat(b)
    dtype = np.outer(np.zeros(1, a.dtype), np.zeros(1, b.dtype)).dtype
    return _tensordot(a, b, [], [], a.shape + b.shape, dtype, "outer")


def _flat(t):
    t = as_tensor(t)
    return t if t.ndim == 1 else t.reshape(-1)


def _astype(t, dtype):
    return t if t.dtype == dtype else t.astype(dtype)

