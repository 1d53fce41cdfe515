"""``mtc select``: which k? on a user's own data — every criterion that applies to the
model, side by side, with a vote (no paper targets are evaluated here).

The data file is read once per process (:mod:`mtc_cli.core.datasets.user_data`); the work is
split into the tasks of the selection engine (:mod:`mtc_cli.selection.engine`: random
halves, the fit on all objects, reference data sets), so that the runner caches,
parallelises and resumes it as any experiment. A task's key holds the digest of the matrix
the criteria see, not the file's bytes: the same numbers in another format, or given to
``OrderSelector``, are the same tasks with the same generators. Where the file is and how it
is read is the task's ``location``, outside its key.
"""

from __future__ import annotations

from experiments.select import figures
from experiments.select import tables as derived
from experiments.select.protocol import Params, SelectProtocol

__all__ = ["Params", "experiment"]


class Select(SelectProtocol):
    summarize = derived.summarize
    tables = derived.tables
    report = derived.report
    summary_json = derived.summary_json
    plot = figures.plot
    #: what the summary and the figure (matplotlib's pyplot on Agg) import, imported by
    #: ``mtc_cli.run.pipeline.preload`` while the tasks are computed
    summary_modules = ("mtc_cli.selection.choice", "mtc_cli.core.criteria.clest",
                       "mtc_cli.selection.figure", "mtc_cli.show.plotting:pyplot")
    #: what a worker imports before its first task (``mtc select -j N`` starts them early)
    worker_modules = ("experiments.select", "mtc_cli.selection.tasks",
                      "mtc_cli.selection.fitting")
    tables_read_seed = True

    def summary_modules_of(self, p) -> tuple[str, ...]:
        """:attr:`summary_modules`, and scikit-learn's cluster module where the answer
        measures HDBSCAN's count (a test of k = 1 of the shipped rule, or its count in
        ``auto``'s consensus)."""
        from experiments.select.protocol import selection_of
        from mtc_cli.selection.answer import shipped_rule

        rule = shipped_rule()
        counts = rule.tests or (selection_of(p).auto and rule.count_use != "none")
        return self.summary_modules + (("sklearn.cluster",) if counts else ())


experiment = Select()
