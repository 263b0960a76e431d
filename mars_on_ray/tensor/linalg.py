"""``mt.linalg``: NumPy's (and SciPy's ``lu`` / ``solve_triangular``) linear algebra on
chunked tensors. This module is the namespace only; the operations live in ``contractions``,
``decompositions``, ``linalg_solve``, ``linalg_lstsq`` and ``linalg_api``."""
from numpy.linalg import LinAlgError

from .contractions import dot, inner, matmul, outer, tensordot, vdot
from .decompositions import cholesky, norm, svd
from .linalg_api import matrix_norm, matrix_transpose, multi_dot, svdvals, tensorinv, tensorsolve, vector_norm
from .array_api import vecdot
from .linalg_eig import eig, eigvals
from .linalg_qr import qr
from .linalg_lstsq import cond, eigh, eigvalsh, lstsq, matrix_rank, pinv
from .linalg_solve import det, inv, lu, matrix_power, slogdet, solve, solve_triangular

__all__ = ["LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "dot", "eig", "eigh", "eigvals", "eigvalsh", "inner", "inv",
           "lstsq", "lu", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose",
           "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "solve_triangular", "svd",
           "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vdot", "vecdot", "vector_norm"]


def diagonal(x, /, *, offset=0):
    """The ``offset`` diagonals of the matrices in the last two axes."""
    from .methods import diagonal as diagonal_

    return diagonal_(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sums of the ``offset`` diagonals of the matrices in the last two axes."""
    from .matrices import trace as trace_

    return trace_(x, offset, -2, -1, dtype=dtype)


def cross(x1, x2, /, *, axis=-1):
    """The cross products of 3-element vectors along ``axis``."""
    import numpy as np

    from .matrices import cross as cross_

    a, b = x1 if hasattr(x1, "shape") else np.asarray(x1), x2 if hasattr(x2, "shape") else np.asarray(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{a.shape[axis]} and {b.shape[axis]} dimensional instead.")
    return cross_(x1, x2, axis=axis)
