"""The pandas API: lazy DataFrames and Series executed on Ray."""
from .arithmetic import *  # noqa: F401,F403
from .core import DataFrame, Index, Series
from .datasource import *  # noqa: F401,F403
from .groupby import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .io import *  # noqa: F401,F403
from .accessors import *  # noqa: F401,F403
from .datetimes import *  # noqa: F401,F403
from .positional import *  # noqa: F401,F403
from .merge import *  # noqa: F401,F403
from .sort import *  # noqa: F401,F403
from .unique import *  # noqa: F401,F403
from .align import *  # noqa: F401,F403
from .window import *  # noqa: F401,F403
from .cumulative import *  # noqa: F401,F403
from .groupby_more import *  # noqa: F401,F403
from .apply import *  # noqa: F401,F403
from .stats import *  # noqa: F401,F403
from .reshape import *  # noqa: F401,F403
from .frame_methods import *  # noqa: F401,F403
from .plotting import *  # noqa: F401,F403
from .rules import column_pruning, limit_pushdown, predicate_pushdown  # noqa: F401  (register the rules)
from .apply_columns import *  # noqa: F401,F403
from .aggregate import *  # noqa: F401,F403
from .eval import *  # noqa: F401,F403
from .value_ops import *  # noqa: F401,F403
from .executable import *  # noqa: F401,F403
from .quantile import *  # noqa: F401,F403
from .correlation import *  # noqa: F401,F403
from .describe import *  # noqa: F401,F403
from .frame_tensor import *  # noqa: F401,F403
from .frame_index import *  # noqa: F401,F403
from .index_methods import *  # noqa: F401,F403
from .frame_creation import *  # noqa: F401,F403
from .transpose import *  # noqa: F401,F403
from .dummies import *  # noqa: F401,F403
