"""The one engine of a selection: ``mtc select`` (the ``select`` experiment),
:class:`~mtc_cli.selection.estimator.OrderSelector` and the league of families plan, seed
and run their tasks here, so that one matrix, one set of settings and one seed give the same
rows whatever the file format or the entry point.

A task's generator is spawned from the seed by the hash of the task and of the matrix the
criteria see (:func:`data_digest`: its float64 values and shape, and the training labels
when PAC-MDL reads them), never from a file's bytes: the same numbers saved as CSV, TSV
or NPY, or passed as a DataFrame, are one matrix.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd
import scipy.sparse as sp

from mtc_cli.run.tasking import ROW_COLUMNS, plain, task_key, task_rng
from mtc_cli.selection.settings import Settings
from mtc_cli.selection.tasks import plan, run_task

#: the name every selection's task keys are hashed under (that of the ``select`` experiment)
NAME = "select"


def canonical(X):
    """The one form the criteria compute on: dense float64 in C order, or CSR with summed
    duplicates and sorted indices. BLAS rounds products of C- and F-ordered operands in other
    last bits, so the same values in another layout would give other scores."""
    if sp.issparse(X):
        A = sp.csr_matrix(X, dtype=np.float64, copy=True)
        A.sum_duplicates()
        A.sort_indices()
        return A
    return np.ascontiguousarray(X, dtype=np.float64)


def data_digest(X, train_labels=None) -> str:
    """sha256 (24 hex digits) of the matrix the criteria see, in its :func:`canonical` form
    — dense: its values and shape; sparse: its CSR arrays and shape — and of the training
    labels (None: unlabelled) if given."""
    h = hashlib.sha256()
    A = canonical(X)
    if sp.issparse(A):
        h.update(f"csr{A.shape}".encode())
        for part, dtype in ((A.data, np.float64), (A.indices, np.int64),
                            (A.indptr, np.int64)):
            h.update(np.ascontiguousarray(part, dtype=dtype).tobytes())
    else:
        h.update(f"dense{A.shape}".encode())
        h.update(A.tobytes())
    if train_labels is not None:
        labels = [None if v is None else str(v) for v in train_labels]
        h.update(json.dumps(labels).encode())
    return h.hexdigest()[:24]


def tasks(settings: Settings, digest: str) -> list[dict]:
    """The tasks of a selection (:func:`mtc_cli.selection.tasks.plan`), each naming the
    matrix it runs on."""
    return [{**t, "data": digest} for t in plan(settings)]


def rng_of(seed: int, task: dict) -> np.random.Generator:
    """The generator of a selection task: spawned from ``seed`` by the task's key, exactly
    as the runner spawns it for the ``select`` experiment."""
    return task_rng(seed, task_key(NAME, seed, task))


def tidy(rows: list[dict]) -> pd.DataFrame:
    """Rows as a table with the runner's column order (``rep, criterion, k, score`` first)."""
    df = pd.DataFrame(rows)
    front = [c for c in ROW_COLUMNS if c in df.columns]
    return df[front + [c for c in df.columns if c not in front]]


def run(X, settings: Settings, seed: int, *, train_labels=None, n_jobs: int = 1) -> pd.DataFrame:
    """Every task of the selection on X (in its :func:`canonical` form), in task order: the
    runner's rows of ``mtc select`` on the same matrix, settings and seed; ``n_jobs``
    processes, one BLAS thread each."""
    return run_all({settings.model: (X, settings)}, seed, train_labels=train_labels,
                   n_jobs=n_jobs)[settings.model]


#: seconds a selection in this process runs before its progress shows (:func:`run_all`)
PROGRESS_DELAY = 3.0


def run_all(selections: dict, seed: int, *, train_labels=None, n_jobs: int = 1,
            progress: str | None = None) -> dict:
    """model → the rows of :func:`run` of each selection of ``selections`` (model → (X, its
    Settings)), every task in one pool of ``n_jobs`` processes. ``progress``: the label of
    the runner's progress (:class:`mtc_cli.run.runner.Progress`, on stderr) of the tasks,
    shown once the selection has run :data:`PROGRESS_DELAY` seconds; None: none."""
    work = []
    for model, (X, settings) in selections.items():
        X = canonical(X)
        work += [(model, X, t) for t in tasks(settings, data_digest(X, train_labels))]
    bar = None
    if progress is not None:
        from mtc_cli.run.runner import Progress

        bar = Progress(len(work), 0, progress, delay=PROGRESS_DELAY)
    parts: list = [None] * len(work)
    try:
        if n_jobs == 1 or len(work) <= 1:
            done = ((i, _task_rows(X, t, seed, train_labels))
                    for i, (_, X, t) in enumerate(work))
        else:
            from joblib import Parallel, delayed

            done = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(_indexed)(i, X, t, seed, train_labels)
                for i, (_, X, t) in enumerate(work))
        for i, rows in done:
            parts[i] = rows
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    return {model: tidy([row for (m, _, _), part in zip(work, parts, strict=True)
                         if m == model for row in part]) for model in selections}


def _indexed(i: int, X, task: dict, seed: int, train_labels) -> tuple[int, list[dict]]:
    return i, _task_rows(X, task, seed, train_labels)


def _task_rows(X, task: dict, seed: int, train_labels) -> list[dict]:
    """The rows of one task as the runner caches them, on one BLAS thread."""
    from joblib import parallel_config
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1), parallel_config(backend="sequential"):
        rows = run_task(X, task, rng_of(seed, task), train_labels=train_labels)
    # as the runner's cache stores them: plain JSON values
    return json.loads(json.dumps(rows, default=plain, allow_nan=True))


def clustering(X, settings: Settings, k: int, seed: int, digest: str) -> np.ndarray:
    """The clustering of all objects at ``k`` that a selection reports (``labels_``, the
    projection of ``mtc select``): one fit of the model, its generator spawned like a
    task's."""
    from mtc_cli.selection.catalog import ALGORITHMS

    task = {"family": "labels", "model": settings.model, "k": int(k), "n_init": settings.n_init,
            "covariance_type": settings.covariance_type, "data": digest}
    model = ALGORITHMS[settings.model].build(settings)
    return model.fit(canonical(X), int(k), rng_of(seed, task)).labels
