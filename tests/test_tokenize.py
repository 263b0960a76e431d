"""Tokens: one hash update for plain values gives the same token as feeding piece by piece;
operand copies derive their token from the original's."""
import hashlib

import numpy as np
import pytest

from mars_on_ray.core import tokenize as tk
from mars_on_ray.core.tokenize import tokenize
from mars_on_ray.tensor.datasource import Full


def _piecewise(*args):
    h = hashlib.blake2b(digest_size=16)
    tk._feed(h, args)
    return h.hexdigest()


@pytest.mark.parametrize("args", [
    (1,), ("a", 2.5, None), ((1, 2), [3, (4, "x")]), ({"a": 1, "b": (np.dtype("f8"),)},),
    (np.float64(3.0), np.int32(2)), (int, np.ndarray), (np.dtype([("a", "i4")]),),
    ({1: {2: [3]}},), ((), []), (True, b"x", 1j), (slice(1, 2), np.arange(3)),
])
def test_the_one_update_text_gives_the_piecewise_token(args):
    assert tokenize(*args) == _piecewise(*args)


def test_distinct_plain_values_give_distinct_tokens():
    values = [1, 1.0, "1", (1,), [1], {1: 1}, {"1": 1}, ((1,),), np.int64(1), True, None]
    assert len({tokenize(v) for v in values}) == len(values)


def test_a_copy_derives_its_token_from_the_original_and_its_changes():
    op = Full(shape=(4,), fill_value=1, dtype=np.dtype("f8"))
    a, b, c = op.new(shape=(2,)), op.new(shape=(2,)), op.new(shape=(3,))
    assert a.token() == b.token() != c.token() != op.token()
    assert op.new(shape=(2,), label="x").token() == a.token()  # a label is no parameter
    other = Full(shape=(4,), fill_value=2, dtype=np.dtype("f8"))
    assert other.new(shape=(2,)).token() != a.token()
    a.shape = (3,)  # changing a parameter drops the derived token
    assert a.token() == Full(shape=(3,), fill_value=1, dtype=np.dtype("f8")).token()
