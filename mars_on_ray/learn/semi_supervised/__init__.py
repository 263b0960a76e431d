"""``mars_on_ray.learn.semi_supervised``: LabelPropagation over chunked data."""
from ._label_propagation import LabelPropagation

__all__ = ["LabelPropagation"]
