"""``sklearn.metrics`` on chunked data: lazy scalars and tensors equal to scikit-learn's."""
from . import pairwise
from ._classification import (accuracy_score, f1_score, fbeta_score, multilabel_confusion_matrix,
                              precision_recall_fscore_support, precision_score, recall_score)
from ._confusion import (balanced_accuracy_score, classification_report, cohen_kappa_score,
                         confusion_matrix, hamming_loss, jaccard_score, matthews_corrcoef, zero_one_loss)
from ._errors import (explained_variance_score, max_error, mean_absolute_error,
                      mean_absolute_percentage_error, mean_squared_error, mean_squared_log_error,
                      median_absolute_error, root_mean_squared_error, root_mean_squared_log_error)
from ._log_loss import log_loss
from ._ranking import auc, average_precision_score, precision_recall_curve, roc_auc_score, roc_curve
from ._regression import r2_score
from .pairwise import pairwise_distances

__all__ = ["pairwise", "accuracy_score", "f1_score", "fbeta_score", "multilabel_confusion_matrix",
           "precision_recall_fscore_support", "precision_score", "recall_score", "balanced_accuracy_score",
           "classification_report", "cohen_kappa_score", "confusion_matrix", "hamming_loss", "jaccard_score",
           "matthews_corrcoef", "zero_one_loss", "explained_variance_score", "max_error", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_log_error",
           "median_absolute_error", "root_mean_squared_error", "root_mean_squared_log_error", "log_loss", "auc",
           "average_precision_score", "precision_recall_curve", "roc_auc_score", "roc_curve", "r2_score",
           "pairwise_distances"]
