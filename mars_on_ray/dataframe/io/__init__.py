"""Reading and writing DataFrames: parquet, CSV and SQL, through fsspec / pyarrow filesystems."""
from .csv_meta import read_csv
from .csv_write import to_csv
from .parquet import read_parquet
from .parquet_write import to_parquet

__all__ = ["read_csv", "read_parquet", "to_csv", "to_parquet"]
