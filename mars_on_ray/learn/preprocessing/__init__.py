"""``sklearn.preprocessing`` on chunked data."""
from ._data import MinMaxScaler, minmax_scale, normalize
from ._encoders import OneHotEncoder, OrdinalEncoder
from ._label import LabelBinarizer, LabelEncoder, label_binarize
from ._polynomial import PolynomialFeatures
from ._scalers import (Binarizer, MaxAbsScaler, RobustScaler, StandardScaler, binarize, maxabs_scale,
                       robust_scale, scale)

__all__ = ["MinMaxScaler", "minmax_scale", "normalize", "LabelBinarizer", "LabelEncoder", "label_binarize",
           "Binarizer", "MaxAbsScaler", "RobustScaler", "StandardScaler", "binarize", "maxabs_scale",
           "robust_scale", "scale", "OneHotEncoder", "OrdinalEncoder", "PolynomialFeatures"]
