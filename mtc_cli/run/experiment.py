"""What an experiment is: the protocol the runner is handed.

An experiment module in ``experiments/`` defines a subclass of :class:`Experiment` and
exposes one instance as ``experiment``. The runner knows nothing else about it. A shipped
experiment is a package, ``experiments/<name>/``: ``protocol.py`` defines the subclass with
what computes the rows (``Params``, ``check``, ``tasks``, ``run_task``, ``paper_targets``),
``tables.py`` and ``figures.py`` the functions that derive the tables and draw the figures
from them (``summarize``, ``tables``, ``timing``, ``report``; ``plot``), and ``__init__.py``
assembles them as the methods of a subclass of the protocol. The code version is that of
the module defining ``run_task`` (:func:`mtc_cli.run.runner.experiment_version`), which
imports neither tables nor figures; a plugin may be one module.

- ``Params``: a dataclass of the experiment's config keys (fields made with
  :func:`mtc_cli.run.params.param`).
- ``tasks(params)``: one dict per sweep point × repetition. A task holds everything its
  computation depends on (and nothing about other sweep points): it is hashed into the
  task's cache key and the spawn key of its random generator.
- ``run_task(task, rng)``: the rows of one task, as a list of dicts with the condition
  columns, ``rep``, ``criterion``, ``k`` and ``score`` (extra columns allowed).
- ``summarize(rows, params)``: one row per condition × criterion with ``selected_k``,
  ``selected_k_q25``, ``selected_k_q75`` (and ``true_k`` / ``oracle_k`` where known).
- ``tables(rows, summary, params)``: optional further tables, by name, for targets.
- ``timing_columns`` and ``timing(rows)``: row columns holding wall-clock measurements.
  They stay in the task cache but out of ``rows.csv`` and every table (the CSVs must be
  byte-identical across runs); ``timing`` summarises them into ``run.json``.
- ``plot(rows, summary, params, outdir)``: draw the figures from the tables alone.
- ``paper_targets(params)``: whether the config's paper targets apply to this run (not on
  a user's own data); ``report(summary, params, run_dir)``: the text ``mtc`` prints after
  a run (default: the selection summary and the targets).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError
from mtc_cli.show.tables import summarize_selection


def physical_memory() -> int:
    """Bytes of physical memory of this machine."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_memory(key: str, n_bytes: float) -> None:
    """Refuse, before anything is written, a config whose arrays (about ``n_bytes``)
    cannot fit in this machine's memory; the error names the key that sizes them."""
    total = physical_memory()
    if n_bytes > total:
        raise MtcError(f"key '{key}': the arrays would need about {n_bytes / 2**30:,.0f} GiB "
                       f"of memory; this machine has {total / 2**30:.0f} GiB")


class Experiment:
    name: str = ""
    description: str = ""
    Params: type = None
    #: columns of ``rows`` that identify a condition (a sweep point)
    condition: tuple[str, ...] = ()
    #: criterion → ``"min"`` or ``"max"``: how one repetition selects k from its scores
    select: dict[str, str] = {}
    #: columns of ``run_task``'s rows that are wall-clock measurements (see :meth:`timing`)
    timing_columns: tuple[str, ...] = ()

    def tasks(self, params) -> list[dict]:
        raise NotImplementedError

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        raise NotImplementedError

    def small(self, params) -> bool:
        """Whether the tasks are small enough to compute on threads of the main process
        (``-j N``: N threads, no worker processes to start): False by default."""
        return False

    def task_bytes(self, params) -> float:
        """About the memory a worker needs for one task beyond its imports (bytes): how many
        workers fit (:func:`mtc_cli.run.workers.count`); 0 where it is small."""
        return 0.0

    def summarize(self, rows: pd.DataFrame, params) -> pd.DataFrame:
        return summarize_selection(rows, list(self.condition), self.select)

    def tables(self, rows: pd.DataFrame, summary: pd.DataFrame, params) -> dict:
        return {}

    def timing(self, rows: pd.DataFrame) -> pd.DataFrame | None:
        """A summary of the ``timing_columns`` of the cached rows, recorded in run.json."""
        return None

    def plot(self, rows: pd.DataFrame, summary: pd.DataFrame, params, outdir: Path) -> list:
        return []

    def paper_targets(self, params) -> bool:
        return True

    def report(self, summary: pd.DataFrame, params, run_dir: Path) -> str | None:
        return None
