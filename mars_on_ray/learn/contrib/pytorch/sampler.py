"""Samplers of row indices for :class:`MarsDataset` (any ``DataLoader`` takes them).

They follow PyTorch's samplers of the same names (arguments, lengths, padding of the
distributed one) but draw with NumPy, so they need no torch and give the same indices on
every platform for a seed. ``generator`` may be a ``numpy.random.Generator``, a seed, or a
``torch.Generator`` (a seed is drawn from it).
"""
from __future__ import annotations

import math
import os

import numpy as np


def _rng(generator) -> np.random.Generator:
    if generator is None:
        return np.random.default_rng()
    if isinstance(generator, np.random.Generator):
        return generator
    if isinstance(generator, (int, np.integer)):
        return np.random.default_rng(int(generator))
    if hasattr(generator, "initial_seed"):  # torch.Generator
        import torch

        return np.random.default_rng(int(torch.randint(0, 2**62, (1,), generator=generator)))
    raise TypeError(f"generator must be a numpy Generator, a seed or a torch.Generator, "
                    f"got {type(generator).__name__}")


class SequentialSampler:
    """Indices 0..len(data_source)-1 in order."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler:
    """A random permutation of the indices, or ``num_samples`` drawn with replacement."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n, rng = len(self.data_source), _rng(self.generator)
        if self.replacement:
            return iter(rng.integers(0, n, size=self.num_samples).tolist())
        # without replacement: whole permutations, cut to num_samples
        rounds = -(-self.num_samples // n)
        order = np.concatenate([rng.permutation(n) for _ in range(rounds)])
        return iter(order[: self.num_samples].tolist())

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler:
    """The given ``indices`` in a random order."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        order = _rng(self.generator).permutation(len(self.indices))
        return iter([self.indices[i] for i in order])

    def __len__(self) -> int:
        return len(self.indices)


class DistributedSampler:
    """This rank's share of the indices: every ``num_replicas``-th of a (seeded, per epoch)
    shuffled order, padded by repeating the start so shares are equal, or cut short with
    ``drop_last``. ``num_replicas`` / ``rank`` default to ``WORLD_SIZE`` / ``RANK`` (set by
    :func:`run_pytorch_script`) or torch.distributed's."""

    def __init__(self, dataset, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False):
        num_replicas = _world("WORLD_SIZE", "get_world_size") if num_replicas is None else num_replicas
        rank = _world("RANK", "get_rank") if rank is None else rank
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.shuffle, self.seed, self.drop_last, self.epoch = shuffle, seed, drop_last, 0
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            indices = np.random.default_rng(self.seed + self.epoch).permutation(n).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[: self.total_size]
        else:
            pad = self.total_size - len(indices)
            while pad > 0:
                indices += indices[:pad]
                pad = self.total_size - len(indices)
        return iter(indices[self.rank: self.total_size: self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Another shuffle for each epoch (the same on every rank)."""
        self.epoch = epoch


def _world(env: str, func: str) -> int:
    if env in os.environ:
        return int(os.environ[env])
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return getattr(dist, func)()
    except ImportError:
        pass
    raise RuntimeError(f"{env} is not set and torch.distributed is not initialized: pass "
                       "num_replicas and rank")
