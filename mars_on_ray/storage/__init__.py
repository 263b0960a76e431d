"""Chunk data lives in Ray's object store; this package maps Mars worker tuning onto Ray."""
from .tuning import WorkerTuning, parse_size

__all__ = ["WorkerTuning", "parse_size"]
