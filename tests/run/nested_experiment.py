"""A tiny experiment whose tasks report what a parallel call inside a task sees: joblib's
effective number of jobs and scikit-learn's silhouette on 3 000 points (whose pairwise
distances scikit-learn splits across jobs when it may). Importable as
``nested_experiment`` for the backend tests."""

from dataclasses import dataclass

from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param


@dataclass(frozen=True)
class Params:
    n: int = param(2, help="tasks", min=1)


class Nested(Experiment):
    name = "nested"
    Params = Params
    condition = ("i",)
    select = {"jobs": "min", "silhouette": "max"}

    def tasks(self, p):
        return [{"i": i} for i in range(p.n)]

    def run_task(self, task, rng):
        from joblib import effective_n_jobs
        from sklearn.metrics import silhouette_score

        X = rng.standard_normal((3000, 10))
        labels = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0)
        return [{"i": task["i"], "rep": 0, "criterion": "jobs", "k": 1,
                 "score": float(effective_n_jobs(None))},
                {"i": task["i"], "rep": 0, "criterion": "silhouette", "k": 3,
                 "score": float(silhouette_score(X, labels))}]


experiment = Nested()
