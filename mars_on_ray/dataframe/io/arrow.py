"""Arrow tables to pandas exactly as ``pandas.read_parquet`` converts them (pandas 2.2 and 3.x)."""
from __future__ import annotations

import pandas as pd


def to_pandas(table, dtype_backend=None, to_pandas_kwargs: dict | None = None) -> pd.DataFrame:
    """``table`` as the DataFrame pandas' pyarrow engine makes of it."""
    try:  # pandas >= 3: the helper read_parquet itself calls
        from pandas.io._util import arrow_table_to_pandas
    except ImportError:
        return _to_pandas_22(table, dtype_backend, to_pandas_kwargs)
    from pandas._libs import lib

    backend = lib.no_default if dtype_backend is None else dtype_backend
    return arrow_table_to_pandas(table, dtype_backend=backend, to_pandas_kwargs=to_pandas_kwargs)


def _to_pandas_22(table, dtype_backend, to_pandas_kwargs) -> pd.DataFrame:
    kwargs = dict(to_pandas_kwargs or {})
    if dtype_backend == "numpy_nullable":
        from pandas.io._util import _arrow_dtype_mapping

        kwargs["types_mapper"] = _arrow_dtype_mapping().get
    elif dtype_backend == "pyarrow":
        kwargs["types_mapper"] = pd.ArrowDtype
    elif pd.get_option("future.infer_string"):
        from pandas.io._util import arrow_string_types_mapper

        kwargs["types_mapper"] = arrow_string_types_mapper()
    return table.to_pandas(**kwargs)


def check_dtype_backend(dtype_backend) -> None:
    """pandas' own error for an unknown ``dtype_backend``."""
    if dtype_backend not in (None, "numpy_nullable", "pyarrow"):
        raise ValueError(f"dtype_backend {dtype_backend} is invalid, only 'numpy_nullable' and "
                         "'pyarrow' are allowed.")
