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
from .transpose import *  # noqa: F401,F403
from .dummies import *  # noqa: F401,F403
from .raydata import *  # noqa: F401,F403
from .pivot import *  # noqa: F401,F403
