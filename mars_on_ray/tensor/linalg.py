"""``mt.linalg``: NumPy's (and SciPy's ``lu`` / ``solve_triangular``) linear algebra on
chunked tensors. This module is the namespace only; the operations live in ``contractions``,
``decompositions`` and ``linalg_solve``."""
from numpy.linalg import LinAlgError

from .contractions import dot, inner, matmul, outer, tensordot, vdot
from .decompositions import cholesky, norm, qr, svd
from .linalg_solve import det, inv, lu, matrix_power, slogdet, solve, solve_triangular

__all__ = ["LinAlgError", "cholesky", "det", "dot", "inner", "inv", "lu", "matmul", "matrix_power", "norm",
           "outer", "qr", "slogdet", "solve", "solve_triangular", "svd", "tensordot", "vdot"]
