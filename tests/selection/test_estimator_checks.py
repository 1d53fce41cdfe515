"""scikit-learn's estimator checks (``parametrize_with_checks``) on three small
OrderSelectors: the default model (the league's answer for dense input, spherical k-means for
sparse), k-means (dense input only) and spherical k-means (the one model that takes sparse
input: its all-zero rows, which have no direction, are left out with label −1).

Every check scikit-learn yields for an estimator with ``fit`` alone runs, none expected to
fail. Skipped:

- ``check_array_api_input``: scikit-learn skips it unless ``SCIPY_ARRAY_API=1``; the
  selection computes with numpy only (no ``array_api_support`` tag).

Not yielded, as they do not apply to an unsupervised selector without ``predict`` or
``transform``: the classifier, regressor, transformer, clustering and outlier checks,
those of ``sample_weight`` (fit takes none), ``check_requires_y_none`` (y is optional),
``check_fit_non_negative`` (no ``positive_only`` tag) and ``check_nonsquare_error`` (not
pairwise).
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from mtc_cli.selection.estimator import OrderSelector

SMALL = {"k": (1, 3), "splits": 2, "references": 2, "clest_references": 1, "clest_splits": 2}


@parametrize_with_checks([OrderSelector(**SMALL), OrderSelector(model="kmeans", **SMALL),
                          OrderSelector(model="spkmeans", **SMALL)])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
