"""PyTorch on Ray workers (the ``pytorch`` extra: ``pip install 'mars_on_ray[pytorch]'``).

``run_pytorch_script`` launches a script on Ray workers with torch.distributed's environment;
``MarsDataset`` and the samplers read mars data by row inside it. The launcher and dataset
need no torch themselves: the script imports it.
"""
from .dataset import MarsDataset
from .run_script import run_pytorch_script
from .sampler import DistributedSampler, RandomSampler, SequentialSampler, SubsetRandomSampler

__all__ = ["run_pytorch_script", "MarsDataset", "DistributedSampler", "RandomSampler",
           "SequentialSampler", "SubsetRandomSampler"]
