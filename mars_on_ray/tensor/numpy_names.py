"""NumPy's constants, scalar types and dtype helpers under ``mt`` (as Mars' ``mars.tensor``
had them): ``mt.float32``, ``mt.pi``, ``mt.newaxis``, ``mt.finfo``... are NumPy's own objects."""
from __future__ import annotations

import numpy as np

_NAMES = (
    "e pi inf nan newaxis euler_gamma "
    "bool bool_ int8 int16 int32 int64 intp uint8 uint16 uint32 uint64 uintp float16 float32 float64 "
    "longdouble complex64 complex128 clongdouble object_ str_ bytes_ void datetime64 timedelta64 "
    "generic number integer signedinteger unsignedinteger floating complexfloating inexact flexible character "
    "dtype finfo iinfo can_cast promote_types min_scalar_type issubdtype isscalar "
    "broadcast_shapes errstate seterr geterr printoptions set_printoptions get_printoptions"
).split()

globals().update({name: getattr(np, name) for name in _NAMES})
AxisError = np.exceptions.AxisError
__all__ = [*_NAMES, "AxisError", "iscomplexobj", "isrealobj"]


def iscomplexobj(x):
    """Whether ``x`` has a complex dtype (read from a tensor's metadata, nothing computed)."""
    dtype = getattr(x, "dtype", None)
    return np.iscomplexobj(x) if dtype is None else np.dtype(dtype).kind == "c"


def isrealobj(x):
    """Whether ``x`` has no complex dtype."""
    return not iscomplexobj(x)
