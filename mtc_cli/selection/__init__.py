"""Model-order selection on a user's own data: every criterion that applies to a model,
side by side (``mtc select``, the ``select`` experiment and :class:`OrderSelector`).

- :mod:`~mtc_cli.selection.fitting` — what is being counted (Gaussians, clusters, rank,
  roles): each model fitted for one k, with its object-wise costs, predictor and transfer
  cost;
- :mod:`~mtc_cli.selection.catalog` — the criteria: which models they apply to, where
  they are defined, what they optimise and how they choose k;
- :mod:`~mtc_cli.selection.tasks` — the work as independent tasks (random splits into
  halves, the fit on all objects, reference data sets), each returning tidy rows;
- :mod:`~mtc_cli.selection.choice` — the rows turned into each criterion's curve, its
  choice, the spread of the choice over splits and the majority vote;
- :mod:`~mtc_cli.selection.estimator` — the scikit-learn style estimator.
"""

from mtc_cli.selection.catalog import CRITERIA, MODELS, applicable

__all__ = ["CRITERIA", "MODELS", "applicable"]
