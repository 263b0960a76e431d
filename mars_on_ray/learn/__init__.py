"""The scikit-learn API (estimators arrive with their own issue)."""
