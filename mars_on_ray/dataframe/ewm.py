"""``ewm``: exponentially weighted mean / std / var / sum as a prefix scan, exact across chunks.

pandas' EWM of a column is a weighted mean with weights decayed by ``f = 1 - alpha`` per step
(per row, or per observation with ``ignore_na``): every new observation weighs 1 (``adjust``)
or ``alpha`` (the first one 1). Its state is (W: decayed weight sum, mean, C: decayed weighted
sum of squared deviations, Q: decayed sum of squared weights, n: observations). Each chunk's
rows get their local state from pandas' own ewm on the chunk; the state of every row before
the chunk (the carry, from the scan of per-chunk end states) is decayed to each row and merged
in like two partial variances are. Observations after the first with ``adjust=False`` weigh
``alpha``, the same weights ``adjust=True`` gives up to a factor, so a chunk continuing earlier
observations uses pandas' adjust=True state scaled by ``alpha``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .core import DataFrame, Series, methods
from .scan import Kernel, sample, scan
from .window import _float

__all__: list[str] = []


def _decayed(z: np.ndarray, c: float) -> np.ndarray:
    """``S_t = c * S_{t-1} + z_t`` down the rows, with pandas' adjust=False EWM (C speed): its
    ``y_t = c y_{t-1} + (1 - c) z_t``, ``y_0 = z_0`` give ``S_t = (y_t - c^(t+1) z_0) / (1 - c)``."""
    if c == 0.0:
        return z
    y = pd.DataFrame(z).ewm(alpha=1.0 - c, adjust=False).mean().to_numpy()
    powers = np.power(c, np.arange(1, len(z) + 1, dtype=np.float64))[:, None]
    return (y - powers * z[:1]) / (1.0 - c)


class _EWM(Kernel):
    def __init__(self, how, alpha, adjust, ignore_na, min_periods, bias):
        self.how, self.alpha, self.adjust, self.ignore_na = how, alpha, adjust, ignore_na
        self.min_periods, self.bias = min_periods, bias

    # -- local states ----------------------------------------------------------------------
    def _local(self, x: np.ndarray, fresh: bool) -> dict:
        """Per row, the state of the chunk's rows alone (``fresh``: no observation before)."""
        a, f = self.alpha, 1.0 - self.alpha
        first, rest = (1.0, 1.0) if self.adjust else ((1.0, a) if fresh else (a, a))
        ew = pd.DataFrame(x).ewm(alpha=a, adjust=self.adjust or not fresh, ignore_na=self.ignore_na)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            mean, vb = ew.mean().to_numpy(), ew.var(bias=True).to_numpy()
        obs = ~np.isnan(x)
        n = np.cumsum(obs, axis=0).astype(np.float64)
        if self.ignore_na:  # decays only at observations: closed forms in the count
            j = np.maximum(n - 1, 0)
            w = np.where(n > 0, first * f ** j + rest * _geometric(f, j), 0.0)
            q = np.where(n > 0, first ** 2 * f ** (2 * j) + rest ** 2 * _geometric(f * f, j), 0.0)
            k = n
        else:
            firsts = obs & (n == 1)
            z = np.where(firsts, first, np.where(obs, rest, 0.0))
            w, q = _decayed(z, f), _decayed(z * z, f * f)
            k = np.broadcast_to(np.arange(1, len(x) + 1, dtype=np.float64)[:, None], x.shape)
        c = np.where(n > 0, np.nan_to_num(vb) * w, 0.0)
        rows = np.arange(1, len(x) + 1, dtype=np.float64)[:, None]
        last = np.fmax.accumulate(np.where(obs, rows, np.nan), axis=0)
        trail = np.where(np.isnan(last), rows, rows - last)  # rows since the last observation
        return {"w": w, "mean": mean, "c": c, "q": q, "n": n, "k": k, "trail": trail}

    def _locals(self, x, carry):
        cont = self._local(x, fresh=False)
        if self.adjust or (carry is not None and (carry["n"] > 0).all()):
            return cont
        fresh = self._local(x, fresh=True)
        use = np.ones(x.shape[1], bool) if carry is None else carry["n"] == 0
        return {k: np.where(use, fresh[k], cont[k]) for k in cont}

    def _merge(self, a, b):
        """State ``a`` (the rows before) decayed to each row of ``b`` and merged with it."""
        decay = (1.0 - self.alpha) ** b["k"]
        wa, wb = decay * a["w"], b["w"]
        w = wa + wb
        with np.errstate(invalid="ignore", divide="ignore"):
            both = (wa > 0) & (wb > 0)
            mean = np.where(wb > 0, np.where(wa > 0, (wa * a["mean"] + wb * b["mean"]) / w, b["mean"]),
                            a["mean"])
            extra = np.where(both, wa * wb / w * (a["mean"] - b["mean"]) ** 2, 0.0)
        return {"w": w, "mean": mean, "c": decay * a["c"] + b["c"] + extra,
                "q": decay * decay * a["q"] + b["q"], "n": a["n"] + b["n"], "k": a["k"] + b["k"],
                "trail": np.where(b["n"] > 0, b["trail"], a["trail"] + b["trail"])}

    # -- the scan ------------------------------------------------------------------------
    def summary(self, chunk):
        x = _float(chunk)
        if not len(x):
            return None
        variants = [False] if self.adjust else [False, True]
        return {fresh: {k: v[-1] for k, v in self._local(x, fresh).items()} for fresh in variants}

    def prefix(self, summaries):
        out, state = [], None
        for s in summaries:
            if s is not None:
                if self.adjust:
                    local = s[False]
                elif state is None:
                    local = s[True]
                else:  # a column without earlier observations starts afresh
                    use = state["n"] > 0
                    local = {k: np.where(use, s[False][k], s[True][k]) for k in s[False]}
                state = local if state is None else self._merge(state, local)
            out.append(state)
        return out

    def _check_gaps(self, x, carry):
        """adjust=False renormalizes the weights after every observation, which a gap of
        missing rows makes nonlinear: only the mean handles that (``_AdjustFalseMean``)."""
        if self.adjust or self.ignore_na or not len(x):
            return
        obs = ~np.isnan(x)
        before = np.vstack([carry["trail"][None, :] if carry is not None else np.zeros((1, x.shape[1])),
                            np.where(obs[:-1], 0.0, 1.0)])
        seen = np.cumsum(obs, axis=0) - obs + (0 if carry is None else carry["n"])
        if (obs & (before > 0) & (seen > 0)).any():
            raise NotImplementedError(f"ewm {self.how} with adjust=False and ignore_na=False over "
                                      "missing values between observations is not supported")

    def apply(self, chunk, carry):
        x = _float(chunk)
        self._check_gaps(x, carry)
        st = self._locals(x, carry) if len(x) else None
        if st is not None and carry is not None:
            st = self._merge(carry, st)
        out = self._result(st) if st is not None else x
        if isinstance(chunk, pd.Series):
            return pd.Series(out[:, 0], index=chunk.index, name=chunk.name)
        return pd.DataFrame(out, index=chunk.index, columns=chunk.columns)

    def _result(self, st):
        w, n = st["w"], st["n"]
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.how == "mean":
                out = st["mean"]
            elif self.how == "sum":
                out = st["mean"] * w
            else:
                out = st["c"] / w
                if not self.bias:
                    denom = w * w - st["q"]
                    out = np.where(denom > 0, out * w * w / denom, np.nan)
                out = np.sqrt(out) if self.how == "std" else out
        return np.where(n >= max(self.min_periods, 1), out, np.nan)


