"""Chunk data lives in Ray's object store; this package maps Mars worker tuning onto Ray."""
from .tuning import Size, WorkerTuning, parse_dirs, parse_size, parse_size_spec

__all__ = ["Size", "WorkerTuning", "parse_dirs", "parse_size", "parse_size_spec"]
