"""Meta-estimators running scikit-learn estimators block by block."""
from ._parallel_post_fit import ParallelPostFit  # noqa: F401
