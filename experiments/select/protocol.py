"""What ``select`` computes: its parameters, its tasks and the rows of one task — the code
its code version holds (nothing here imports its tables, its figures or the show layer).

The selection itself is :class:`mtc_cli.selection.selector.Selection`, made once per config
in a process (:func:`selection_of`); this module reads the data file and hands the tasks to
the runner."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtc_cli.core.errors import MtcError, not_found, not_regular
from mtc_cli.core.files import file_sha256
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import to_plain
from mtc_cli.run.tasking import LOCATION
from mtc_cli.selection.options import Options, Reading
from mtc_cli.selection.selector import Selection

#: the largest matrix (n × d numbers) whose selection runs on threads of the main process
#: rather than in worker processes: measured, tests/benchmarks/bench_select.py
THREADS_UP_TO = 2_000_000
#: the reading options a data file is read with (every key of Reading but the file and
#: ``tfidf``, which makes the matrix of spherical k-means from what is read)
READ = ("format", "label_column", "train_labels", "columns", "drop", "header", "sep",
        "dropna", "standardize", "patch", "max_pixels")


@dataclass(frozen=True)
class Params(Options, Reading):
    """The keys of a select config: how the data file is read
    (:class:`~mtc_cli.selection.options.Reading`) and what the selection computes
    (:class:`~mtc_cli.selection.options.Options`)."""


def location(p: Params) -> str:
    """Where the data file is (a task's ``location``, outside its cache key)."""
    if p.data is None:
        raise MtcError("key 'data': a data file is required")
    path = Path(p.data)
    if not path.exists():
        raise MtcError(f"{path}: {not_found(path, 'data file')}")
    why = not_regular(path)
    if why is not None:
        raise MtcError(f"{path}: {why}")
    return str(path.resolve())


def reading(p: Params) -> dict:
    """How the data file is read, as plain values."""
    return {k: to_plain(getattr(p, k)) for k in READ}


#: (path, its size and time of change, how it is read) → (the data read, the matrices each
#: model sees: :func:`mtc_cli.selection.selector.prepared`), in this process
_DATA: dict = {}
#: (the same, the options) → the selection, in this process
_SELECTIONS: dict = {}


def load(path: str, read: dict) -> tuple:
    """(the data file ``path`` read with ``read`` (:func:`reading`), the store of its
    matrices), once per process and version of the file
    (:func:`mtc_cli.core.datasets.user_data.load`)."""
    from mtc_cli.core.datasets import user_data

    key = _version(path, read)
    if key not in _DATA:
        _DATA.clear()  # one data file at a time: a process runs one selection
        _DATA[key] = (user_data.load(Path(path), **read), {})
    return _DATA[key]


def _version(path: str, *more) -> tuple:
    stat = Path(path).stat()
    return (path, stat.st_size, stat.st_mtime_ns, *(json.dumps(m, sort_keys=True)
                                                     for m in more))


def selection_of(p: Params) -> Selection:
    """The :class:`~mtc_cli.selection.selector.Selection` of a config, made once per process
    and version of the data file."""
    path = location(p)
    key = _version(path, to_plain(p))
    if key not in _SELECTIONS:
        options = Options(**{f: getattr(p, f) for f in Options.__dataclass_fields__})
        data, store = load(path, reading(p))
        _SELECTIONS.clear()
        _SELECTIONS[key] = Selection(data, options, tfidf=p.tfidf, store=store)
    return _SELECTIONS[key]


def run_folder(p: Params, seed: int) -> tuple[Path, str]:
    """(``results/select/<data stem>-<model>-<digest>``, the digest): the run folder of a
    selection — one per question asked of a data file — and the sha256 of what decides its
    answer: the data file's bytes, the data stem and model (given or by default), how the
    file is read (the keys not at their default), each model's Settings as resolved (k
    range, criteria in the catalog's order, restarts: a default spelt out or criteria
    reordered ask the same question) and the seed; not where the file is, nor how or where
    the run is done (-j, --backend, --out, --json). A folder made before the digest read the
    resolved settings (:func:`_options_folder`) is found and kept."""
    from mtc_cli.selection.catalog import CRITERIA

    name = run_name(p)
    defaults = to_plain(Params())
    read = {k: v for k, v in to_plain(p).items() if k in (*READ, "tfidf") and v != defaults[k]}
    order = list(CRITERIA)
    settings = {m: to_plain({**dataclasses.asdict(s),
                             "criteria": sorted(s.criteria, key=order.index)})
                for m, s in selection_of(p).settings.items()}
    question = {"data": file_sha256(p.data), "name": name, "seed": seed, "read": read,
                "settings": settings}
    digest = hashlib.sha256(json.dumps(question, sort_keys=True).encode()).hexdigest()
    folder = Path("results") / "select" / f"{name}-{digest[:6]}"
    if not folder.exists():
        earlier = _options_folder(p, seed, name)
        if earlier[0].exists():
            return earlier
    return folder, digest


def _options_folder(p: Params, seed: int, name: str) -> tuple[Path, str]:
    """The run folder as named before its digest read the resolved settings: by every key
    not at its default, as given."""
    defaults = to_plain(Params())
    options = {k: v for k, v in to_plain(p).items()
               if k not in ("data", "model") and v != defaults[k]}
    options.update(data=file_sha256(p.data), name=name, seed=seed)
    digest = hashlib.sha256(json.dumps(options, sort_keys=True).encode()).hexdigest()
    return Path("results") / "select" / f"{name}-{digest[:6]}", digest


def run_name(p: Params) -> str:
    """``<data stem>-<model>``: the run folder's name before its digest."""
    return f"{Path(p.data).name.split('.')[0]}-{selection_of(p).model}"


class SelectProtocol(Experiment):
    name = "select"
    description = "Which k? Every criterion on your own data, side by side, with a vote"
    Params = Params
    condition = ()

    def check(self, p: Params) -> None:
        selection_of(p)

    def small(self, p: Params) -> bool:
        """At most :data:`THREADS_UP_TO` numbers in the matrix: the tasks run on threads of
        the main process (their fits compiled, the GIL released), not in worker processes."""
        data = selection_of(p).data
        return data.n_items * data.n_features <= THREADS_UP_TO

    def task_bytes(self, p: Params) -> float:
        return selection_of(p).task_bytes()

    def run_name(self, p: Params) -> str:
        return run_name(p)

    def run_folder(self, p: Params, seed: int) -> tuple[Path, str]:
        return run_folder(p, seed)

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        sel = selection_of(p)
        # with ``auto``, rows say their model; outside the task's key (as the file's
        # location), so that the tasks are those of each model alone and of OrderSelector
        where = {"path": location(p), "read": reading(p), "tfidf": p.tfidf,
                 "rows_name_model": sel.auto}
        return [{**t, LOCATION: where} for t in sel.tasks()]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        from mtc_cli.selection.selector import prepared
        from mtc_cli.selection.tasks import run_task

        where = task[LOCATION]
        data, store = load(where["path"], where["read"])
        X, digest, train_labels = prepared(store, data, task["model"], where["tfidf"])
        if digest != task["data"]:
            raise MtcError(f"{where['path']}: the data changed since this run was planned; run "
                           "the command again")
        rows = run_task(X, task, rng, train_labels=train_labels)
        return ([{**r, "model": task["model"]} for r in rows]
                if where.get("rows_name_model") else rows)
