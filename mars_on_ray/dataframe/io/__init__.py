"""Reading and writing DataFrames: parquet, CSV and SQL, through fsspec / pyarrow filesystems."""
from .csv_meta import read_csv
from .csv_write import to_csv
from .parquet import read_parquet
from .parquet_write import to_parquet
from .sql import read_sql, read_sql_query, read_sql_table
from .sql_write import to_sql

__all__ = ["read_csv", "read_parquet", "read_sql", "read_sql_query", "read_sql_table", "to_csv",
           "to_parquet", "to_sql"]
