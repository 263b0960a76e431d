"""Functions applied to tensors: select, piecewise and vectorize (blockwise: NumPy's own
function on every block; with a signature, on blocks holding whole core axes), apply_along_axis (whole lanes along the axis, then NumPy's)."""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["select", "piecewise", "apply_along_axis", "apply_over_axes", "vectorize"]

_HERE = "mars_on_ray.tensor.functional"


def _weak(v) -> bool:
    return type(v) in (int, float, complex)


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else ``default``."""
    from .arithmetic import astype, elementwise

    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [as_tensor(c) for c in condlist]
    choices = [c if _weak(c) else as_tensor(c) for c in (*choicelist, default)]
    try:
        dtype = np.result_type(*(c if _weak(c) else c.dtype for c in choices))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    result = choices[-1]
    for cond, choice in zip(conds[::-1], choices[-2::-1]):  # every input is in: NumPy's shape
        result = elementwise("where", (cond, choice, result), label="mt.select")
    return result if result.dtype == dtype else astype(result, dtype)


def piecewise_kernel(x, *conds, funclist=(), extra=(), kw=None):
    conds = [np.broadcast_to(c, x.shape) for c in conds]
    return np.piecewise(x, conds, list(funclist), *extra, **(kw or {}))


def piecewise(x, condlist, funclist, *args, **kw):
    """``funclist[i]`` (a function of the selected elements, or a value) where
    ``condlist[i]`` holds, later ones winning; one extra function for where none holds
    (else 0). NumPy's ``piecewise`` on every block: the functions must be elementwise."""
    from .arithmetic import elementwise

    x = as_tensor(x)
    if isinstance(condlist, Tileable) or np.isscalar(condlist) or (
            isinstance(condlist, (list, tuple)) and condlist and x.ndim != 0
            and not isinstance(condlist[0], (list, tuple, np.ndarray, Tileable))):
        condlist = [condlist]
    conds = [as_tensor(c) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    for c in conds:
        if c.dtype != np.bool_:
            raise TypeError("piecewise: every condition must be boolean")
        grown = c.ndim > x.ndim or any(s != s and t == t or s == s and s not in (1, t)
                                        for s, t in zip(c.shape[::-1], x.shape[::-1]))
        if grown:  # a condition must fit ``x`` (it broadcasts to it, not beyond)
            raise IndexError(f"boolean index did not match indexed array: condition shape "
                             f"{c.shape}, array shape {x.shape}")
    return elementwise(f"{_HERE}:piecewise_kernel", (x, *conds), label="mt.piecewise",
                       result_dtype=x.dtype, funclist=tuple(funclist), extra=tuple(args) or None,
                       kw=kw or None)


class ApplyAlongAxis(Operand):
    """NumPy's ``apply_along_axis`` on a block holding whole lanes, cast to ``dtype``."""

    _params = ("func", "axis", "args", "kwargs", "dtype", "res_shape")

    def execute(self, x):
        if x.size == 0:  # no lane to call the function on
            shape = x.shape[:self.axis] + self.res_shape + x.shape[self.axis + 1:]
            return np.empty(shape, self.dtype)
        out = np.apply_along_axis(self.func, self.axis, x, *self.args, **self.kwargs)
        return np.asarray(out).astype(self.dtype, copy=False)


class TensorApplyAlongAxis(ApplyAlongAxis):
    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        axis = self.axis
        splits = list(tiled.nsplits)
        splits[axis] = (int(sum(splits[axis])),)  # every lane whole in one block
        tiled = rechunk_tiled(tiled, splits)
        k = len(self.res_shape)
        grid = chunk_grid(tiled.chunks.shape[:axis] + (1,) * k + tiled.chunks.shape[axis + 1:])
        for pos, c in np.ndenumerate(tiled.chunks):
            index = pos[:axis] + (0,) * k + pos[axis + 1:]
            shape = c.shape[:axis] + self.res_shape + c.shape[axis + 1:]
            op = ApplyAlongAxis(**self.params, label=self.label)
            grid[index] = ChunkData(op, [c], shape, out.meta, index)
        return Tiled.from_chunks(grid)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to every 1-D lane along ``axis``; its result's shape and dtype come
    from a call on a lane of zeros (NumPy reads them from the first lane), so ``func1d``
    must return the same shape for every lane."""
    a = as_tensor(arr)
    axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if n != n:
        raise NotImplementedError("mt.apply_along_axis: the axis length must be known")
    if any(s == 0 for d, s in enumerate(a.shape) if d != axis):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = np.asanyarray(func1d(np.zeros(n, a.dtype), *args, **kwargs))
    op = TensorApplyAlongAxis(func=func1d, axis=axis, args=tuple(args), kwargs=kwargs,
                              dtype=res.dtype, res_shape=tuple(res.shape),
                              label=f"mt.apply_along_axis({getattr(func1d, '__name__', 'func')})")
    shape = tuple(a.shape[:axis]) + res.shape + tuple(a.shape[axis + 1:])
    return new_tensor(op, [a], shape, res.dtype)


def _bound(pyfunc, call):
    """``pyfunc`` taking only the vectorized arguments (NumPy's wrapper for ``excluded`` and
    keyword arguments): ``call`` = (positions, names, the excluded positional ones, keywords)."""
    if call is None:
        return pyfunc
    inds, names, fixed, fixed_kw = call

    def func(*vargs):
        args = dict(fixed)
        args.update(zip(inds, vargs))
        kwargs = dict(fixed_kw, **dict(zip(names, vargs[len(inds):])))
        return pyfunc(*(args[i] for i in range(len(args))), **kwargs)
    return func


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied over each of ``axes`` in turn, the reduced axis kept (NumPy's
    ``apply_over_axes``)."""
    from .reshape import expand_dims

    val = as_tensor(a)
    for axis in np.atleast_1d(np.asarray(axes)):
        axis = int(axis) + val.ndim if axis < 0 else int(axis)
        res = as_tensor(func(val, axis))
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def vectorize_kernel(*arrays, pyfunc=None, otypes=None, call=None, signature=None, output=None, empty=None):
    if empty is not None:  # (input core ndims, output core shapes): no loop element, no call
        loop = np.broadcast_shapes(*(a.shape[:a.ndim - n] for a, n in zip(arrays, empty[0])))
        if 0 in loop:
            outs = tuple(np.empty(loop + core, t) for core, t in zip(empty[1], otypes))
            return outs if len(outs) > 1 else outs[0]
    out = np.vectorize(_bound(pyfunc, call), otypes=otypes, signature=signature)(*arrays)
    return out if output is None else out[output]


def _same_shape(a, b) -> bool:
    """Equal shapes, an unknown (nan) extent equal to an unknown one."""
    return len(a) == len(b) and all(x == y or x != x and y != y for x, y in zip(a, b))


class GufuncBlocks(Operand):
    """``vectorize`` with a signature: each input's core axes (the last ``cores[i]``) whole in
    one chunk, the loop axes (already broadcast to one shape) split alike; one call of NumPy's
    ``vectorize`` per loop block, whose result has ``out_core`` as its last axes."""

    _params = ("cores", "out_core", "kw", "which", "n_out")

    def tile(self, ctx, out):
        from ..core.blockwise import unify_splits

        tileds = []
        for node in out.inputs:
            tileds.append((yield from ctx.known(node)))
        loop = out.ndim - len(self.out_core)
        want = [unify_splits([t.nsplits[a] for t in tileds]) for a in range(loop)]
        tileds = [rechunk_tiled(t, (*want, *((int(sum(s)),) for s in t.nsplits[loop:]))) for t in tileds]
        core = (0,) * len(self.out_core)
        grid = chunk_grid(tuple(len(s) for s in want) + (1,) * len(core))
        for idx in np.ndindex(*grid.shape[:loop]):
            chunks = [t.chunks[idx + (0,) * n] for t, n in zip(tileds, self.cores)]
            shape = tuple(s[i] for s, i in zip(want, idx)) + self.out_core
            # one call per block for every output: the outputs' chunks share the operand (its key)
            op = GufuncChunk(kw=self.kw, n_out=self.n_out, label=self.label)
            grid[idx + core] = ChunkData(op, chunks, shape, out.meta, idx + core, self.which)
        return Tiled(grid, [*want, *((s,) for s in self.out_core)])


class GufuncChunk(Operand):
    """One loop block of ``GufuncBlocks``: ``vectorize_kernel`` with its keywords."""

    _params = ("kw", "n_out")
    n_outputs = property(lambda self: self.n_out)

    def execute(self, *arrays):
        return vectorize_kernel(*arrays, **dict(self.kw))


class vectorize:
    """A Python function applied elementwise to tensors (NumPy broadcasting), block by block;
    with ``signature=`` to sub-arrays whose core axes are made whole in one chunk (the loop
    axes stay split). ``otypes`` gives the output dtype(s); without it, a call on zeros
    decides (NumPy reads the first element), as it decides the sizes of output core
    dimensions no input has. ``excluded`` positions / keywords are passed as they are."""

    def __init__(self, pyfunc=np._NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is np._NoValue:  # used as a decorator with arguments
            self._options = (otypes, doc, excluded, cache, signature)
            self.pyfunc = None
            return
        self.pyfunc = pyfunc
        if isinstance(otypes, str):
            otypes = list(otypes)
        if otypes is not None:
            otypes = [np.dtype(t) for t in otypes]
        self.otypes = otypes
        self.excluded = set(excluded or ())
        self.signature = signature
        self._core = None
        if signature is not None:
            from numpy.lib._function_base_impl import _parse_gufunc_signature

            self._core = _parse_gufunc_signature(signature.replace(" ", ""))  # NumPy's ValueError
        self.__doc__ = pyfunc.__doc__ if doc is None else doc
        self.__name__ = getattr(pyfunc, "__name__", "vectorized")

    def __call__(self, *args, **kwargs):
        """The function over every element (or core sub-array) of the broadcast arguments."""
        if self.pyfunc is None:
            return vectorize(args[0], *self._options)
        call = None
        vargs = list(args)
        if kwargs or self.excluded:
            inds = tuple(i for i in range(len(args)) if i not in self.excluded)
            names = tuple(n for n in kwargs if n not in self.excluded)
            call = (inds, names, tuple((i, args[i]) for i in range(len(args)) if i in self.excluded),
                    tuple((n, v) for n, v in kwargs.items() if n in self.excluded))
            vargs = [args[i] for i in inds] + [kwargs[n] for n in names]
        if self.signature is not None:
            return self._call_with_signature(vargs, call)
        return self._call_elementwise(vargs, call)

    def _outputs(self, samples, call):
        """The dtypes and shapes of the results on ``samples`` (``otypes`` when given)."""
        probe = np.vectorize(_bound(self.pyfunc, call), otypes=self.otypes, signature=self.signature)(*samples)
        outs = probe if isinstance(probe, tuple) else (probe,)
        return [np.asarray(o) for o in outs]

    def _call_elementwise(self, vargs, call):
        from .arithmetic import elementwise

        otypes = self.otypes
        if otypes is None:
            tensors = [a if np.isscalar(a) else as_tensor(a) for a in vargs]
            otypes = [o.dtype for o in self._outputs([a if np.isscalar(a) else np.zeros(1, a.dtype)
                                                      for a in tensors], call)]
        kw = {"pyfunc": self.pyfunc, "otypes": tuple(otypes), "call": call}
        label = f"mt.vectorize({self.__name__})"
        if len(otypes) == 1:
            return elementwise(f"{_HERE}:vectorize_kernel", vargs, label=label,
                               result_dtype=otypes[0], **kw)
        return tuple(elementwise(f"{_HERE}:vectorize_kernel", vargs, label=label, result_dtype=t,
                                 output=i, **kw) for i, t in enumerate(otypes))

    def _call_with_signature(self, vargs, call):
        from ..core.blockwise import broadcast_shape
        from .manipulation import broadcast_to

        in_core, out_core = self._core
        if len(vargs) != len(in_core):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_core)}, got {len(vargs)}")
        ts = [as_tensor(a) for a in vargs]
        cores = [len(c) for c in in_core]
        # a sample of each input: one loop element, the real core axes (NumPy's checks of them)
        samples = [np.zeros(tuple(1 if a < t.ndim - n else s for a, s in enumerate(t.shape)), t.dtype)
                   for t, n in zip(ts, cores)]
        if any(s != s for t, n in zip(ts, cores) for s in t.shape[max(t.ndim - n, 0):]):
            raise NotImplementedError("mt.vectorize: core dimensions of unknown length (execute the input first)")
        outs = self._outputs(samples, call)
        loop = broadcast_shape(*(t.shape[:t.ndim - n] for t, n in zip(ts, cores)))
        if self.otypes is None and any(s == 0 for s in loop):
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        ts = [t if _same_shape(t.shape[:t.ndim - n], loop) else broadcast_to(t, loop + t.shape[t.ndim - n:])
              for t, n in zip(ts, cores)]
        core_shapes = tuple(o.shape[o.ndim - len(c):] if c else () for o, c in zip(outs, out_core))
        kw = {"pyfunc": self.pyfunc, "otypes": tuple(x.dtype for x in outs), "call": call,
              "signature": self.signature, "empty": (tuple(cores), core_shapes)}
        results = []
        for i, (o, core_shape) in enumerate(zip(outs, core_shapes)):
            op = GufuncBlocks(cores=tuple(cores), out_core=core_shape, kw=tuple(sorted(kw.items())), which=i,
                              n_out=len(outs), label=f"mt.vectorize({self.__name__})")
            results.append(new_tensor(op, ts, loop + core_shape, o.dtype))
        return tuple(results) if len(outs) > 1 else results[0]
