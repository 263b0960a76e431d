"""The seed example: NumPy and pandas APIs on an embedded local Ray."""
import numpy as np
import pandas as pd

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt

session = mr.new_session()  # no ray.init() first: starts a local Ray
a = mt.ones((2000, 2000), chunk_size=200)
b = mt.inner(a, a)
b.execute()
print("inner:", b.fetch()[:2, :4], "...")
np.testing.assert_array_equal(b.fetch(), np.inner(np.ones((2000, 2000)), np.ones((2000, 2000))))

df = md.DataFrame(a).sum()
df.execute()
print("DataFrame(a).sum():", df.fetch().head(3).to_dict(), "...")
pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(np.ones((2000, 2000))).sum())
session.close()
print("quickstart OK")
