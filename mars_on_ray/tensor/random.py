"""Random tensors: each chunk draws from its own generator seeded by (seed, chunk index).

The same seed gives the same values and keys whatever runs the chunks; values do not follow
``np.random``'s stream, but dtypes, shapes and ranges are NumPy's.
"""
from __future__ import annotations

import operator

import numpy as np

from ..core.operand import Operand
from .core import Tensor
from .datasource import new_source, tile_source

__all__ = ["seed", "rand", "randn", "randint", "random", "random_sample",
           "uniform", "normal", "standard_normal", "RandomState"]


class Random(Operand):
    """``Generator.<dist>(*args, size=shape, **kwargs)`` for one block."""

    _params = ("dist", "args", "kwargs", "seed", "shape", "spawn_key")

    def tile(self, ctx, out):
        def make(extents):
            idx = tuple(a for a, _ in extents)  # block start offsets identify the chunk
            return self.new(shape=tuple(b - a for a, b in extents), spawn_key=idx)

        return tile_source(out, make, values_depend_on_chunks=True)  # a seed per chunk

    def execute(self):
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=self.spawn_key))
        value = getattr(rng, self.dist)(*self.args, size=self.shape, **self.kwargs)
        return np.asarray(value)


class RandomState:
    """A seeded source of random tensors: each call draws a fresh seed from ``seed``."""

    def __init__(self, seed=None):
        self._seeds = np.random.default_rng(seed)

    def seed(self, seed=None) -> None:
        self._seeds = np.random.default_rng(seed)

    def _new(self, label, dist, args, size, dtype, chunk_size, seed=None, **kwargs) -> Tensor:
        shape = () if size is None else (operator.index(size),) if np.ndim(size) == 0 else \
            tuple(operator.index(s) for s in size)
        if any(s < 0 for s in shape):
            raise ValueError("negative dimensions are not allowed")
        if any(np.ndim(a) for a in args):
            raise NotImplementedError(f"mt.random.{label}: distribution parameters must be scalars")
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        if dtype is not None:
            kwargs["dtype"] = np.dtype(dtype)
        # a one-element draw checks the arguments (NumPy's errors) and gives the dtype
        sample = getattr(np.random.default_rng(0), dist)(*args, size=1, **kwargs)
        seed = int(self._seeds.integers(2**63)) if seed is None else operator.index(seed)
        np.random.SeedSequence(seed)  # a bad seed raises now
        op = Random(dist=dist, args=tuple(args), kwargs=kwargs, seed=seed, label=f"mt.random.{label}")
        return new_source(op, shape, sample.dtype, chunk_size)

    def rand(self, *dn, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [0, 1) of shape ``dn``."""
        return self._new("rand", "random", (), dn, dtype, chunk_size, seed)

    def randn(self, *dn, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Standard normal floats of shape ``dn``."""
        return self._new("randn", "standard_normal", (), dn, dtype, chunk_size, seed)

    def random(self, size=None, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [0, 1)."""
        return self._new("random", "random", (), size, dtype, chunk_size, seed)

    random_sample = random

    def standard_normal(self, size=None, dtype=None, chunk_size=None, seed=None) -> Tensor:
        return self._new("standard_normal", "standard_normal", (), size, dtype, chunk_size, seed)

    def randint(self, low, high=None, size=None, dtype=int, chunk_size=None, seed=None) -> Tensor:
        """Integers in [low, high) (or [0, low) without ``high``)."""
        if high is None:
            low, high = 0, low
        return self._new("randint", "integers", (low, high), size, dtype, chunk_size, seed)

    def uniform(self, low=0.0, high=1.0, size=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [low, high)."""
        return self._new("uniform", "uniform", (low, high), size, None, chunk_size, seed)

    def normal(self, loc=0.0, scale=1.0, size=None, chunk_size=None, seed=None) -> Tensor:
        """Normal floats with mean ``loc`` and standard deviation ``scale``."""
        return self._new("normal", "normal", (loc, scale), size, None, chunk_size, seed)


_global = RandomState()
seed = _global.seed
rand = _global.rand
randn = _global.randn
random = random_sample = _global.random
standard_normal = _global.standard_normal
randint = _global.randint
uniform = _global.uniform
normal = _global.normal
