"""Random numbers keyed by global row position, so generated data does not depend on chunking.

Rows are grouped in fixed generation blocks of ``BLOCK`` rows; block ``g`` draws from its own
``numpy.random.Generator`` seeded by (seed, stream, g). A chunk covering any rows generates
the blocks it overlaps and keeps its rows: every value is computed by the same operations on
the same numbers whatever the chunk sizes, so results are bitwise identical.
"""
from __future__ import annotations

import numbers

import numpy as np

BLOCK = 4096
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def base_seed(random_state) -> int:
    """An integer seed from scikit-learn's ``random_state`` (int, RandomState, Generator, None).

    A RandomState / Generator is advanced (one draw), as scikit-learn's functions advance it."""
    if random_state is None:
        return int(np.random.randint(0, 2**31 - 1))
    if isinstance(random_state, numbers.Integral):
        if random_state < 0:
            raise ValueError(f"Seed must be between 0 and 2**32 - 1, got {random_state}")
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**31 - 1))
    raise ValueError(f"{random_state!r} cannot be used to seed a numpy.random.RandomState instance")


def global_rng(seed: int, stream: int = 0) -> np.random.Generator:
    """The generator of the small global parameters (centers, coefficients, ...)."""
    return np.random.default_rng([seed, 0, stream])


def block_rng(seed: int, stream: int, block: int) -> np.random.Generator:
    return np.random.default_rng([seed, 1, stream, block])


def blocks_of(start: int, stop: int):
    """(block index, first row, rows in the block up to ``stop``'s block end) overlapping rows."""
    return range(start // BLOCK, (stop - 1) // BLOCK + 1) if stop > start else range(0)


def rows_from_blocks(make_block, start: int, stop: int, n_samples: int):
    """Rows [start, stop) of the array whose generation block g is ``make_block(g, lo, hi)``
    (rows lo..hi of the whole data; the last block stops at ``n_samples``)."""
    pieces = []
    for g in blocks_of(start, stop):
        lo, hi = g * BLOCK, min((g + 1) * BLOCK, n_samples)
        block = make_block(g, lo, hi)
        pieces.append(block[max(start, lo) - lo:min(stop, hi) - lo])
    return pieces


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a well-mixed 64-bit hash of each element."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * _M1
        x = (x ^ (x >> np.uint64(27))) * _M2
        return x ^ (x >> np.uint64(31))


def permuted_positions(positions: np.ndarray, n: int, seed: int) -> np.ndarray:
    """A random bijection of range(n) evaluated at ``positions`` without materialising it:
    a 4-round Feistel network on the smallest even power of two >= n, cycle-walked into range."""
    bits = max(2, int(n - 1).bit_length())
    bits += bits % 2
    half = np.uint64(bits // 2)
    mask = np.uint64((1 << (bits // 2)) - 1)
    with np.errstate(over="ignore"):
        keys = _mix(np.arange(4, dtype=np.uint64) + np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15))

    def feistel(x):
        left, right = x >> half, x & mask
        for key in keys:
            left, right = right, left ^ (_mix(right ^ key) & mask)
        return (left << half) | right

    out = feistel(np.asarray(positions, dtype=np.uint64))
    todo = out >= np.uint64(n)
    while todo.any():
        out[todo] = feistel(out[todo])
        todo = out >= np.uint64(n)
    return out.astype(np.int64)
