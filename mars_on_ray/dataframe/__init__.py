"""The pandas API: lazy DataFrames and Series executed on Ray."""
from .arithmetic import *  # noqa: F401,F403
from .core import DataFrame, Index, Series
from .datasource import *  # noqa: F401,F403
from .groupby import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .io import *  # noqa: F401,F403
from .rules import column_pruning, limit_pushdown, predicate_pushdown  # noqa: F401  (register the rules)
