"""``sklearn.utils`` over lazy tensors: validation, target types, shuffling."""
from .validation import (assert_all_finite, check_array, check_consistent_length, check_X_y,  # noqa: F401
                         column_or_1d)
