"""Random tensors: with a seed, the same values for any chunk size and any number of workers.

Values are drawn block by block on a grid fixed by the shape alone (``random_blocks``), so
the chunking never changes them. They do not follow ``np.random``'s stream, but dtypes,
shapes, broadcasting of array parameters, ranges and the ValueError for bad parameters (raised
at build time) are those of ``np.random.RandomState``. Sampling without replacement is one
draw over the whole tensor, split afterwards.
"""
from __future__ import annotations

import inspect
import operator

import numpy as np

from ..core.blockwise import grid_slices
from ..core.chunk_sizes import normalize_chunks
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from .core import Tensor, new_tensor
from .random_blocks import BLOCK_ELEMENTS, _piece, covering, draw, generation_block, overdraw
from .rechunk import rechunk_tiled

#: distributions with elementwise (broadcast) parameters: name -> parameters ("name=default")
_DISTS = {
    "beta": "a b", "binomial": "n p", "chisquare": "df", "exponential": "scale=1.0",
    "f": "dfnum dfden", "gamma": "shape scale=1.0", "geometric": "p", "gumbel": "loc=0.0 scale=1.0",
    "hypergeometric": "ngood nbad nsample", "laplace": "loc=0.0 scale=1.0",
    "logistic": "loc=0.0 scale=1.0", "lognormal": "mean=0.0 sigma=1.0", "logseries": "p",
    "negative_binomial": "n p", "noncentral_chisquare": "df nonc",
    "noncentral_f": "dfnum dfden nonc", "pareto": "a", "poisson": "lam=1.0", "power": "a",
    "rayleigh": "scale=1.0", "standard_cauchy": "", "standard_exponential": "",
    "standard_gamma": "shape", "standard_t": "df", "triangular": "left mode right",
    "vonmises": "mu kappa", "wald": "mean scale", "weibull": "a", "zipf": "a",
}

__all__ = ["seed", "rand", "randn", "randint", "random", "random_sample", "ranf", "sample",
           "random_integers", "uniform", "normal", "standard_normal", "bytes", "choice",
           "dirichlet", "multinomial", "multivariate_normal", "permutation", "shuffle", "RandomState",
           "Generator", "default_rng", *_DISTS]


class Random(Operand):
    """``Generator.<dist>(*args, size=batch shape, **kwargs)`` for one block.

    ``args`` broadcast against the batch shape (each chunk carries its piece of them),
    ``kwargs`` do not; the last ``event_ndim`` axes (e.g. a multinomial's categories) stay
    whole. ``whole``: one draw for the whole tensor, then split (choice without replacement).
    ``population``: the drawn integers index it (choice from an array). ``tensor_args``: the
    positions of ``args`` given by the input tensors (lazy parameters).
    """

    _params = ("dist", "args", "kwargs", "seed", "shape", "event_ndim", "whole", "population",
               "tensor_args", "extents", "origin", "block", "batch_shape", "out_dtype")

    def tile(self, ctx, out):
        event = self.event_ndim or 0
        nb = out.ndim - event
        nsplits = normalize_chunks(out.chunk_size, out.shape, out.dtype.itemsize)
        nsplits = nsplits[:nb] + tuple((s,) for s in out.shape[nb:])
        if self.whole:  # one draw for the whole tensor, then split
            grid_splits = tuple((s,) for s in out.shape)
        elif out.inputs or _wasteful(nsplits[:nb], out.shape[:nb]):
            # lazy parameters, or chunks far smaller than the blocks: draw the blocks, re-split
            block = generation_block(out.shape[:nb])
            grid_splits = tuple(_regular(s, b) for s, b in zip(out.shape[:nb], block)) + nsplits[nb:]
        else:  # each chunk draws the blocks it overlaps
            grid_splits = nsplits
        tiled = yield from self._tile_grid(ctx, out, grid_splits)
        return tiled if grid_splits == nsplits else rechunk_tiled(tiled, nsplits)

    def _tile_grid(self, ctx, out, grid_splits):
        nb = out.ndim - (self.event_ndim or 0)
        batch_shape = tuple(out.shape[:nb])
        block = None if self.whole else generation_block(batch_shape)
        params = []  # tensor parameters split like the batch axes they broadcast against
        for inp in out.inputs:
            t = yield from ctx.known(inp)
            lead = nb - len(t.nsplits)
            params.append(rechunk_tiled(t, tuple(s if sum(s) == 1 else grid_splits[lead + j]
                                                  for j, s in enumerate(t.nsplits))))
        grid = chunk_grid([len(s) for s in grid_splits])
        for idx, extents in grid_slices(grid_splits):
            batch = extents[:nb]
            origin = batch if block is None else covering(batch, block, batch_shape)
            args = tuple(a if np.ndim(a) == 0 else _piece(a, origin, tuple((0, 0) for _ in origin), nb)
                         for a in self.args)
            inputs = [p.chunks[tuple(0 if sum(s) == 1 else i for s, i in
                                     zip(p.nsplits, idx[nb - p.chunks.ndim:nb]))] for p in params]
            op = self.new(shape=tuple(b - a for a, b in extents), args=args, extents=batch,
                          origin=origin, block=block, batch_shape=batch_shape,
                          out_dtype=out.dtype)
            grid[idx] = ChunkData(op, inputs, op.shape, out.meta, idx)
        return Tiled(grid, grid_splits)

    def execute(self, *tensor_params):
        args = list(self.args)
        for pos, value in zip(self.tensor_args or (), tensor_params):
            args[pos] = value
        dtype = np.int64 if self.population is not None else self.out_dtype
        if self.block is None:  # one draw: the whole tensor
            rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=()))
            size = self.shape[:len(self.shape) - (self.event_ndim or 0)]
            value = np.asarray(getattr(rng, self.dist)(*args, size=size, **self.kwargs))
        else:
            event = self.shape[len(self.batch_shape):]
            value = draw(lambda rng: getattr(rng, self.dist), self.seed, args, self.origin,
                         self.extents, self.block, self.batch_shape, event, dtype, self.kwargs)
        return value if self.population is None else self.population[value]