class _AdjustFalseMean(Kernel):
    """adjust=False, ignore_na=False mean: after a gap of ``g`` rows an observation ``x`` maps
    the mean ``m`` to ``A m + (1 - A) x`` with ``A = f^g / (f^g + alpha)``: each chunk's rows
    are pandas' local result plus the carried mean's share, ``prod(A)`` since the chunk's
    first observation."""

    def __init__(self, alpha, min_periods):
        self.alpha, self.min_periods = alpha, min_periods

    def _local(self, x):
        f, a = 1.0 - self.alpha, self.alpha
        loc = pd.DataFrame(x).ewm(alpha=a, adjust=False).mean().to_numpy()
        obs = ~np.isnan(x)
        share = np.full(x.shape, np.nan)  # prod of A after the first observation, per row
        first = np.full(x.shape[1], -1)
        for col in range(x.shape[1]):
            idx = np.flatnonzero(obs[:, col])
            if len(idx):
                gaps = np.diff(idx).astype(np.float64)
                prods = np.concatenate([[1.0], np.cumprod(f ** gaps / (f ** gaps + a))])
                share[idx, col] = prods
                first[col] = idx[0]
        share = pd.DataFrame(share).ffill().to_numpy()
        rows = np.arange(len(x))
        lead = np.where(first >= 0, first + 1, len(x))  # rows up to the first observation
        xfirst = np.array([x[i, c] if i >= 0 else np.nan for c, i in enumerate(first)])
        last = np.fmax.accumulate(np.where(obs, rows[:, None], -1), axis=0)
        return loc, share, lead, xfirst, np.cumsum(obs, axis=0), last

    def _join(self, loc, share, lead, xfirst, n, carry):
        """The local values joined with the carried (mean, rows since its last observation,
        observations)."""
        if carry is None:
            return loc, n
        f, a = 1.0 - self.alpha, self.alpha
        m_c, gap_c, n_c = carry
        decay = f ** (gap_c + lead)
        with np.errstate(invalid="ignore"):
            joined = loc + share * (decay / (decay + a)) * (m_c - xfirst)
        return np.where(np.isnan(loc), m_c, np.where(n_c > 0, joined, loc)), n + n_c

    def summary(self, chunk):
        x = _float(chunk)
        if not len(x):
            return None
        loc, share, lead, xfirst, n, last = self._local(x)
        return loc[-1], share[-1], lead, xfirst, n[-1], len(x) - 1 - last[-1], len(x)

    def prefix(self, summaries):
        out, state = [], None
        for s in summaries:
            if s is not None:
                loc, share, lead, xfirst, n, trail, rows = s
                value, n = self._join(loc, share, lead, xfirst, n, state)
                gap = np.where(trail < rows, trail, rows + (state[1] if state is not None else 0))
                state = (value, gap, n)
            out.append(state)
        return out

    def apply(self, chunk, carry):
        x = _float(chunk)
        loc, share, lead, xfirst, n, _ = self._local(x)
        value, n = self._join(loc, share, lead, xfirst, n, carry)
        out = np.where(n >= max(self.min_periods, 1), value, np.nan)
        if isinstance(chunk, pd.Series):
            return pd.Series(out[:, 0], index=chunk.index, name=chunk.name)
        return pd.DataFrame(out, index=chunk.index, columns=chunk.columns)


