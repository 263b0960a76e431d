"""Tileable-level optimizer rules for DataFrames, one per module; ``usage`` is what they know
of each operation (registered by the operations themselves)."""
