"""mt.einsum against np.einsum (explicit and implicit subscripts, batch letters, uneven chunks)."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(9)
A = RS.rand(5, 7)
B = RS.rand(7, 4)
C = RS.rand(4, 5)
X = RS.rand(3, 5, 7)
Y = RS.rand(3, 7, 2)
V = RS.rand(7)
I = np.arange(12).reshape(3, 4)


def _t(a):
    return mt.tensor(a, chunk_size=3)


@pytest.mark.parametrize("subscripts,operands", [
    ("ij,jk->ik", (A, B)), ("ij,jk", (A, B)), ("ij,jk,kl->il", (A, B, C)), ("ij->ji", (A,)),
    ("ij->", (A,)), ("ij->j", (A,)), ("i,i->", (V, V)), ("i,j->ij", (V, V)), ("ij,j->i", (A, V)),
    ("bij,bjk->bik", (X, Y)), ("bij,bjk->bk", (X, Y)), ("bij,bjk->kib", (X, Y)), ("ij,ij->ij", (A, A)),
    ("ij,ij->i", (A, A)), ("ji", (A,)), ("ij,kj->ik", (A, A)), ("ij,jk->", (I, I.T)),
])
def test_einsum_equals_numpy(subscripts, operands):
    assert_eq(mt.einsum(subscripts, *map(_t, operands)), np.einsum(subscripts, *operands))


def test_einsum_dtype_and_errors():
    assert_eq(mt.einsum("ij,jk->ik", _t(I), _t(I.T), dtype="f4", casting="unsafe"),
              np.einsum("ij,jk->ik", I, I.T, dtype="f4", casting="unsafe"))
    with pytest.raises(TypeError):
        np.einsum("ij,jk->ik", I, I.T, dtype="f4")
    with pytest.raises(TypeError):
        mt.einsum("ij,jk->ik", _t(I), _t(I.T), dtype="f4")
    for subscripts, operands in (("ij,jk->ik", (A, A)), ("ij,jk->ik", (A,)), ("ijk->i", (A,)),
                                 ("ij->iz", (A,))):
        with pytest.raises(ValueError):
            np.einsum(subscripts, *operands)
        with pytest.raises(ValueError):
            mt.einsum(subscripts, *map(_t, operands))
    for subscripts, operands in (("ii->i", (A,)), ("i.j->ij", (A,)), ("i1", (A,))):
        with pytest.raises(ValueError):
            np.einsum(subscripts, *operands)
        with pytest.raises(ValueError):
            mt.einsum(subscripts, *map(_t, operands))


S = RS.rand(4, 4)
T = RS.rand(4, 3, 4)
W = RS.rand(2, 1, 3, 5)


@pytest.mark.parametrize("subscripts,operands", [
    ("ii->i", (S,)), ("ii", (S,)), ("ii->", (S,)), ("iji->j", (T,)), ("iji->ij", (T,)),
    ("iij->ij", (RS.rand(3, 3, 2),)), ("ij,ii->j", (S, S)), ("...ij,...jk->...ik", (X, Y)),
    ("...ij,...jk", (X, Y)), ("...i->...", (X,)), ("i...->...", (X,)), ("...", (X,)),
    ("b...j,jk->b...k", (W, RS.rand(5, 2))), ("...j,...j->...", (W, RS.rand(3, 5))),
    ("ij...,jk...->ik...", (RS.rand(2, 3, 4), RS.rand(3, 2, 1))), ("i...i", (T,)),
], ids=repr)
def test_einsum_ellipsis_and_diagonals_equal_numpy(subscripts, operands):
    assert_eq(mt.einsum(subscripts, *map(_t, operands)), np.einsum(subscripts, *operands))
