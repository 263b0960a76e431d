"""The scikit-learn API on chunked data (the README's example): `python examples/learn_quickstart.py`."""
from sklearn.linear_model import LogisticRegression

import mars_on_ray as mr
from mars_on_ray.learn import datasets, metrics, model_selection
from mars_on_ray.learn.cluster import KMeans
from mars_on_ray.learn.decomposition import PCA
from mars_on_ray.learn.wrappers import ParallelPostFit

mr.new_session()
X, y = datasets.make_classification(1_000_000, 20, random_state=1, chunk_size=100_000)
X_train, X_test, y_train, y_test = model_selection.train_test_split(X, y, random_state=0)
km = KMeans(n_clusters=8, random_state=0).fit(X_train)      # k-means|| init, Lloyd iterations
print("cluster sizes", (km.predict(X_test).execute().fetch()[:, None] == range(8)).sum(axis=0))
print("explained variance ratio", PCA(n_components=5).fit(X_train).explained_variance_ratio_)
clf = ParallelPostFit(LogisticRegression()).fit(X_train[:50_000], y_train[:50_000])
print("accuracy", metrics.accuracy_score(y_test, clf.predict(X_test)).execute().fetch())
