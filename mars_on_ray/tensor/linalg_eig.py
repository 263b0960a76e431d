"""``eig`` / ``eigvals`` of general square matrices, each matrix in one task (``stacked``: a
matrix is whole in one chunk, as for ``eigh``; an n x n input is gathered whole).

NumPy's result dtype depends on the values: real when every eigenvalue of the whole stack is
real (for a real input), complex otherwise. The eigenvalues are computed as complex, whether
all of them are real is computed when ``eig`` is called (a small tree reduction; on a session
the eigen-decomposition is executed first, so the result reads its stored chunks), and the
declared result is their real part or the complex values.
"""
from __future__ import annotations

import numpy as np
from numpy.linalg import LinAlgError

from ..core.executable import ExecutableTuple
from .core import as_tensor
from .linalg_solve import stacked

__all__: list[str] = []  # reached as mt.linalg.<name>


def complex_eig(a):
    """NumPy's ``eig`` with complex results whatever the values (one dtype for every chunk)."""
    w, v = np.linalg.eig(a)
    c = np.result_type(w.dtype, np.complex64)
    return w.astype(c, copy=False), v.astype(c, copy=False)


def complex_eigvals(a):
    """NumPy's ``eigvals``, complex whatever the values."""
    w = np.linalg.eigvals(a)
    return w.astype(np.result_type(w.dtype, np.complex64), copy=False)


def _square(a):
    t = as_tensor(a)
    if t.ndim < 2:
        raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be at least two-dimensional")
    m, n = t.shape[-2:]
    if m == m and n == n and m != n:  # nan (unknown) extents are checked when computed
        raise LinAlgError("Last 2 dimensions of the array must be square")
    np.linalg.eigvals(np.eye(1, dtype=t.dtype))  # NumPy's TypeError for unsupported dtypes
    return t


def _all_real(t, w, outputs):
    """Whether NumPy's result is real: a real input whose eigenvalues are all real."""
    from .. import session as session_mod
    from .arithmetic import equal
    from .manipulation import _compute_now
    from .reduction import all as all_

    if t.dtype.kind == "c":
        return False
    sess = session_mod.get_default_session(create=False)
    if sess is not None and not sess.closed:
        ExecutableTuple(outputs).execute(session=sess)
    return bool(_compute_now(all_(equal(w.imag, 0))))


def eig(a):
    """NumPy's ``eig``: ``(eigenvalues, eigenvectors)``, real when all eigenvalues are."""
    t = _square(a)
    module = __name__
    w = stacked(t, "complex_eig", 0, module=module)
    v = stacked(t, "complex_eig", 1, module=module)
    if _all_real(t, w, (w, v)):
        return ExecutableTuple((w.real, v.real))
    return ExecutableTuple((w, v))


def eigvals(a):
    """NumPy's ``eigvals``: the eigenvalues, real when all of them are."""
    t = _square(a)
    w = stacked(t, "complex_eigvals", module=__name__)
    return w.real if _all_real(t, w, (w,)) else w
