"""Transformers' output container: lazy tensors only (scikit-learn's ``set_output``)."""
from __future__ import annotations


class LazyOutputMixin:
    """Before ``TransformerMixin`` in a transformer's bases: scikit-learn does not wrap its
    transform (it would build a pandas frame from a lazy tensor) and ``set_output`` accepts
    only the default container."""

    def __init_subclass__(cls, **kwargs):
        kwargs.setdefault("auto_wrap_output_keys", None)
        super().__init_subclass__(**kwargs)

    def set_output(self, *, transform=None):
        """Only ``'default'`` (or None): transforms give lazy tensors."""
        if transform not in (None, "default"):
            raise NotImplementedError(
                f"{type(self).__name__}.set_output(transform={transform!r}): mars_on_ray's transformers give lazy "
                "tensors; make a frame of one with md.DataFrame(result, columns=est.get_feature_names_out())")
        return self
