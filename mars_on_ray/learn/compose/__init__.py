"""``mars_on_ray.learn.compose``: scikit-learn's ColumnTransformer on mars DataFrames."""
from ._column_transformer import ColumnTransformer, make_column_transformer

__all__ = ["ColumnTransformer", "make_column_transformer"]
