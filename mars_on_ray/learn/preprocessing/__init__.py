"""``sklearn.preprocessing`` on chunked data."""
from ._data import MinMaxScaler, minmax_scale, normalize  # noqa: F401
from ._label import LabelBinarizer, LabelEncoder, label_binarize  # noqa: F401
