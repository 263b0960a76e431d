"""``einsum`` by pairwise contractions: letters only one operand uses are summed away first,
pairs without shared kept letters go through ``tensordot`` (one BLAS product per block
pair), pairs with batch letters through a broadcast product and a sum."""
from __future__ import annotations

import string

import numpy as np

from .core import as_tensor
from .contractions import tensordot
from .reshape import transpose

__all__ = ["einsum"]


def _spell_ellipsis(terms: list[str], output: str | None, ndims: list[int]):
    """Terms and output with each '...' replaced by letters nobody uses, right-aligned across
    operands as NumPy broadcasts them; implicit output puts them first."""
    unused = [c for c in string.ascii_letters if c not in "".join(terms) + (output or "")]
    spans = [nd - len(term.replace("...", "")) if "..." in term else 0 for term, nd in zip(terms, ndims)]
    width = max(spans, default=0)
    letters = "".join(unused[:width])
    terms = [term.replace("...", letters[width - k:]) if "..." in term else term for term, k in zip(terms, spans)]
    if output is not None:
        output = output.replace("...", letters)
    return terms, output, letters


def _parse(subscripts: str, ndims: list[int]) -> tuple[list[str], str]:
    subscripts = subscripts.replace(" ", "")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if any(term.count("...") > 1 or "." in term.replace("...", "") for term in terms + [output]):
        raise ValueError("einstein sum subscripts string contains a '.' that is not part of an "
                         "ellipsis ('...')")
    terms, output, ellipsis = _spell_ellipsis(terms, output if arrow else None, ndims) \
        if len(terms) == len(ndims) else (terms, output, "")
    if len(terms) != len(ndims):
        raise ValueError("more operands provided to einstein sum function than specified in the "
                         "subscripts string" if len(ndims) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the "
                         "subscripts string")
    for term, ndim in zip(terms, ndims):
        if len(term) != ndim or any(c not in string.ascii_letters for c in term):
            if any(c not in string.ascii_letters for c in term):
                raise ValueError(f"invalid subscript {next(c for c in term if c not in string.ascii_letters)!r} "
                                 "in einstein sum subscripts string, subscripts must be letters")
            raise ValueError("einstein sum subscripts string contains too many subscripts for operand"
                             if len(term) > ndim else "operand has more dimensions than subscripts "
                             "given in einstein sum, but no '...' ellipsis provided to broadcast "
                             "the extra dimensions.")
    if not arrow:  # implicit mode: the ellipsis, then letters used once, in alphabetical order
        joined = "".join(terms)
        counts = {c: joined.count(c) for c in set(joined) - set(ellipsis)}
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    return terms, output


def _take_diagonals(t, term: str):
    """A letter repeated within one operand reads its diagonal: ``ii`` -> ``i``, the
    diagonal axis where NumPy's indexing puts it."""
    from .datasource import arange

    for c in dict.fromkeys(term):
        at = [i for i, x in enumerate(term) if x == c]
        if len(at) == 1:
            continue
        sizes = {t.shape[i] for i in at}
        if len(sizes) > 1:
            raise ValueError(f"dimensions in operand for collapsing index '{c}' don't match "
                             f"({' != '.join(str(t.shape[i]) for i in at)})")
        diagonal = arange(sizes.pop())
        t = t[tuple(diagonal if i in at else slice(None) for i in range(len(term)))]
        rest = [x for x in term if x != c]
        adjacent = at == list(range(at[0], at[0] + len(at)))
        place = at[0] if adjacent else 0
        term = "".join(rest[:place]) + c + "".join(rest[place:])
    return t, term


def _squeeze_broadcast(t, term: str, sizes: dict):
    """Axes of length one that broadcast against a longer letter elsewhere are dropped (the
    operand is constant along them)."""
    drop = [i for i, c in enumerate(term) if t.shape[i] == 1 and sizes[c] != 1]
    if not drop:
        return t, term
    t = t[tuple(0 if i in drop else slice(None) for i in range(len(term)))]
    return t, "".join(c for i, c in enumerate(term) if i not in drop)


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
    """NumPy's ``einsum``: explicit or implicit subscripts, ``...`` broadcasting, repeated
    letters (diagonals)."""
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
    work = [_squeeze_broadcast(*_take_diagonals(t, term), sizes) for t, term in zip(tensors, terms)]
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
