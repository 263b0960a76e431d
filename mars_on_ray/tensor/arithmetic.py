"""Elementwise operations: every ufunc is one blockwise operand applying a NumPy function."""
from __future__ import annotations

import numbers

import numpy as np

from ..core.blockwise import blockwise_tile, broadcast_shape
from ..core.operand import Operand
from ..core.user import Tileable
from .core import Tensor, as_tensor, new_tensor
from .rechunk import rechunk_tiled
from .ufunc_methods import Ufunc


def _astype(x, dtype, casting="unsafe"):
    return x.astype(dtype, casting=casting)


#: kernels that are not attributes of the numpy module
_KERNELS = {"astype": _astype}


def _kernel(name: str):
    """``np.<name>``; ``"scipy.special:<name>"`` for SciPy's ufuncs, with ``#k`` for output k of
    a several-output function (``"scipy.special:airy#1"``)."""
    kernel = _KERNELS.get(name)
    if kernel is not None:
        return kernel
    if ":" not in name:
        return getattr(np, name)
    module, _, attr = name.partition(":")
    attr, _, output = attr.partition("#")
    import importlib

    func = getattr(importlib.import_module(module), attr)
    if not output:
        return func
    return lambda *args, **kwargs: func(*args, **kwargs)[int(output)]


class Elementwise(Operand):
    """``np.<func>(*args, **kwargs)`` per block; ``consts`` are (position, value) of the
    non-tensor arguments, the tensor inputs fill the other positions in order; ``secondary``
    are the inputs made from client arrays, which follow the other inputs' chunks."""

    _params = ("func", "consts", "kwargs", "secondary")

    def tile(self, ctx, out):
        tileds = []
        for inp in out.inputs:  # one input may keep unknown extents; several must line up
            tileds.append(ctx[inp] if len(out.inputs) == 1 else (yield from ctx.known(inp)))
        return blockwise_tile(self, out, tileds, rechunk_tiled, self.secondary or ())

    accepts_donation = True

    def execute(self, *inputs, donate=None):
        args = list(inputs)
        for pos, value in self.consts:
            args.insert(pos, value)
        kernel = _kernel(self.func)
        if donate is not None and _fits(kernel, args, inputs[donate], self.kwargs):
            return kernel(*args, out=inputs[donate])
        return np.asarray(kernel(*args, **self.kwargs))


def _fits(kernel, args, buffer, kwargs) -> bool:
    """Whether ufunc ``kernel(*args)`` can be written into ``buffer`` (an input the step may
    overwrite): same shape and the dtype NumPy would give the result."""
    if kwargs or not isinstance(kernel, np.ufunc) or kernel.nout != 1:
        return False
    try:
        dtypes = kernel.resolve_dtypes(tuple(a.dtype if isinstance(a, (np.ndarray, np.generic)) else type(a)
                                             for a in args) + (None,))
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    except (TypeError, ValueError):
        return False
    return dtypes[-1] == buffer.dtype and shape == buffer.shape


def _is_const(value) -> bool:
    return value is None or isinstance(value, (numbers.Number, np.generic, str, bytes))


def elementwise(func: str, args, label: str | None = None, *, result_dtype=None, **kwargs):
    """A tensor of ``np.<func>`` applied blockwise to ``args`` with NumPy broadcasting.

    Scalars stay constants of the operand (Python scalars weak, as in NumPy 2); arrays become
    tensor inputs. The result dtype comes from running the function on one-element samples,
    so NumPy's errors (bad dtypes, out-of-range Python ints) raise here. Returns
    NotImplemented for other lazy objects (a DataFrame then handles the operator).
    """
    if any(isinstance(a, Tileable) and not isinstance(a, Tensor) for a in args):
        return NotImplemented
    kwargs = {k: (np.dtype(v) if k == "dtype" else v) for k, v in kwargs.items() if v is not None}
    if not any(not _is_const(a) for a in args):
        args = (as_tensor(args[0]), *args[1:])
    tensors, consts, samples, secondary = [], [], [], []
    for pos, a in enumerate(args):
        if _is_const(a):
            consts.append((pos, a))
            samples.append(a)
        else:
            if not isinstance(a, Tensor):
                secondary.append(len(tensors))
            t = as_tensor(a)
            tensors.append(t)
            samples.append(np.zeros(1, t.dtype))
    with np.errstate(all="ignore"):
        try:
            dtype = np.dtype(result_dtype) if result_dtype is not None else \
                np.asarray(_kernel(func)(*samples, **kwargs)).dtype
        except TypeError:
            if not any(t.dtype == object for t in tensors):
                raise
            dtype = np.dtype(object)  # zero samples do not stand for object data
    shape = broadcast_shape(*(t.shape for t in tensors), *(() for _ in consts))
    op = Elementwise(func=func, consts=tuple(consts), kwargs=kwargs, secondary=tuple(secondary) or None,
                     label=label or f"mt.{func}")
    return new_tensor(op, tensors, shape, dtype)


