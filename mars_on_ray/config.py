"""Global options (a small mutable namespace; ``mr.options.chunk_store_limit = ...``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Options:
    #: upper bound of one chunk in bytes when the user gives no chunk size
    chunk_store_limit: int = 128 * 1024**2
    #: show a progress bar for executions longer than this many seconds (None: never)
    progress_bar_after: float | None = 1.0
    #: groupby: at most this many groups in a chunk's partial use a tree reduction, more a shuffle
    groupby_tree_max_groups: int = 10_000
    #: fan-in of tree reductions
    combine_size: int = 4
    #: retries of a subtask whose worker died (user exceptions are never retried)
    subtask_max_retries: int = 3


options = Options()
