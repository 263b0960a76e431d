"""TensorFlow on Ray workers (the ``tensorflow`` extra: ``pip install 'mars_on_ray[tensorflow]'``)."""
from .dataset import gen_tensorflow_dataset
from .run_script import run_tensorflow_script

__all__ = ["run_tensorflow_script", "gen_tensorflow_dataset"]
