"""Reading and writing DataFrames: parquet, CSV and SQL, through fsspec / pyarrow filesystems."""
from .parquet import read_parquet

__all__ = ["read_parquet"]
