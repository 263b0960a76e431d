"""``mt.linalg``: NumPy's (and SciPy's ``lu`` / ``solve_triangular``) linear algebra on
chunked tensors. This module is the namespace only; the operations live in ``contractions``,
``decompositions``, ``linalg_solve`` and ``linalg_lstsq``."""
from numpy.linalg import LinAlgError

from .contractions import dot, inner, matmul, outer, tensordot, vdot
from .decompositions import cholesky, norm, qr, svd
from .linalg_lstsq import cond, eigh, eigvalsh, lstsq, matrix_rank, pinv
from .linalg_solve import det, inv, lu, matrix_power, slogdet, solve, solve_triangular

__all__ = ["LinAlgError", "cholesky", "cond", "det", "dot", "eigh", "eigvalsh", "inner", "inv",
           "lstsq", "lu", "matmul", "matrix_power", "matrix_rank", "norm", "outer", "pinv",
           "qr", "slogdet", "solve", "solve_triangular", "svd", "tensordot", "vdot"]
