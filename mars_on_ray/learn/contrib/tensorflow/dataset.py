"""gen_tensorflow_dataset: mars data as a ``tf.data.Dataset`` read row by row."""
from __future__ import annotations

import numpy as np

from .._extras import require
from ..pytorch.dataset import MarsDataset


def gen_tensorflow_dataset(tensors, output_shapes=None, output_types=None, fetch_kwargs=None,
                           session=None):
    """A ``tf.data.Dataset`` of the rows of ``tensors`` (one mars object, or a tuple of them
    giving tuple elements); row blocks are read from the object store as iteration reaches
    them. Shapes and types default to those of the first row."""
    tf = require("tensorflow", "tensorflow")
    single = not isinstance(tensors, tuple)
    dataset = MarsDataset(*((tensors,) if single else tensors), session=session)
    if len(dataset) == 0:
        raise ValueError("cannot make a dataset of 0 rows")
    first = dataset[0]
    if output_types is None:
        types = tuple(tf.as_dtype(np.asarray(v).dtype) for v in first)
        output_types = types[0] if single else types
    if output_shapes is None:
        shapes = tuple(tf.TensorShape(np.shape(v)) for v in first)
        output_shapes = shapes[0] if single else shapes

    def rows():
        for i in range(len(dataset)):
            row = dataset[i]
            yield row[0] if single else row

    spec = tf.nest.map_structure(lambda s, t: tf.TensorSpec(shape=s, dtype=t),
                                 output_shapes, output_types)
    return tf.data.Dataset.from_generator(rows, output_signature=spec)
