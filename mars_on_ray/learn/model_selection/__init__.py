"""``sklearn.model_selection`` for lazy data: ``train_test_split`` and ``KFold``."""
from ._split import KFold, train_test_split  # noqa: F401
