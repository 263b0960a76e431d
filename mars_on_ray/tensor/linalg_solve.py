"""Blocked LU (SciPy's ``lu``), triangular solves, ``solve``, ``inv``, ``det`` / ``slogdet``,
``matrix_power``.

LU is right-looking over square blocks of the chunk size, as LAPACK's blocked ``getrf``: the
column panel of the rows not yet pivoted is factored in one task with partial pivoting over all
of them (so the pivots, P, are SciPy's unless two candidates differ only by rounding), then one
task per column block on its right puts the column in the panel's row order, solves its top
block against L's diagonal block (U's block) and updates the blocks below (``A -= L U``). L's
earlier columns take the later panels' row orders once, at the end. A task holds at most two
column strips (rows x chunk), as a TSQR row block does one; the row order (one integer a row)
is the only whole-matrix value in one place.
"""
from __future__ import annotations

import importlib
import itertools
import math
import operator
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from numpy.linalg import LinAlgError

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.executable import ExecutableTuple
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__: list[str] = []  # reached as mt.linalg.<name>

_ORDER_META = np.empty(0, np.intp)


def _stack(blocks):
    return blocks[0] if len(blocks) == 1 else np.concatenate(blocks)


def _cut(rows, splits) -> tuple:
    return tuple(rows[lo:hi] for lo, hi in itertools.pairwise(offsets(splits)))


def _outputs(pieces: tuple):
    return pieces if len(pieces) > 1 else pieces[0]


