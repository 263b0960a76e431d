"""``mt.linalg``: NumPy's (and SciPy's ``lu`` / ``solve_triangular``) linear algebra on
chunked tensors. This module is the namespace only; the operations live in ``contractions``,
``decompositions``, ``linalg_solve``, ``linalg_lstsq`` and ``linalg_api``."""
from numpy.linalg import LinAlgError

from .contractions import dot, inner, matmul, outer, tensordot, vdot
from .decompositions import cholesky, norm, svd
from .linalg_api import matrix_norm, matrix_transpose, multi_dot, svdvals, tensorinv, tensorsolve, vector_norm
from .linalg_eig import eig, eigvals
from .linalg_qr import qr
from .linalg_lstsq import cond, eigh, eigvalsh, lstsq, matrix_rank, pinv
from .linalg_solve import det, inv, lu, matrix_power, slogdet, solve, solve_triangular

__all__ = ["LinAlgError", "cholesky", "cond", "det", "dot", "eig", "eigh", "eigvals", "eigvalsh", "inner", "inv",
           "lstsq", "lu", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose",
           "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "solve_triangular", "svd",
           "svdvals", "tensordot", "tensorinv", "tensorsolve", "vdot", "vector_norm"]
