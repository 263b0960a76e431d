"""``mars_on_ray.learn.ensemble``: bagging, blockwise voting and isolation forests."""
from ._bagging import BaggingClassifier, BaggingRegressor
from ._blockwise import BlockwiseVotingClassifier, BlockwiseVotingRegressor
from ._iforest import IsolationForest

__all__ = ["BaggingClassifier", "BaggingRegressor", "BlockwiseVotingClassifier", "BlockwiseVotingRegressor",
           "IsolationForest"]