def _ufunc(name: str):
    def func(*args, out=None, where=True, casting="same_kind", **kwargs):
        result = elementwise(name, args, **kwargs)
        if result is NotImplemented or (out is None and where is True):
            return result
        return _into(name, result, out, where, casting)

    return Ufunc(name, func)


add = _ufunc("add")
subtract = _ufunc("subtract")
multiply = _ufunc("multiply")
divide = true_divide = _ufunc("divide")
floor_divide = _ufunc("floor_divide")
mod = remainder = _ufunc("remainder")
fmod = _ufunc("fmod")
power = _ufunc("power")
float_power = _ufunc("float_power")
bitwise_and = _ufunc("bitwise_and")
bitwise_or = _ufunc("bitwise_or")
bitwise_xor = _ufunc("bitwise_xor")
left_shift = _ufunc("left_shift")
right_shift = _ufunc("right_shift")
equal = _ufunc("equal")
not_equal = _ufunc("not_equal")
less = _ufunc("less")
less_equal = _ufunc("less_equal")
greater = _ufunc("greater")
greater_equal = _ufunc("greater_equal")
logical_and = _ufunc("logical_and")
logical_or = _ufunc("logical_or")
logical_xor = _ufunc("logical_xor")
logical_not = _ufunc("logical_not")
maximum = _ufunc("maximum")
minimum = _ufunc("minimum")
fmax = _ufunc("fmax")
fmin = _ufunc("fmin")
arctan2 = _ufunc("arctan2")
hypot = _ufunc("hypot")
copysign = _ufunc("copysign")
nextafter = _ufunc("nextafter")
ldexp = _ufunc("ldexp")
logaddexp = _ufunc("logaddexp")
logaddexp2 = _ufunc("logaddexp2")
heaviside = _ufunc("heaviside")
gcd = _ufunc("gcd")
lcm = _ufunc("lcm")
negative = _ufunc("negative")
positive = _ufunc("positive")
abs = absolute = _ufunc("absolute")  # noqa: A001 (NumPy's name)
fabs = _ufunc("fabs")
invert = bitwise_not = _ufunc("invert")
sign = _ufunc("sign")
signbit = _ufunc("signbit")
conj = conjugate = _ufunc("conjugate")
exp = _ufunc("exp")
exp2 = _ufunc("exp2")
expm1 = _ufunc("expm1")
log = _ufunc("log")
log2 = _ufunc("log2")
log10 = _ufunc("log10")
log1p = _ufunc("log1p")
sqrt = _ufunc("sqrt")
cbrt = _ufunc("cbrt")
square = _ufunc("square")
reciprocal = _ufunc("reciprocal")
sin = _ufunc("sin")
cos = _ufunc("cos")
tan = _ufunc("tan")
arcsin = _ufunc("arcsin")
arccos = _ufunc("arccos")
arctan = _ufunc("arctan")
sinh = _ufunc("sinh")
cosh = _ufunc("cosh")
tanh = _ufunc("tanh")
arcsinh = _ufunc("arcsinh")
arccosh = _ufunc("arccosh")
arctanh = _ufunc("arctanh")
deg2rad = radians = _ufunc("deg2rad")
rad2deg = degrees = _ufunc("rad2deg")
floor = _ufunc("floor")
ceil = _ufunc("ceil")
trunc = _ufunc("trunc")
rint = _ufunc("rint")
isnan = _ufunc("isnan")
isinf = _ufunc("isinf")
isfinite = _ufunc("isfinite")
spacing = _ufunc("spacing")
bitwise_count = _ufunc("bitwise_count")
# NumPy 2's array-API names of the same ufuncs
acos, acosh, asin, asinh, atan, atanh, atan2 = arccos, arccosh, arcsin, arcsinh, arctan, arctanh, arctan2
bitwise_left_shift, bitwise_right_shift, bitwise_invert, pow = left_shift, right_shift, invert, power  # noqa: A001

_UFUNCS = {name: f for name, f in dict(globals()).items() if isinstance(f, Ufunc)}  # aliases too


def astype(tensor, dtype, casting="unsafe", copy=True):
    """The tensor cast to ``dtype`` (itself when it already has it and ``copy`` is False)."""
    t = as_tensor(tensor)
    dtype = np.dtype(dtype)
    if dtype == t.dtype and not copy:
        return t
    return elementwise("astype", (t,), label="mt.astype", dtype=dtype, casting=casting)


