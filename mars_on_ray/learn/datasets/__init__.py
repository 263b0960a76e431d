"""``sklearn.datasets`` sample generators producing chunked tensors (see ``_samples_generator``
for what reproducibility they guarantee)."""
from ._samples_generator import make_blobs, make_classification, make_low_rank_matrix, make_regression  # noqa: F401
