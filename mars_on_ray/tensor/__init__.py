"""The NumPy API: lazy tensors executed on Ray."""
from .numpy_names import *  # noqa: F401,F403  (first: the operations below win a shared name)
from . import fft, linalg, random, special, stats
from .arithmetic import *  # noqa: F401,F403
from .core import Tensor
from .datasource import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .contractions import *  # noqa: F401,F403
from .rechunk import *  # noqa: F401,F403
from .reduction import *  # noqa: F401,F403
from .reshape import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from .selection import *  # noqa: F401,F403
from .setops import *  # noqa: F401,F403
from .setitem import *  # noqa: F401,F403
from .histogram import *  # noqa: F401,F403
from .nonzero import *  # noqa: F401,F403
from .cumulative import *  # noqa: F401,F403
from .joining import *  # noqa: F401,F403
from .manipulation import *  # noqa: F401,F403
from .methods import *  # noqa: F401,F403
from .numeric import *  # noqa: F401,F403
from .einsum import *  # noqa: F401,F403
from .index_tricks import *  # noqa: F401,F403
from .nanquantile import *  # noqa: F401,F403
from .functional import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
from .matrices import *  # noqa: F401,F403
from .calculus import *  # noqa: F401,F403
from .signal import *  # noqa: F401,F403
from .polynomial import *  # noqa: F401,F403
from .histogramdd import *  # noqa: F401,F403
from .array_api import *  # noqa: F401,F403
from .from_frame import from_dataframe  # noqa: E402
from .io import *  # noqa: F401,F403,E402


def _totiledb(t, uri, ctx=None, key=None, timestamp=None):
    """Write this tensor as a dense TileDB array at ``uri`` (Mars' ``Tensor.totiledb``)."""
    return to_tiledb(uri, t, ctx=ctx, key=key, timestamp=timestamp)  # noqa: F405


Tensor.totiledb = _totiledb
