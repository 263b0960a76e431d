"""``sklearn.metrics`` on chunked data: lazy scalars and tensors equal to scikit-learn's."""
from . import pairwise  # noqa: F401
from ._classification import (accuracy_score, f1_score, fbeta_score, multilabel_confusion_matrix,  # noqa: F401
                              precision_recall_fscore_support, precision_score, recall_score)
from ._log_loss import log_loss  # noqa: F401
from ._ranking import auc, roc_auc_score, roc_curve  # noqa: F401
from ._regression import r2_score  # noqa: F401
from .pairwise import pairwise_distances  # noqa: F401
