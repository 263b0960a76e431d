"""Distributed XGBoost on mars data (the ``xgboost`` extra: ``pip install 'mars_on_ray[xgboost]'``).

``train`` / ``XGBClassifier.fit`` / ``XGBRegressor.fit`` run one Ray worker per data shard
joined by XGBoost's collective; ``predict`` returns lazy tensors computed chunk by chunk.
"""
from .._extras import optional, unavailable

__all__ = ["MarsDMatrix", "train", "predict", "XGBClassifier", "XGBRegressor"]

if optional("xgboost") is None:
    MarsDMatrix, train, predict, XGBClassifier, XGBRegressor = (
        unavailable(name, "xgboost", "xgboost") for name in __all__)
else:
    from .dmatrix import MarsDMatrix
    from .predict import predict
    from .sklearn import XGBClassifier, XGBRegressor
    from .train import train
