"""``mt.linalg``: NumPy's linear algebra on chunked tensors. This module is the namespace only; the operations live in ``contractions``
and ``decompositions``."""
from numpy.linalg import LinAlgError

from .contractions import dot, inner, matmul, outer, tensordot, vdot
from .decompositions import cholesky, norm, qr, svd

__all__ = ["LinAlgError", "cholesky", "dot", "inner", "matmul", "norm", "outer", "qr", "svd", "tensordot",
           "vdot"]
