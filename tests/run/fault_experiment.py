"""A tiny experiment whose task 1 kills its own worker process the first time it runs
(fault-injection for the backend tests; importable as ``fault_experiment``)."""

import os
from dataclasses import dataclass
from pathlib import Path

from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param


@dataclass(frozen=True)
class Params:
    marker_dir: str = param("", help="where the first attempt of task 1 leaves its mark")
    n: int = param(4, help="tasks", min=1)


class Fault(Experiment):
    name = "fault"
    Params = Params
    condition = ("i",)
    select = {"x": "min"}

    def tasks(self, p):
        return [{"i": i, "marker_dir": p.marker_dir} for i in range(p.n)]

    def run_task(self, task, rng):
        mark = Path(task["marker_dir"]) / "task1-died"
        if task["i"] == 1 and not mark.exists():
            mark.touch()
            os._exit(1)  # the worker dies mid-task, once
        return [{"i": task["i"], "rep": 0, "criterion": "x", "k": k, "score": float(rng.random())}
                for k in (1, 2)]


experiment = Fault()
