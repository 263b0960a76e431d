"""The engine without Ray: keys, chunk sizes, graph pickling, fusion, the optimizer."""
from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

from mars_on_ray.core.chunk_sizes import normalize_chunks
from mars_on_ray.core.fusion import build_steps, fuse
from mars_on_ray.core.graph import FlatGraph, topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.optimizer import optimize
from mars_on_ray.core.tokenize import tokenize
from mars_on_ray.testing import assert_eq
from support import fill, map_chunks


def test_tokenize_is_deterministic_across_processes():
    value = {"a": np.arange(5), "b": (1, 2.5, "x", None, slice(1, 3))}
    code = ("import numpy as np; from mars_on_ray.core.tokenize import tokenize; "
            "print(tokenize({'a': np.arange(5), 'b': (1, 2.5, 'x', None, slice(1, 3))}))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.strip() == tokenize(value)
    assert tokenize(np.arange(5)) != tokenize(np.arange(5).astype("i4"))
    assert tokenize(1) != tokenize(1.0) != tokenize("1")


def test_same_expression_built_twice_has_same_key():
    a = map_chunks(fill((10, 10), chunk_size=3))
    b = map_chunks(fill((10, 10), chunk_size=3))
    assert a.key == b.key
    assert map_chunks(fill((10, 10), chunk_size=4)).key != a.key


@pytest.mark.parametrize("chunk_size, shape, expected", [
    (3, (10,), ((3, 3, 3, 1),)),
    ((4, -1), (10, 6), ((4, 4, 2), (6,))),
    (((5, 5), 2), (10, 3), ((5, 5), (2, 1))),
])
def test_normalize_chunks_user_sizes(chunk_size, shape, expected):
    assert normalize_chunks(chunk_size, shape, 8) == expected


def test_normalize_chunks_auto_is_byte_bounded():
    splits = normalize_chunks(None, (8000, 8000), 8, limit=128 * 1024**2)
    assert max(splits[0]) * max(splits[1]) * 8 <= 128 * 1024**2
    assert sum(splits[0]) == sum(splits[1]) == 8000
    tall = normalize_chunks((None, 3), (10**7, 3), 8, limit=8 * 1024**2)
    assert max(tall[0]) * 3 * 8 <= 8 * 1024**2 and tall[1] == (3,)


def test_normalize_chunks_rejects_bad_sizes():
    with pytest.raises(ValueError):
        normalize_chunks(((3, 3),), (10,), 8)
    with pytest.raises(ValueError):
        normalize_chunks((2, 2), (10,), 8)


def test_deep_graph_pickles_without_recursion_error():
    t = fill((4,), chunk_size=2)
    for _ in range(3000):
        t = map_chunks(t)
    roundtrip = pickle.loads(pickle.dumps(FlatGraph([t.data]))).roots[0]
    assert roundtrip.key == t.key
    assert len(topo_order([roundtrip])) == 3001


def test_fused_equals_unfused_and_counts_subtasks():
    t = map_chunks(map_chunks(fill((7, 5), chunk_size=3)))
    fused, unfused = LocalExecutor(fusion=True), LocalExecutor(fusion=False)
    np.testing.assert_array_equal(fused.compute(t.data)[0], unfused.compute(t.data)[0])
    assert fused.subtask_count == 6  # one per chunk: fill -> +1 -> +1 fused
    assert unfused.subtask_count == 18
    assert_eq(t, np.full((7, 5), 3.0))


def test_fusion_keeps_fan_in_parallel():
    """Independent branches feeding one chunk stay separate subtasks."""
    from mars_on_ray.core.entity import ChunkData
    from mars_on_ray.core.operand import Operand

    class Sum(Operand):
        def execute(self, *xs):
            return sum(xs)

    tiled = LocalExecutor().tile(map_chunks(fill((8,), chunk_size=2)).data)
    top = ChunkData(Sum(), tiled.flat, (2,), tiled.flat[0].meta, (0,))
    specs = fuse(build_steps([top], set()), {top.key})
    assert len(specs) == 5  # four fill->map chains, one sum


def test_cse_deduplicates_by_key():
    a = map_chunks(fill((6,), chunk_size=2))
    b = map_chunks(fill((6,), chunk_size=2))
    explain: list = []
    plan = optimize([a.data, b.data], explain)
    assert len(plan.order) == 2 and explain[0][0] == "cse"
    assert plan.roots[0].key == plan.roots[1].key


def test_fusion_pulls_lone_sources_into_their_reader():
    """x * y of two sources runs as one subtask per chunk, not three."""
    import mars_on_ray.tensor as mt

    x = mt.random.rand(8, 6, chunk_size=(3, 4), seed=1)
    y = mt.ones((8, 6), chunk_size=(3, 4))
    z = (x * y + 1) - x
    fused = LocalExecutor()
    np.testing.assert_allclose(fused.compute(z.data)[0], LocalExecutor(fusion=False).compute(z.data)[0])
    assert fused.subtask_count == 6