def clip(a, a_min=np._NoValue, a_max=np._NoValue, *, min=np._NoValue, max=np._NoValue):  # noqa: A002
    """Values limited to ``[a_min, a_max]`` (either may be a tensor, array or None; ``min`` /
    ``max`` are their NumPy 2 names)."""
    if a_min is np._NoValue and a_max is np._NoValue:  # NumPy's rules for the two spellings
        a_min, a_max = (None if v is np._NoValue else v for v in (min, max))
    elif a_min is np._NoValue or a_max is np._NoValue:
        name = "a_min" if a_min is np._NoValue else "a_max"
        raise TypeError(f"clip() missing 1 required positional argument: '{name}'")
    elif min is not np._NoValue or max is not np._NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are provided is "
                         "forbidden.")
    return elementwise("clip", (a, a_min, a_max), label="mt.clip")


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y``."""
    if x is None and y is None:
        from .nonzero import nonzero

        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return elementwise("where", (condition, x, y), label="mt.where")


def around(a, decimals=0):
    """Elements rounded to ``decimals`` places."""
    return elementwise("round", (a,), label="mt.around", decimals=decimals)


round = around  # noqa: A001 (NumPy's name)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise closeness like ``np.isclose``."""
    return elementwise("isclose", (a, b), label="mt.isclose", rtol=rtol, atol=atol, equal_nan=equal_nan)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by finite numbers."""
    return elementwise("nan_to_num", (x,), label="mt.nan_to_num", nan=nan, posinf=posinf, neginf=neginf)


def _into(name: str, result: Tensor, out, where, casting: str) -> Tensor:
    """NumPy's ``out=`` / ``where=`` for a lazy ufunc result: ``out`` (a tensor) is rebound
    to the result where ``where`` holds and keeps its values elsewhere."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"mt.{name}: out= must be a tensor (a lazy result cannot be written "
                        f"into a {type(out).__name__})")
    if out is not None:
        if not np.can_cast(result.dtype, out.dtype, casting=casting):
            raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to "
                            f"{out.dtype!r} with casting rule '{casting}'")
        shape = broadcast_shape(tuple(result.shape), tuple(out.shape))
        if tuple(shape) != tuple(out.shape):
            def text(shape):  # NumPy's spelling: (3,4)
                return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
            raise ValueError(f"non-broadcastable output operand with shape {text(out.shape)} "
                             f"doesn't match the broadcast shape {text(shape)}")
        result = astype(result, out.dtype) if result.dtype != out.dtype else result
        if tuple(result.shape) != tuple(out.shape):
            from .manipulation import broadcast_to

            result = broadcast_to(result, tuple(out.shape))
        if where is not True:
            result = elementwise("where", (where, result, out), label=f"mt.{name}")
        out.data = result.data
        return out
    # NumPy leaves the unselected elements uninitialised; here they are zero
    return elementwise("where", (where, result, np.zeros((), result.dtype)), label=f"mt.{name}")


def array_ufunc(tensor, ufunc, method, *inputs, **kwargs):
    """``Tensor.__array_ufunc__``: ``np.exp(t)``, ``ndarray + t``, ``ndarray @ t`` stay lazy;
    ``out=`` a tensor rebinds it."""
    out = kwargs.get("out")
    if out is not None and not all(isinstance(o, Tensor) for o in out):
        return NotImplemented
    func = _UFUNCS.get(ufunc.__name__)
    if method != "__call__":  # np.add.reduce(t), np.maximum.accumulate(t), np.multiply.outer
        if func is None or method not in ("reduce", "accumulate", "outer"):
            return NotImplemented
        return getattr(func, method)(*inputs, **kwargs)
    if func is None:  # e.g. np.matmul: the tensor package's function of that name
        import mars_on_ray.tensor as mt

        func = getattr(mt, ufunc.__name__, None)
    return NotImplemented if func is None else func(*inputs, **kwargs)


__all__ = sorted({*_UFUNCS, "astype", "clip", "where", "around", "round", "isclose", "nan_to_num"})


def array_function(tensor, func, types, args, kwargs):
    """``Tensor.__array_function__``: ``np.concatenate([t, u])``, ``np.linalg.norm(t)`` call the
    lazy function of the same name; a NumPy function we lack computes its inputs and warns
    (as Dask does), so user code keeps working."""
    import importlib
    import warnings

    from ..core.user import Tileable

    if not all(issubclass(t, (Tileable, np.ndarray)) for t in types):
        return NotImplemented
    module = func.__module__.replace("numpy", "mars_on_ray.tensor", 1)
    try:
        ours = getattr(importlib.import_module(module), func.__name__, None)
    except ImportError:
        ours = None
    if ours is not None and ours is not func:
        return ours(*args, **kwargs)
    warnings.warn(f"mars_on_ray.tensor has no lazy numpy.{func.__name__}: its tensor inputs are "
                  f"executed and NumPy's answer returned", UserWarning, stacklevel=3)
    return func._implementation(*args, **kwargs)
