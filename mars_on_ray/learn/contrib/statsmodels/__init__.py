"""statsmodels' distributed estimation on mars data (the ``statsmodels`` extra:
``pip install 'mars_on_ray[statsmodels]'``)."""
from .api import MarsDistributedModel, MarsResults

__all__ = ["MarsDistributedModel", "MarsResults"]