def _wasteful(nsplits, batch_shape) -> bool:
    """Whether chunks drawing the blocks they overlap would draw much more than they keep
    (over 2x, and over ~1M values in all: tiny tensors keep one subtask per chunk)."""
    ratio = overdraw(nsplits, generation_block(batch_shape), batch_shape)
    return ratio > 2 and (ratio - 1) * float(np.prod(batch_shape)) > 16 * BLOCK_ELEMENTS


def _regular(size: int, block: int) -> tuple[int, ...]:
    return tuple(min(block, size - s) for s in range(0, size, block)) or (0,)


def _shape_of(size) -> tuple[int, ...] | None:
    if size is None:
        return None
    shape = (operator.index(size),) if np.ndim(size) == 0 else tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


#: distributions drawing integers (the dtype of a draw whose parameters are lazy)
_DISCRETE = {"binomial", "geometric", "hypergeometric", "logseries", "negative_binomial",
             "poisson", "zipf", "integers", "multinomial"}


def _param(value):
    if isinstance(value, Tileable) and not isinstance(value, Tensor):
        raise TypeError(f"mt.random: a {type(value).__name__} is not a distribution parameter")
    return value if np.ndim(value) == 0 or isinstance(value, Tensor) else np.asarray(value)


def _fixed(value, dtype=None):
    """A parameter that does not broadcast (probabilities, a mean, a population): client data."""
    if isinstance(value, Tileable):
        raise NotImplementedError("mt.random: this parameter must be a NumPy array, not a lazy object")
    return value if dtype is None and np.ndim(value) == 0 else np.asarray(value, dtype=dtype)