def _geometric(r, j):
    """``(1 - r^j) / (1 - r)``: the sum of ``r^0 .. r^(j-1)``."""
    return j if r == 1.0 else (1.0 - r ** j) / (1.0 - r)


class ExponentialMovingWindow:
    """The lazy result of ``obj.ewm(...)``."""

    def __init__(self, obj, params: dict):
        self.obj, self.params = obj, params
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            window = obj.data.meta.ewm(**params)  # pandas' errors for bad arguments
        self.alpha = 1.0 / (1.0 + window._com)

    def _scan(self, how, bias=False, numeric_only=False):
        kw = {"numeric_only": numeric_only} if numeric_only else {}
        if how in ("var", "std"):
            kw["bias"] = bias
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            meta = getattr(sample(self.obj.data.meta).ewm(**self.params), how)(**kw).iloc[:0]
        obj = self.obj
        if isinstance(meta, pd.DataFrame) and list(meta.columns) != list(obj.data.meta.columns):
            obj = obj[list(meta.columns)]
        p = self.params
        adjust, ignore_na = p.get("adjust", True), p.get("ignore_na", False)
        minp = p.get("min_periods", 0) or 0
        if how == "mean" and not adjust and not ignore_na:
            kernel = _AdjustFalseMean(self.alpha, minp)
        else:
            kernel = _EWM(how, self.alpha, adjust, ignore_na, minp, bias)
        return scan(obj, kernel, meta, f"md.ewm.{how}")

    def mean(self, numeric_only=False):
        """Exponentially weighted mean."""
        return self._scan("mean", numeric_only=numeric_only)

    def sum(self, numeric_only=False):
        """Exponentially weighted sum (``adjust=True``)."""
        if not self.params.get("adjust", True):
            raise NotImplementedError("sum is not implemented with adjust=False")
        return self._scan("sum", numeric_only=numeric_only)

    def var(self, bias=False, numeric_only=False):
        """Exponentially weighted variance."""
        return self._scan("var", bias, numeric_only)

    def std(self, bias=False, numeric_only=False):
        """Exponentially weighted standard deviation."""
        return self._scan("std", bias, numeric_only)


    def _pair(self, other, pairwise, how, bias):
        """Series pairs: the variance of x + y, x and y (missing where either is, as pandas
        pairs them) in one scan; cov = (var(x+y) - var(x) - var(y)) / 2 with the same weights."""
        if not isinstance(self.obj, Series) or not isinstance(other, Series) or pairwise:
            raise NotImplementedError(f"ewm {how} of a Series with another Series only")
        x, y = self.obj + 0 * other, other + 0 * self.obj  # pandas' own alignment and masking
        both = x.to_frame("x").assign(y=y, s=x + y).astype(np.float64)
        v = both.ewm(**self.params).var(bias=bias if how == "cov" else True)
        cov = (v["s"] - v["x"] - v["y"]) / 2
        den = v["x"] * v["y"]  # zero: pandas' 0 / 0 (cov is zero then; ours rounds near it)
        out = cov if how == "cov" else (cov / den ** 0.5).where(den > 0)
        return out.rename(x.name)

    def cov(self, other=None, pairwise=None, bias=False, numeric_only=False):
        """Exponentially weighted covariance with the Series ``other``."""
        return self._pair(other, pairwise, "cov", bias)

    def corr(self, other=None, pairwise=None, numeric_only=False):
        """Exponentially weighted correlation with the Series ``other``."""
        return self._pair(other, pairwise, "corr", False)


@methods(DataFrame, Series)
def ewm(obj, com=None, span=None, halflife=None, alpha=None, min_periods=0, adjust=True,
        ignore_na=False, axis=0, times=None, method="single"):
    """Exponentially weighted windows (``times`` and ``method='table'`` are not supported)."""
    if times is not None or method != "single" or axis not in (0, "index", "rows"):
        raise NotImplementedError("ewm with times=, method='table' or axis=1 is not supported")
    params = {"com": com, "span": span, "halflife": halflife, "alpha": alpha,
              "min_periods": min_periods, "adjust": adjust, "ignore_na": ignore_na}
    return ExponentialMovingWindow(obj, {k: v for k, v in params.items() if v is not None})
