"""``einsum`` by pairwise contractions: letters only one operand uses are summed away first,
pairs without shared kept letters go through ``tensordot`` (one BLAS product per block
pair), pairs with batch letters through a broadcast product and a sum."""
from __future__ import annotations

import string

import numpy as np

from .core import as_tensor
from .linalg import tensordot
from .reshape import transpose

__all__ = ["einsum"]


def _parse(subscripts: str, ndims: list[int]) -> tuple[list[str], str]:
    subscripts = subscripts.replace(" ", "")
    if "." in subscripts:
        raise NotImplementedError("mt.einsum: ellipsis ('...') subscripts are not supported")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(ndims):
        raise ValueError("more operands provided to einstein sum function than specified in the "
                         "subscripts string" if len(ndims) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the "
                         "subscripts string")
    for term, ndim in zip(terms, ndims):
        if len(term) != ndim or any(c not in string.ascii_letters for c in term):
            raise ValueError("einstein sum subscripts string contains too many subscripts for operand"
                             if len(term) > ndim else "operand has more dimensions than subscripts "
                             "given in einstein sum, but no '...' ellipsis provided to broadcast "
                             "the extra dimensions.")
        if len(set(term)) != len(term):
            raise NotImplementedError("mt.einsum: a letter repeated within one operand (a diagonal) "
                                      "is not supported")
    if not arrow:  # implicit mode: letters used once, in alphabetical order
        counts = {c: inputs.count(c) for c in set(inputs) - {","}}
        output = "".join(sorted(c for c, n in counts.items() if n == 1))
    return terms, output


def _sum_away(t, term: str, keep: set[str]):
    axes = tuple(i for i, c in enumerate(term) if c not in keep)
    if not axes:
        return t, term
    return t.sum(axis=axes), "".join(c for c in term if c in keep)


def _contract(a, ta: str, b, tb: str, keep: set[str]):
    shared = [c for c in ta if c in tb]
    contracted = [c for c in shared if c not in keep]
    batch = [c for c in shared if c in keep]
    if not batch:
        result = tensordot(a, b, axes=([ta.index(c) for c in contracted], [tb.index(c) for c in contracted]))
        return result, "".join(c for c in ta if c not in contracted) + "".join(c for c in tb if c not in contracted)
    letters = batch + [c for c in ta if c not in shared] + [c for c in tb if c not in shared] + contracted

    def spread(t, term):
        t = transpose(t, [term.index(c) for c in letters if c in term])
        return t[tuple(slice(None) if c in term else None for c in letters)]

    product = spread(a, ta) * spread(b, tb)
    n = len(letters) - len(contracted)
    return (product.sum(axis=tuple(range(n, len(letters)))) if contracted else product), "".join(letters[:n])


def einsum(subscripts, *operands, dtype=None, order="K", casting="safe", optimize=False):
    """NumPy's ``einsum`` for explicit or implicit subscripts without ellipsis."""
    tensors = [as_tensor(o) for o in operands]
    terms, output = _parse(subscripts, [t.ndim for t in tensors])
    sizes: dict[str, object] = {}
    for term, t in zip(terms, tensors):
        for c, n in zip(term, t.shape):
            if c in sizes and sizes[c] != n and 1 not in (sizes[c], n):
                raise ValueError(f"operands could not be broadcast together with remapped shapes: "
                                 f"letter {c!r} has sizes {sizes[c]} and {n}")
            sizes[c] = n
    if any(c not in sizes for c in output):
        raise ValueError("einstein sum subscripts string included output subscript which never "
                         "appeared in an input")
    samples = [np.ones((1,) * t.ndim, t.dtype) for t in tensors]
    result_dtype = np.einsum(subscripts, *samples, dtype=dtype, casting=casting).dtype
    tensors = [t.astype(result_dtype) if t.dtype != result_dtype else t for t in tensors]
    work = list(zip(tensors, terms))
    # letters used by one operand only (and not in the output) are summed away at once
    for i, (t, term) in enumerate(work):
        elsewhere = set(output).union(*(x for j, (_, x) in enumerate(work) if j != i))
        work[i] = _sum_away(t, term, elsewhere)
    acc, acc_term = work[0]
    for k in range(1, len(work)):
        keep = set(output).union(*(x for _, x in work[k + 1:]))
        acc, acc_term = _contract(acc, acc_term, *work[k], keep)
        acc, acc_term = _sum_away(acc, acc_term, keep)
    acc, acc_term = _sum_away(acc, acc_term, set(output))
    if acc_term != output:
        acc = transpose(acc, [acc_term.index(c) for c in output])
    return acc.astype(result_dtype) if acc.dtype != result_dtype else acc