class RandomState:
    """A seeded source of random tensors: each call draws a fresh seed from ``seed``."""

    def __init__(self, seed=None):
        self._seeds = np.random.default_rng(seed)

    def seed(self, seed=None) -> None:
        self._seeds = np.random.default_rng(seed)

    def _new(self, label, dist, args, size, dtype, chunk_size, seed=None, *, event_ndim=0,
             whole=False, population=None, **kwargs) -> Tensor:
        shape = _shape_of(size)
        args = tuple(_param(a) for a in args)
        kwargs = {k: _fixed(v) for k, v in kwargs.items() if v is not None}
        if dtype is not None:
            kwargs["dtype"] = np.dtype(dtype)
        tensors = [(i, a) for i, a in enumerate(args) if isinstance(a, Tensor)]
        if any(a.data.has_unknown_shape for _, a in tensors):
            raise NotImplementedError(f"mt.random.{label}: parameters of unknown shape")
        batch = np.broadcast_shapes(*(a.shape for a in args if isinstance(a, Tensor)),
                                    *(np.shape(a) for a in args if not isinstance(a, Tensor)))
        if shape is not None and np.broadcast_shapes(shape, batch) != shape:
            raise ValueError(f"shape mismatch: parameters of shape {batch} cannot be broadcast "
                             f"to size {shape}")
        if tensors:  # values unknown until run: NumPy's errors for bad ones come at execution
            args = tuple(None if isinstance(a, Tensor) else a for a in args)
            event = np.shape(getattr(np.random.default_rng(0), dist)(
                *(1 if a is None else a for a in args), size=1, **kwargs))[1:] if event_ndim else ()
            sample = np.zeros(batch + event, kwargs.get("dtype", np.int64 if dist in _DISCRETE else np.float64))
        else:  # a draw over the parameters checks them (NumPy's errors), gives dtype and event shape
            sample = np.asarray(getattr(np.random.default_rng(0), dist)(*args, size=batch or 1, **kwargs))
        if population is not None:
            sample = population[sample]
        event = sample.shape[sample.ndim - event_ndim:]
        shape = (batch if shape is None else shape) + event
        seed = int(self._seeds.integers(2**63)) if seed is None else operator.index(seed)
        np.random.SeedSequence(seed)  # a bad seed raises now
        if chunk_size is not None:  # event axes stay whole
            splits = normalize_chunks(chunk_size, shape, sample.dtype.itemsize)
            chunk_size = splits[:len(shape) - event_ndim] + tuple((s,) for s in event)
        op = Random(dist=dist, args=args, kwargs=kwargs, seed=seed, event_ndim=event_ndim or None,
                    whole=whole or None, population=population, label=f"mt.random.{label}",
                    tensor_args=tuple(i for i, _ in tensors) or None)
        return new_tensor(op, [a for _, a in tensors], shape, sample.dtype, chunk_size=chunk_size)

    def rand(self, *dn, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [0, 1) of shape ``dn``."""
        return self._new("rand", "random", (), dn, dtype, chunk_size, seed)

    def randn(self, *dn, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Standard normal floats of shape ``dn``."""
        return self._new("randn", "standard_normal", (), dn, dtype, chunk_size, seed)

    def random(self, size=None, dtype=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [0, 1)."""
        return self._new("random", "random", (), size, dtype, chunk_size, seed)

    random_sample = ranf = sample = random

    def standard_normal(self, size=None, dtype=None, chunk_size=None, seed=None) -> Tensor:
        return self._new("standard_normal", "standard_normal", (), size, dtype, chunk_size, seed)

    def randint(self, low, high=None, size=None, dtype=int, chunk_size=None, seed=None) -> Tensor:
        """Integers in [low, high) (or [0, low) without ``high``)."""
        if high is None:
            low, high = 0, low
        return self._new("randint", "integers", (low, high), size, dtype, chunk_size, seed)

    def random_integers(self, low, high=None, size=None, chunk_size=None, seed=None) -> Tensor:
        """Integers in [low, high] (or [1, low] without ``high``)."""
        if high is None:
            low, high = 1, low
        return self._new("random_integers", "integers", (low, np.add(high, 1)), size, int,
                         chunk_size, seed)

    def uniform(self, low=0.0, high=1.0, size=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [low, high)."""
        return self._new("uniform", "uniform", (low, high), size, None, chunk_size, seed)

    def normal(self, loc=0.0, scale=1.0, size=None, chunk_size=None, seed=None) -> Tensor:
        """Normal floats with mean ``loc`` and standard deviation ``scale``."""
        return self._new("normal", "normal", (loc, scale), size, None, chunk_size, seed)

    def bytes(self, length) -> bytes:
        """``length`` random bytes (eager, as NumPy: a bytes object is not an array)."""
        return np.random.default_rng(int(self._seeds.integers(2**63))).bytes(length)

    def choice(self, a, size=None, replace=True, p=None, chunk_size=None, seed=None) -> Tensor:
        """Samples of ``arange(a)`` (an int) or of the 1-D array ``a``, with probabilities ``p``.

        Without replacement the whole sample is one draw (then split into chunks)."""
        population = None
        if np.ndim(a) == 0:
            n = operator.index(a)
        else:
            population = _fixed(a)
            if population.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            n = len(population)
        if n <= 0 and (size is None or np.prod(_shape_of(size)) > 0):
            raise ValueError("a must be greater than 0 unless no samples are taken")
        if not replace and np.prod(_shape_of(size) or ()) > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        return self._new("choice", "choice", (), size, None, chunk_size, seed, whole=not replace,
                         population=population, a=n, replace=bool(replace), p=p)

    def permutation(self, x, chunk_size=None, seed=None) -> Tensor:
        """``arange(x)`` shuffled (an int), or ``x`` with its first axis shuffled: the order is
        one draw over the whole length (as ``choice`` without replacement)."""
        from .core import as_tensor

        if np.ndim(x) == 0 and not isinstance(x, Tensor):
            n = operator.index(x)
            return self.choice(n, n, replace=False, chunk_size=chunk_size, seed=seed)
        t = as_tensor(x)
        if t.ndim == 0:
            raise IndexError("x must be an integer or at least 1-dimensional")
        if t.shape[0] != t.shape[0]:
            raise NotImplementedError("mt.random.permutation of a tensor of unknown length")
        return t[self.choice(t.shape[0], t.shape[0], replace=False, seed=seed)]

    def shuffle(self, x) -> None:
        """Shuffle the tensor ``x`` along its first axis, in place (``x`` now stands for it)."""
        if not isinstance(x, Tensor):
            raise TypeError("mt.random.shuffle shuffles a tensor in place; use permutation for arrays")
        x.data = self.permutation(x).data

    def dirichlet(self, alpha, size=None, chunk_size=None, seed=None) -> Tensor:
        """Dirichlet samples: shape ``size + (len(alpha),)``."""
        alpha = _fixed(alpha, float)
        if np.any(alpha <= 0):
            raise ValueError("alpha <= 0")
        return self._new("dirichlet", "dirichlet", (), size, None, chunk_size, seed, event_ndim=1,
                         alpha=alpha)

    def multinomial(self, n, pvals, size=None, chunk_size=None, seed=None) -> Tensor:
        """Multinomial counts: shape ``size + (len(pvals),)``."""
        return self._new("multinomial", "multinomial", (n,), size, None, chunk_size, seed,
                         event_ndim=1, pvals=_fixed(pvals, float))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            chunk_size=None, seed=None) -> Tensor:
        """Multivariate normal samples: shape ``size + (len(mean),)``."""
        return self._new("multivariate_normal", "multivariate_normal", (), size, None, chunk_size,
                         seed, event_ndim=1, mean=_fixed(mean, float),
                         cov=_fixed(cov, float), check_valid=check_valid, tol=tol)


def _distribution(name: str, spec: str):
    params = [p.partition("=") for p in spec.split()]
    P = inspect.Parameter
    sig = inspect.Signature([
        P("self", P.POSITIONAL_OR_KEYWORD),
        *(P(p, P.POSITIONAL_OR_KEYWORD, default=float(d) if d else P.empty) for p, _, d in params),
        P("size", P.POSITIONAL_OR_KEYWORD, default=None),
        P("chunk_size", P.KEYWORD_ONLY, default=None), P("seed", P.KEYWORD_ONLY, default=None)])

    def method(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        return a["self"]._new(name, name, tuple(a[p] for p, _, _ in params), a["size"], None,
                              a["chunk_size"], a["seed"])

    method.__name__ = method.__qualname__ = name
    method.__signature__ = sig
    method.__doc__ = f"Samples of NumPy's ``{name}`` distribution (array parameters broadcast)."
    return method


for _name, _spec in _DISTS.items():
    setattr(RandomState, _name, _distribution(_name, _spec))


class Generator(RandomState):
    """NumPy's ``Generator`` methods (``mt.random.default_rng(seed)``) over the same seeded
    block draws: ``random``, ``integers``, ``standard_normal`` with ``dtype=``, ``choice``,
    ``permutation``, ``shuffle`` and the distributions."""

    def random(self, size=None, dtype=np.float64, out=None, chunk_size=None, seed=None) -> Tensor:
        """Uniform floats in [0, 1) (``dtype`` float64 or float32)."""
        _no_out("random", out)
        return self._new("random", "random", (), size, dtype, chunk_size, seed)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, chunk_size=None,
                 seed=None) -> Tensor:
        """Integers in [low, high) (``endpoint``: [low, high]; without ``high``: from 0)."""
        if high is None:
            low, high = 0, low
        return self._new("integers", "integers", (low, high), size, dtype, chunk_size, seed,
                         endpoint=bool(endpoint) or None)

    def standard_normal(self, size=None, dtype=np.float64, out=None, chunk_size=None, seed=None) -> Tensor:
        _no_out("standard_normal", out)
        return self._new("standard_normal", "standard_normal", (), size, dtype, chunk_size, seed)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, chunk_size=None,
               seed=None) -> Tensor:
        """Samples of ``arange(a)`` or of the 1-D array ``a`` (``axis=0`` only)."""
        if axis != 0:
            raise NotImplementedError("mt.random.Generator.choice: axis=")
        return super().choice(a, size, replace, p, chunk_size=chunk_size, seed=seed)


def _no_out(name, out):
    if out is not None:
        raise NotImplementedError(f"mt.random.Generator.{name}: out=")


def default_rng(seed=None) -> Generator:
    """A ``Generator`` seeded by ``seed`` (an int, a SeedSequence, a NumPy Generator, None)."""
    return seed if isinstance(seed, Generator) else Generator(seed)

_global = RandomState()
seed = _global.seed
globals().update({name: getattr(_global, name) for name in __all__
                  if name not in ("seed", "RandomState", "Generator", "default_rng")})
del _name, _spec