class PanelLU(Operand):
    """SciPy's LU of a column panel (its row blocks stacked): outputs the row order
    (``panel[order] == L @ U``), U's diagonal block, then L's block of each row block."""

    _params = ("n_blocks",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 2 + self.n_blocks

    def execute(self, *blocks):
        p, lower, upper = scipy.linalg.lu(_stack(blocks), p_indices=True, check_finite=False)
        return (np.argsort(p), upper, *_cut(lower, [len(b) for b in blocks]))


class Permute(Operand):
    """The rows of the stacked blocks (inputs 1..) in ``order`` (input 0), cut into ``splits``."""

    _params = ("splits",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.splits)

    def execute(self, order, *blocks):
        return _outputs(_cut(_stack(blocks)[order], self.splits))


class ComposeOrders(Operand):
    """The row order after each input order in turn reorders the rows from ``starts[i]`` on
    (``invert``: its inverse, SciPy's ``p_indices``)."""

    _params = ("starts", "size", "invert")

    def execute(self, *orders):
        order = np.arange(self.size)
        for start, o in zip(self.starts, orders):
            order[start:] = order[start:][o]
        return np.argsort(order) if self.invert else order


class ColumnStep(Operand):
    """One column block of the trailing matrix through one panel step: its rows (inputs from
    ``n_panel + 1`` on) put in the panel's order (input 0), the top block solved against L's
    diagonal block (U's block: output 0), the blocks below updated ``A - L U`` (outputs 1..);
    inputs 1..``n_panel`` are the panel's L blocks."""

    _params = ("n_panel",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n_panel

    def execute(self, order, *blocks):
        lower = _stack(blocks[:self.n_panel])
        column = blocks[self.n_panel:]
        rows = _stack(column)[order]
        top = len(column[0])
        upper = scipy.linalg.solve_triangular(lower[:top], rows[:top], lower=True, unit_diagonal=True,
                                              check_finite=False)
        rest = rows[top:] - lower[top:] @ upper
        return _outputs((upper, *_cut(rest, [len(b) for b in column[1:]])))


class TriSolve(Operand):
    """One block row of a blocked substitution: ``x_i = T_ii^-1 (b_i - sum_k T_ik x_k)``;
    inputs ``T_ii, b_i``, the ``T_ik`` then the ``x_k``. A zero on the diagonal raises SciPy's
    error (``singular="scipy"``, ``offset``: the block's first row), NumPy's (``"numpy"``) or
    gives NaNs (``"nan"``, as NumPy's inv inside ``cond``)."""

    _params = ("lower", "unit", "offset", "singular")

    def execute(self, tri, b, *known):
        half = len(known) // 2
        for t_ik, x_k in zip(known[:half], known[half:]):
            b = b - t_ik @ x_k
        if not self.unit:
            zero = np.flatnonzero(np.diagonal(tri) == 0)
            if len(zero) and self.singular == "nan":
                return np.full(b.shape, np.nan, np.result_type(tri, b))
            if len(zero):
                raise LinAlgError("Singular matrix" if self.singular == "numpy" else
                                  f"singular matrix: resolution failed at diagonal {self.offset + zero[0]}")
        if b.size == 0:
            return b
        return scipy.linalg.solve_triangular(tri, b, lower=self.lower, unit_diagonal=self.unit,
                                             check_finite=False)


class PermBlock(Operand):
    """Block ``[rows, cols]`` of the permutation matrix P with ``P[order[c], c] = 1``
    (``transposed``: of P^T, ``P^T[r, order[r]] = 1``)."""

    _params = ("rows", "cols", "dtype", "transposed")

    def execute(self, order):
        (r0, r1), (c0, c1) = self.rows, self.cols
        if self.transposed:
            return (order[r0:r1, None] == np.arange(c0, c1)).astype(self.dtype)
        return (order[c0:c1] == np.arange(r0, r1)[:, None]).astype(self.dtype)


class Zeros(Operand):
    """A zero block (the other triangle of L and U)."""

    _params = ("shape", "dtype")

    def execute(self):
        return np.zeros(self.shape, self.dtype)


@dataclass
class Factors:
    """A tiled LU: ``a[order] == L @ U``; ``lower`` / ``upper`` map block indexes to chunks
    of their triangles (the other blocks are zero)."""

    order: ChunkData
    lower: dict
    upper: dict
    rows: tuple
    cols: tuple
    ks: tuple


def square_blocks(t: Tiled) -> Tiled:
    """``t`` re-split into blocks of its largest chunk extent on both axes, so that diagonal
    blocks are square."""
    if 0 in [sum(s) for s in t.nsplits]:  # known empty inputs never get here
        raise NotImplementedError("mt.linalg: an empty matrix whose shape was unknown when built")
    size = int(max(*t.nsplits[0], *t.nsplits[1]))
    return rechunk_tiled(t, [_even(int(sum(s)), size) for s in t.nsplits])


def _even(extent: int, size: int) -> tuple:
    return (size,) * (extent // size) + ((extent % size,) if extent % size else ())


def factor(t: Tiled, label: str) -> Factors:
    """The chunks of the LU of ``t`` (square blocks, see ``square_blocks``)."""
    rows, cols = (tuple(int(s) for s in axis) for axis in t.nsplits)
    n_rows, n_cols = len(rows), len(cols)
    steps = min(n_rows, n_cols)
    ks = tuple(min(r, c) for r, c in zip(rows, cols))
    starts, m = offsets(rows), sum(rows)
    meta = t.chunks[0, 0].meta
    work = {idx: t.chunks[idx] for idx in np.ndindex(n_rows, n_cols)}
    lower, upper, orders = {}, {}, []
    for j in range(steps):
        panel = [work[i, j] for i in range(j, n_rows)]
        op = PanelLU(n_blocks=n_rows - j, label=label)
        orders.append(ChunkData(op, panel, (m - starts[j],), _ORDER_META, (j, j), 0))
        upper[j, j] = ChunkData(op, panel, (ks[j], cols[j]), meta, (j, j), 1)
        for i in range(j, n_rows):
            lower[i, j] = ChunkData(op, panel, (rows[i], ks[j]), meta, (j, j), 2 + i - j)
        for k in range(j + 1, n_cols):  # one task a column: its strip and the panel's L
            step = ColumnStep(n_panel=n_rows - j, label=label)
            inputs = [orders[j], *(lower[i, j] for i in range(j, n_rows)), *(work[i, k] for i in range(j, n_rows))]
            upper[j, k] = ChunkData(step, inputs, (ks[j], cols[k]), meta, (j, k), 0)
            for i in range(j + 1, n_rows):
                work[i, k] = ChunkData(step, inputs, (rows[i], cols[k]), meta, (j, k), i - j)
    for j in range(min(steps, n_rows - 1)):  # the later panels' orders, below block j
        base = starts[j + 1]
        later = ComposeOrders(starts=tuple(starts[i] - base for i in range(j + 1, steps)), size=m - base,
                              invert=False, label=label)
        order = ChunkData(later, orders[j + 1:], (m - base,), _ORDER_META, (j + 1, j))
        perm = Permute(splits=rows[j + 1:], label=label)
        strip = [order, *(lower[i, j] for i in range(j + 1, n_rows))]
        for i in range(j + 1, n_rows):
            lower[i, j] = ChunkData(perm, strip, (rows[i], ks[j]), meta, (j + 1, j), i - j - 1)
    whole = ComposeOrders(starts=tuple(starts[:steps]), size=m, invert=False, label=label)
    return Factors(ChunkData(whole, orders, (m,), _ORDER_META, (0, 0)), lower, upper, rows, cols, ks)


def _triangle(blocks: dict, splits, meta, label) -> Tiled:
    grid = chunk_grid([len(s) for s in splits])
    for idx in np.ndindex(*grid.shape):
        shape = tuple(s[i] for s, i in zip(splits, idx))
        grid[idx] = blocks[idx] if idx in blocks else ChunkData(
            Zeros(shape=shape, dtype=meta.dtype, label=label), [], shape, meta, idx)
    return Tiled(grid, splits)


class LU(Operand):
    """One of SciPy's ``lu`` outputs (``which``: "p", "l", "u", "pl", "p_indices"); the three
    tileables tile the same factor chunks (same keys), computed once when fetched together."""

    _params = ("which",)

    def tile(self, ctx, out):
        f = factor(square_blocks((yield from ctx.known(out.inputs[0]))), self.label)
        if self.which == "u":
            return _triangle(f.upper, (f.ks, f.cols), out.meta, self.label)
        if self.which == "l":
            return _triangle(f.lower, (f.rows, f.ks), out.meta, self.label)
        m = sum(f.rows)
        inverse = ChunkData(ComposeOrders(starts=(0,), size=m, invert=True, label=self.label), [f.order],
                            (m,), _ORDER_META, (0,))
        if self.which == "p_indices":
            grid = chunk_grid((1,))
            grid[0] = inverse
            return Tiled(grid, [(m,)])
        if self.which == "pl":  # P @ L: L's rows put back in a's order
            lower = _triangle(f.lower, (f.rows, f.ks), out.meta, self.label)
            grid = chunk_grid(lower.chunks.shape)
            for j in range(grid.shape[1]):
                perm = Permute(splits=f.rows, label=self.label)
                strip = [inverse, *lower.chunks[:, j]]
                for i in range(grid.shape[0]):
                    grid[i, j] = ChunkData(perm, strip, lower.chunks[i, j].shape, out.meta, (0, j), i)
            return Tiled(grid, lower.nsplits)
        grid = chunk_grid((len(f.rows), len(f.rows)))
        bounds = offsets(f.rows)
        for i, j in np.ndindex(*grid.shape):
            op = PermBlock(rows=(bounds[i], bounds[i + 1]), cols=(bounds[j], bounds[j + 1]), dtype=out.dtype,
                           transposed=False, label=self.label)
            grid[i, j] = ChunkData(op, [f.order], (f.rows[i], f.rows[j]), out.meta, (i, j))
        return Tiled(grid, [f.rows, f.rows])


def _raise_if_not_finite(x):
    if not np.isfinite(x).all():
        raise ValueError("array must not contain infs or NaNs")
    return x


def _known(x) -> bool:
    return not (isinstance(x, float) and math.isnan(x))


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """SciPy's ``lu``: ``(P, L, U)`` with ``a == P @ L @ U`` (``permute_l``: ``(P @ L, U)``;
    ``p_indices``: P as the row indices ``p`` with ``a == (L @ U)[p]``), blocked over the
    chunks with partial pivoting over whole columns, so P is SciPy's (unless two candidate
    pivots differ only by rounding). Stacked matrices: SciPy's batched lu, each in one task."""
    from .datasource import arange, eye, zeros
    from .methods import map_chunk

    t = as_tensor(a)
    if t.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    p_dtype, dtype = (x.dtype for x in scipy.linalg.lu(np.eye(2, dtype=t.dtype))[:2])
    m, n = t.shape[-2:]
    k = min(m, n) if _known(m) and _known(n) else float("nan")
    if t.ndim > 2:  # SciPy's batched lu, each matrix in one task
        if not _known(k):
            raise NotImplementedError("mt.linalg.lu: stacked matrices of unknown shape")
        shapes = [(m, k), (k, n)] if permute_l else [(m,) if p_indices else (m, m), (m, k), (k, n)]
        kw = {"permute_l": permute_l, "p_indices": p_indices, "check_finite": check_finite}
        return ExecutableTuple(stacked(t, "lu", i, module="scipy.linalg", core_shape=shape, **kw)
                               for i, shape in enumerate(shapes))
    if m == 0 or n == 0:  # SciPy's empty factors (P is empty also when m > 0)
        p = arange(0, dtype=np.int32) if p_indices else eye(0, dtype=p_dtype)
        factors = (zeros((m, k), dtype=dtype), zeros((k, n), dtype=dtype))
        return ExecutableTuple(factors if permute_l else (p, *factors))
    t = t.astype(dtype) if t.dtype != dtype else t
    if check_finite:
        t = map_chunk(t, _raise_if_not_finite, elementwise=True)

    def part(which, shape, dt):
        return new_tensor(LU(which=which, label="mt.linalg.lu"), [t], shape, dt)

    upper = part("u", (k, n), dtype)
    if permute_l:
        return ExecutableTuple((part("pl", (m, k), dtype), upper))
    index_dtype = scipy.linalg.lu(np.eye(2), p_indices=True)[0].dtype
    p = part("p_indices", (m,), np.intp).astype(index_dtype) if p_indices else part("p", (m, m), p_dtype)
    return ExecutableTuple((p, part("l", (m, k), dtype), upper))


def substitute(tri, rhs: list, lower: bool, unit: bool, singular: str, starts, index, meta, label) -> list:
    """``x`` with ``T @ x == rhs`` block row by block row; ``tri(i, k)`` is T's block (the
    diagonal ones square), ``rhs`` one column of blocks, ``index(i)`` x's grid index."""
    n = len(rhs)
    x: dict = {}
    for i in (range(n) if lower else reversed(range(n))):
        done = list(range(i) if lower else range(i + 1, n))
        op = TriSolve(lower=lower, unit=unit, offset=starts[i], singular=singular, label=label)
        inputs = [tri(i, i), rhs[i], *(tri(i, k) for k in done), *(x[k] for k in done)]
        x[i] = ChunkData(op, inputs, rhs[i].shape, meta, index(i))
    return [x[i] for i in range(n)]


def _columns(tb: Tiled):
    """Each column block of ``tb`` (a vector: one) as (list of row chunks, index function)."""
    if tb.chunks.ndim == 1:
        yield list(tb.chunks), lambda i: (i,)
        return
    for c in range(tb.chunks.shape[1]):
        yield list(tb.chunks[:, c]), (lambda i, c=c: (i, c))


def _check_rhs(a_shape, b_shape, name):
    n = a_shape[-1] if _known(a_shape[-1]) else a_shape[-2]
    rows = b_shape[0] if len(b_shape) == 1 else b_shape[-2]
    if _known(n) and _known(rows) and n != rows:
        if name == "solve":
            sig = "(m,m),(m)->(m)" if len(b_shape) == 1 else "(m,m),(m,n)->(m,n)"
            raise ValueError(f"solve{'1' if len(b_shape) == 1 else ''}: Input operand 1 has a mismatch in "
                             f"its core dimension 0, with gufunc signature {sig} (size {rows} is different "
                             f"from {n})")
        raise ValueError(f"shapes of a {tuple(a_shape)} and b {tuple(b_shape)} are incompatible")


def _check_square(shape, scipy_style=False):
    m, n = shape[-2:]
    if _known(m) and _known(n) and m != n:
        if scipy_style:
            raise ValueError("expected square matrix")
        raise LinAlgError("Last 2 dimensions of the array must be square")


class Substitution(Operand):
    """``solve`` (``lu=True``: through the LU of ``a``) or ``solve_triangular`` (``lower``,
    ``unit``) of ``a x = b``; ``b``'s columns keep their splits, its rows take ``a``'s.
    ``singular``: what a zero pivot does (see ``TriSolve``); with no ``b``, b is the identity
    split as ``a`` (``inv``, also when ``a``'s size was unknown when built)."""

    _params = ("lu", "lower", "unit", "singular")

    def tile(self, ctx, out):
        ta = yield from ctx.known(out.inputs[0])
        shape_a = tuple(int(sum(s)) for s in ta.nsplits)
        _check_square(shape_a, scipy_style=not self.lu)  # shapes unknown when built
        ta = square_blocks(ta)
        rows = ta.nsplits[0]
        starts = offsets(rows)
        f = factor(ta, self.label) if self.lu else None
        if len(out.inputs) == 1:  # inv: P^T I, made from the row order (no identity to permute)
            nsplits = (rows, rows)
            columns = [([ChunkData(PermBlock(rows=(starts[i], starts[i + 1]), cols=(starts[c], starts[c + 1]),
                                             dtype=out.dtype, transposed=True, label=self.label),
                                   [f.order], (rows[i], rows[c]), out.meta, (i, c)) for i in range(len(rows))],
                        lambda i, c=c: (i, c)) for c in range(len(rows))]
        else:
            tb = yield from ctx.known(out.inputs[1])
            _check_rhs(shape_a, tuple(int(sum(s)) for s in tb.nsplits), "solve" if self.lu else "solve_triangular")
            tb = rechunk_tiled(tb, (rows, *tb.nsplits[1:]))
            nsplits = tb.nsplits
            columns = list(_columns(tb))
            if self.lu:  # P^T b
                for n, (col, index) in enumerate(columns):
                    perm = Permute(splits=rows, label=self.label)
                    columns[n] = ([ChunkData(perm, [f.order, *col], c.shape, out.meta, index(0), i)
                                   for i, c in enumerate(col)], index)
        grid = chunk_grid([len(s) for s in nsplits])
        for col, index in columns:
            if self.lu:  # through L (unit diagonal), then U
                col = substitute(lambda i, k: f.lower[i, k], col, True, True, "numpy", starts, index,
                                 out.meta, self.label)
                col = substitute(lambda i, k: f.upper[i, k], col, False, False, self.singular, starts, index,
                                 out.meta, self.label)
            else:
                col = substitute(lambda i, k: ta.chunks[i, k], col, self.lower, self.unit, "scipy", starts,
                                 index, out.meta, self.label)
            for i, c in enumerate(col):
                grid[index(i)] = c
        return Tiled(grid, nsplits)


def _at_least_2d(t, what="at least two-dimensional"):
    if t.ndim < 2:
        raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be {what}")


def _cast(dtype, *tensors):
    return [x.astype(dtype) if x.dtype != dtype else x for x in tensors]


def _empty(a, b) -> bool:
    """Nothing to solve (NumPy's result is an empty array of ``b``'s shape)."""
    return 0 in a.shape or 0 in b.shape


def solve(a, b):
    """NumPy's ``solve``: ``x`` with ``a @ x == b`` (``b`` a vector or a matrix of right-hand
    sides), by the blocked LU with partial pivoting; ``LinAlgError('Singular matrix')`` when a
    pivot is exactly zero, at execution. Stacked matrices (ndim > 2) broadcast as in NumPy and
    are solved each in one task."""
    return _solve(a, b, "numpy")


def _solve(a, b, singular):
    from .datasource import zeros

    t, rhs = as_tensor(a), as_tensor(b)
    _at_least_2d(t)
    _check_square(t.shape)
    if rhs.ndim == 0:
        raise ValueError("solve1: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
                         "signature (m,m),(m)->(m) requires 1)")
    _check_rhs(t.shape, rhs.shape, "solve")
    dtype = np.linalg.solve(np.eye(1, dtype=t.dtype), np.ones((1,) * rhs.ndim, rhs.dtype)).dtype
    if t.ndim > 2 or rhs.ndim > 2:
        return _stacked_solve(t, rhs, dtype)
    if _empty(t, rhs):
        return zeros(rhs.shape, dtype=dtype)
    op = Substitution(lu=True, singular=singular, label="mt.linalg.solve")
    return new_tensor(op, _cast(dtype, t, rhs), rhs.shape, dtype)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """SciPy's ``solve_triangular``: ``x`` with ``a @ x == b`` for triangular ``a`` (``trans``
    1 / 'T': ``a.T``, 2 / 'C': ``a.conj().T``), by blocked substitution."""
    from .datasource import zeros
    from .methods import map_chunk

    t, rhs = as_tensor(a), as_tensor(b)
    if t.ndim != 2:
        raise ValueError("expected square matrix")
    if rhs.ndim > 2 or rhs.ndim == 0:
        raise NotImplementedError("mt.linalg.solve_triangular: b of 1 or 2 dimensions only")
    _check_square(t.shape, scipy_style=True)
    _check_rhs(t.shape, rhs.shape, "solve_triangular")
    trans = {"N": 0, "T": 1, "C": 2}.get(trans, trans)
    if trans not in (0, 1, 2):
        raise ValueError("Incorrect value for trans")
    dtype = scipy.linalg.solve_triangular(np.eye(1, dtype=t.dtype), np.ones(1, rhs.dtype)).dtype
    if trans:
        t, lower = (t.T.conj() if trans == 2 else t.T), not lower
    if _empty(t, rhs):
        return zeros(rhs.shape, dtype=dtype)
    pair = _cast(dtype, t, rhs)
    if check_finite:
        pair = [map_chunk(x, _raise_if_not_finite, elementwise=True) for x in pair]
    op = Substitution(lu=False, lower=bool(lower), unit=bool(unit_diagonal), label="mt.linalg.solve_triangular")
    return new_tensor(op, pair, rhs.shape, dtype)


def inv(a):
    """NumPy's ``inv``: ``solve(a, I)``; ``LinAlgError('Singular matrix')`` at execution."""
    return inv_or_nan(a, "numpy")


def inv_or_nan(a, singular):
    """``inv(a)``; a singular ``a`` raises (``singular="numpy"``) or gives NaNs (``"nan"``)."""
    from .datasource import zeros

    t = as_tensor(a)
    _at_least_2d(t)
    _check_square(t.shape)
    if t.ndim > 2:
        return stacked(t, "inv")
    dtype = np.linalg.inv(np.eye(1, dtype=t.dtype)).dtype
    n = t.shape[0] if _known(t.shape[0]) else t.shape[1]
    if n == 0:
        return zeros((0, 0), dtype=dtype)
    op = Substitution(lu=True, singular=singular, label="mt.linalg.inv")
    return new_tensor(op, _cast(dtype, t), (n, n), dtype)


class LogDet(Operand):
    """``(sign, log|det|)`` from the row order (input 0) and U's diagonal, a piece a block."""

    n_outputs = 2
    _params = ("dtype", "real")

    def execute(self, order, *diagonals):
        d = np.concatenate(diagonals)
        magnitude = np.abs(d)
        sign = np.prod(d / np.where(magnitude == 0, 1, magnitude)) * _perm_sign(order)
        if (magnitude == 0).any():
            sign = 0
        with np.errstate(divide="ignore"):
            log = np.log(magnitude).sum()
        return np.asarray(sign, self.dtype), np.asarray(log, self.real)


def _perm_sign(order) -> int:
    """+1 or -1: the parity of a permutation (length minus its number of cycles)."""
    seen = np.zeros(len(order), bool)
    swaps = 0
    for start in range(len(order)):
        j, length = start, 0
        while not seen[j]:
            seen[j], j, length = True, order[j], length + 1
        swaps += max(length - 1, 0)
    return -1 if swaps % 2 else 1


class Determinant(Operand):
    """``det`` (``which=None``) or one part of ``slogdet`` (0: sign, 1: log|det|)."""

    _params = ("which",)

    def tile(self, ctx, out):
        t = square_blocks((yield from ctx.known(out.inputs[0])))
        _check_square(tuple(int(sum(s)) for s in t.nsplits))
        f = factor(t, self.label)
        meta = t.chunks[0, 0].meta
        op = LogDet(dtype=meta.dtype, real=meta.real.dtype, label=self.label)
        diag = [ChunkData(Diagonal(label=self.label), [f.upper[j, j]], (f.ks[j],), meta, (j,))
                for j in range(len(f.ks))]
        parts = [ChunkData(op, [f.order, *diag], (), np.empty((), meta.dtype), (), 0),
                 ChunkData(op, [f.order, *diag], (), np.empty((), meta.real.dtype), (), 1)]
        chunk = (ChunkData(FromLog(label=self.label), parts, (), out.meta, ()) if self.which is None
                 else parts[self.which])
        grid = chunk_grid(())
        grid[()] = chunk
        return Tiled(grid, [])


class Diagonal(Operand):
    """The diagonal of a block (a copy: the block itself can be freed)."""

    def execute(self, block):
        return np.diagonal(block).copy()


class FromLog(Operand):
    """``det = sign * exp(log|det|)``, as NumPy computes it."""

    def execute(self, sign, log):
        return np.asarray(sign * np.exp(log), sign.dtype)


def _det_input(a):
    t = as_tensor(a)
    _at_least_2d(t)
    _check_square(t.shape)
    sign, log = np.linalg.slogdet(np.eye(1, dtype=t.dtype))
    t = t.astype(sign.dtype) if t.dtype != sign.dtype else t
    if t.shape[-1] == 0:
        return None, sign.dtype, log.dtype
    return t, sign.dtype, log.dtype


def det(a):
    """NumPy's ``det``, from the LU factors (U's diagonal and the permutation's sign)."""
    from .datasource import ones

    t, dtype, _ = _det_input(a)
    if t is None:
        return ones(as_tensor(a).shape[:-2], dtype=dtype)
    if t.ndim > 2:
        return stacked(t, "det")
    return new_tensor(Determinant(which=None, label="mt.linalg.det"), [t], (), dtype)


def slogdet(a):
    """NumPy's ``slogdet``: ``(sign, logabsdet)`` from the LU factors."""
    from .datasource import ones, zeros

    t, dtype, real = _det_input(a)
    if t is None:
        batch = as_tensor(a).shape[:-2]
        return ExecutableTuple((ones(batch, dtype=dtype), zeros(batch, dtype=real)))
    if t.ndim > 2:
        return ExecutableTuple((stacked(t, "slogdet", 0), stacked(t, "slogdet", 1)))
    return ExecutableTuple(new_tensor(Determinant(which=i, label="mt.linalg.slogdet"), [t], (), d)
                           for i, d in enumerate((dtype, real)))


def matrix_power(a, n):
    """NumPy's ``matrix_power``: repeated squaring with ``@`` (``n < 0``: of ``inv(a)``;
    ``n == 0``: the identity in ``a``'s dtype, broadcast over stacked matrices)."""
    from .datasource import eye
    from .manipulation import broadcast_to

    t = as_tensor(a)
    _at_least_2d(t)
    _check_square(t.shape)
    try:
        n = operator.index(n)
    except TypeError as exc:
        raise TypeError("exponent must be an integer") from exc
    if n == 0:
        size = t.shape[-1] if _known(t.shape[-1]) else t.shape[-2]
        if not _known(size) or not all(_known(s) for s in t.shape[:-2]):
            raise NotImplementedError("mt.linalg.matrix_power(a, 0) of a tensor of unknown shape")
        if t.ndim > 2:
            return broadcast_to(eye(size, dtype=t.dtype), t.shape[:-2] + (size, size))
        return eye(size, dtype=t.dtype, chunk_size=t.data.chunk_size)
    if n < 0:
        t, n = inv(t), -n
    result = square = None
    while n > 0:  # NumPy's order of products, so rounding matches
        square = t if square is None else square @ square
        n, bit = divmod(n, 2)
        if bit:
            result = square if result is None else result @ square
    return result


def stacked(t, func: str, output: int | None = None, module: str = "numpy.linalg", core_shape=None, **kwargs):
    """``<module>.<func>`` of each matrix in the last two axes, those axes made whole in each
    chunk (each matrix in one task: for small matrices); ``output`` picks one of a tuple
    result, whose matrix axes are ``core_shape`` (default: the input's last ones)."""
    probe = getattr(importlib.import_module(module), func)(np.eye(2, dtype=t.dtype), **kwargs)
    probe = np.asarray(probe if output is None else probe[output])
    core = tuple(core_shape) if core_shape is not None else t.shape[len(t.shape) - probe.ndim:]
    op = StackedLinalg(func=func, output=output, core=probe.ndim, kwargs=tuple(sorted(kwargs.items())),
                       module=module, core_shape=core_shape and tuple(core_shape), label=f"mt.linalg.{func}")
    return new_tensor(op, [t], t.shape[:-2] + core, probe.dtype)


class StackedLinalg(Operand):
    """NumPy's ``linalg.<func>`` on chunks holding whole matrices (inputs of one batch shape,
    split as the first); ``core``: the result's matrix axes (0 for det), shaped as those of
    input ``like``."""

    _params = ("func", "output", "core", "kwargs", "like", "module", "core_shape")
    output = core_shape = None
    kwargs: tuple = ()
    like = 0
    module = "numpy.linalg"

    def tile(self, ctx, out):
        tileds = []
        for node in out.inputs:
            t = yield from ctx.known(node)
            lead = tileds[0].nsplits[:-2] if tileds else t.nsplits[:-2]
            tileds.append(rechunk_tiled(t, (*lead, *((int(sum(s)),) for s in t.nsplits[-2:]))))
        lead = tileds[0].chunks.shape[:-2]
        like = tileds[self.like]
        grid = chunk_grid(lead + (1,) * self.core)
        for idx in np.ndindex(*lead):
            chunks = [t.chunks[idx + (0, 0)] for t in tileds]
            c = like.chunks[idx + (0, 0)]
            core = self.core_shape or c.shape[c.ndim - self.core:]
            grid[idx + (0,) * self.core] = ChunkData(self.new(), chunks, c.shape[:-2] + tuple(core), out.meta,
                                                     idx + (0,) * self.core)
        core = [(s,) for s in self.core_shape] if self.core_shape else like.nsplits[len(like.nsplits) - self.core:]
        return Tiled(grid, [*like.nsplits[:-2], *core])

    def execute(self, *matrices):
        result = getattr(importlib.import_module(self.module), self.func)(
            *matrices, **dict(self.kwargs))
        return np.asarray(result if self.output is None else result[self.output])


def _stacked_solve(t, rhs, dtype):
    """``solve`` of stacked matrices (NumPy's broadcasting of the batch axes), each in one task."""
    from ..core.blockwise import broadcast_shape
    from .manipulation import broadcast_to

    if rhs.ndim == 1:  # NumPy 2: a 1-d b is one vector for every matrix
        return _stacked_solve(t, rhs[:, None], dtype)[..., 0]
    batch = broadcast_shape(t.shape[:-2], rhs.shape[:-2])
    t, rhs = broadcast_to(t, batch + t.shape[-2:]), broadcast_to(rhs, batch + rhs.shape[-2:])
    op = StackedLinalg(func="solve", core=2, like=1, label="mt.linalg.solve")
    return new_tensor(op, _cast(dtype, t, rhs), rhs.shape, dtype)
