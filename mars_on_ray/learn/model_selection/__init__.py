"""``sklearn.model_selection`` for lazy data: splits, cross-validators and cross-validation."""
from ._split import (GroupKFold, KFold, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit,
                     train_test_split)
from ._validation import check_cv, cross_val_score, cross_validate

__all__ = ["GroupKFold", "KFold", "ShuffleSplit", "StratifiedKFold", "StratifiedShuffleSplit", "train_test_split",
           "check_cv", "cross_val_score", "cross_validate"]
