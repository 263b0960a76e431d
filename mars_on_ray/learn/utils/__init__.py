"""``sklearn.utils`` over lazy tensors: validation, target types, shuffling."""
from . import multiclass, validation  # noqa: F401
from ._shuffle import shuffle  # noqa: F401
from .validation import (assert_all_finite, check_array, check_consistent_length, check_X_y,  # noqa: F401
                         column_or_1d)
