"""Model-order selection on a user's own data: every criterion that applies to a model,
side by side, and one answer (``mtc select``, the ``select`` experiment and
:class:`OrderSelector`). The path of a selection, from data to answer:

- :mod:`~mtc_cli.selection.options` — every option, declared once (what a selection
  computes, how a file is read, how the work runs);
- :mod:`~mtc_cli.selection.catalog` — the algorithms, criteria and tests of k = 1, each
  registered once: :mod:`~mtc_cli.selection.algorithms` (each algorithm's
  :class:`~mtc_cli.selection.spec.Algorithm`), :mod:`~mtc_cli.selection.criteria` (each
  criterion's :class:`~mtc_cli.selection.spec.Criterion`: the hooks that compute its rows,
  its reader of :mod:`~mtc_cli.selection.readers`), :mod:`~mtc_cli.selection.fitting` (the
  models fitted for one k: solution, costs, predictor, transfer cost);
- :mod:`~mtc_cli.selection.settings` — what a selection computes for one model, checked
  against the data;
- :mod:`~mtc_cli.selection.selector` — one selection made once: each model's settings, its
  tasks, and from their rows the summaries and the answer;
- :mod:`~mtc_cli.selection.tasks` and :mod:`~mtc_cli.selection.engine` — the work as
  independent tasks (random splits, the fit on all objects, reference data sets), each a
  family's shared work and its criteria's rows, seeded by the task and the data;
- :mod:`~mtc_cli.selection.choice` — each criterion's curve, choice and spread;
- :mod:`~mtc_cli.selection.voting`, :mod:`~mtc_cli.selection.auto`,
  :mod:`~mtc_cli.selection.answer` — the vote, ``auto``'s choice of algorithm, and the
  answer with its test of k = 1 and its doubt, by the rule the league ships
  (:mod:`~mtc_cli.selection.shipped`); the tests of k = 1 (:mod:`~mtc_cli.selection.gates`)
  and what they measure (:mod:`~mtc_cli.selection.measuring`);
- :mod:`~mtc_cli.selection.output`, :mod:`~mtc_cli.selection.figure`,
  :mod:`~mtc_cli.selection.projection` — what a user reads: text, JSON, the figure;
- :mod:`~mtc_cli.selection.estimator` — the scikit-learn style estimator.
"""

from mtc_cli.selection.catalog import CRITERIA, MODELS, applicable

__all__ = ["CRITERIA", "MODELS", "applicable"]
