"""YAML config → validated, typed config; ``--set`` overrides; the ``quick:`` profile.

A config file holds the common keys (``experiment``, ``description``, ``seed``,
``targets``, ``quick``) and, beside them, the experiment's own parameters, declared by
the experiment as a dataclass whose fields are made with :func:`param`. Every error is
one line naming the file, the key and the value (:class:`~mtc_cli.core.errors.MtcError`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtc_cli.core.errors import MtcError
from mtc_cli.run import yamlio
from mtc_cli.run.params import _unknown, build, read_yaml, to_plain

COMMON_KEYS = ("experiment", "description", "seed", "targets", "quick", "cluster")
TARGET_KEYS = ("claim", "table", "where", "expect", "paper", "kind", "testable", "why")
TARGET_KINDS = ("paper", "derived", "ours")


@dataclass(frozen=True)
class Target:
    """A claim checked on a results table after the run (:mod:`mtc_cli.show.expressions`).

    ``where`` selects rows of ``table`` (default ``summary``); ``expect`` must be true on
    every selected row. ``kind``: ``paper`` — the paper's own claim, fixed before the run;
    ``derived`` — a reading of ours beside a paper claim (another convention, more
    replications); ``ours`` — no paper claim behind it. ``testable: false`` with ``why``:
    the design cannot decide the claim; it is reported as not testable, not as held or
    failed.
    """

    claim: str
    expect: str
    table: str = "summary"
    where: str = ""
    paper: str = ""
    kind: str = "paper"
    testable: bool = True
    why: str = ""


@dataclass
class Config:
    """A loaded config: the experiment's typed parameters and the common keys."""

    path: Path
    experiment: str
    params: Any
    seed: int = 0
    description: str = ""
    targets: list[Target] = field(default_factory=list)
    quick: bool = False
    cluster: Any = None  # a ClusterSpec from the ``cluster:`` block, for the dask backend

    def resolved(self) -> dict:
        """The config as run (after ``quick`` and ``--set``), JSON-serialisable."""
        return {
            "experiment": self.experiment,
            "description": self.description,
            "seed": self.seed,
            "quick": self.quick,
            **to_plain(self.params),
            "targets": [to_plain(t) for t in self.targets],
            **({"cluster": to_plain(self.cluster)} if self.cluster is not None else {}),
        }


def load_config(path, *, quick: bool = False, overrides=(), resolve_experiment=None) -> Config:
    """Load ``path``, apply the ``quick:`` block if asked, then ``--set`` overrides.

    ``resolve_experiment(name)`` returns the experiment object (with ``.Params``) or
    raises :class:`MtcError`; by default the registry in :mod:`mtc_cli.run.registry`.
    """
    path = Path(path)
    return config_from_mapping(read_yaml(path), path, quick=quick, overrides=overrides,
                               resolve_experiment=resolve_experiment)


def config_from_mapping(raw: dict, path: Path, *, quick: bool = False, overrides=(),
                        resolve_experiment=None) -> Config:
    """A :class:`Config` from the mapping ``raw`` of a config file (``path`` names its
    source in errors and outputs): the validation of :func:`load_config`.

    With the default registry, the config is first checked against the ``Params`` read
    from the experiment's source (:mod:`mtc_cli.run.declared`), so that a bad key or value is
    reported before the experiment's module and its heavy imports are loaded."""
    if resolve_experiment is None:
        from mtc_cli.run.registry import declared_experiment, get_experiment

        _config(raw, Path(path), quick, overrides, declared_experiment)
        resolve_experiment = get_experiment
    return _config(raw, Path(path), quick, overrides, resolve_experiment)


def _config(raw, path: Path, quick, overrides, resolve_experiment) -> Config | None:
    """:func:`config_from_mapping`; None if ``resolve_experiment`` returns None (a stand-in
    that could not be read)."""
    if not isinstance(raw, dict):
        raise MtcError(f"{path}: expected a mapping of keys at the top level")
    if "experiment" not in raw:
        raise MtcError(f"{path}: missing key 'experiment'")
    name = raw["experiment"]
    if not isinstance(name, str):
        raise MtcError(f"{path}: key 'experiment': expected a name, got {name!r}")
    try:
        exp = resolve_experiment(name)
    except MtcError as exc:
        raise MtcError(f"{path}: key 'experiment': {exc}") from None
    if exp is None:
        return None
    params_cls = exp.Params
    own = [f.name for f in dataclasses.fields(params_cls)]
    valid = own + list(COMMON_KEYS)

    values = {k: v for k, v in raw.items() if k not in COMMON_KEYS}
    for key in values:
        if key not in valid:
            raise MtcError(f"{path}: {_unknown(key, valid)}")
    quick_block = raw.get("quick") or {}
    if not isinstance(quick_block, dict):
        raise MtcError(f"{path}: key 'quick': expected a mapping of overrides")
    for key in quick_block:
        if key not in own and key != "seed":
            raise MtcError(f"{path}: {_unknown(key, [*own, 'seed'], 'quick.')}")
    for key, kind in (("description", str), ("targets", list)):
        if raw.get(key) is not None and not isinstance(raw[key], kind):
            raise MtcError(f"{path}: key '{key}': expected "
                           f"{'a string' if kind is str else 'a list of targets'}")
    build(params_cls, values, str(path), "")  # the file's own values, even where quick: wins
    seed = raw.get("seed", 0)
    _check_seed(seed, path)
    if quick:
        seed = quick_block.get("seed", seed)
        values = _merge(values, {k: v for k, v in quick_block.items() if k != "seed"})

    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise MtcError(f"{path}: --set {item!r}: expected KEY=VALUE")
        try:
            value = yamlio.load_text(text, f"--set {key}") if text.strip() else ""
        except MtcError as exc:
            if "expands to" in str(exc) or "nested too deeply" in str(exc):
                raise MtcError(f"{path}: {exc}") from None
            value = text
        top = key.split(".")[0]
        if top == "seed":
            if key != "seed":
                raise MtcError(f"{path}: --set {key}: 'seed' is a number, not a mapping")
            seed = value
            continue
        if top not in own:
            raise MtcError(f"{path}: --set {key}: {_unknown(top, [*own, 'seed'])}")
        try:
            values = _set_dotted(values, key.split("."), value)
        except MtcError as exc:
            raise MtcError(f"{path}: --set {key}: {exc}") from None

    _check_seed(seed, path)
    params = build(params_cls, values, str(path), "")
    targets = [_target(t, i, path) for i, t in enumerate(raw.get("targets") or [])]
    desc = raw.get("description", "")
    cluster = None
    if raw.get("cluster") is not None:
        from mtc_cli.run.dask_backend import ClusterSpec

        cluster = build(ClusterSpec, raw["cluster"], str(path), "cluster.")
    return Config(path, name, params, seed, str(desc).strip(), targets, quick, cluster)


def _check_seed(seed, path) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise MtcError(f"{path}: key 'seed': expected a non-negative integer, got {seed!r}")


def _target(item, i, path) -> Target:
    if not isinstance(item, dict):
        raise MtcError(f"{path}: key 'targets[{i}]': expected a mapping with claim and expect")
    from mtc_cli.show import expressions

    for key in item:
        if key not in TARGET_KEYS:
            raise MtcError(f"{path}: {_unknown(key, TARGET_KEYS, f'targets[{i}].')}")
    for key in ("claim", "expect"):
        if not isinstance(item.get(key), str):
            raise MtcError(f"{path}: key 'targets[{i}].{key}': expected a string")
    for key in ("where", "expect"):
        if item.get(key):
            try:
                expressions.parse(str(item[key]))
            except MtcError as exc:
                raise MtcError(f"{path}: key 'targets[{i}].{key}': {exc}") from None
    if item.get("kind", "paper") not in TARGET_KINDS:
        raise MtcError(f"{path}: key 'targets[{i}].kind': expected one of "
                       f"{', '.join(TARGET_KINDS)}, got {item['kind']!r}")
    if not isinstance(item.get("testable", True), bool):
        raise MtcError(f"{path}: key 'targets[{i}].testable': expected true or false")
    if item.get("testable") is False and not item.get("why"):
        raise MtcError(f"{path}: key 'targets[{i}].why': a target that is not testable says "
                       "why")
    return Target(**{k: (v if k == "testable" else str(v)) for k, v in item.items()})


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _set_dotted(values, keys: list[str], value):
    """Set ``a.b.0`` style keys: names index mappings, numbers index lists (an error says
    why, the caller names the key)."""
    head, rest = keys[0], keys[1:]
    if isinstance(values, list):
        if not head.isdigit() or int(head) >= len(values):
            raise MtcError(f"index {head!r} outside a list of {len(values)}")
        out = list(values)
        i = int(head)
        out[i] = value if not rest else _set_dotted(out[i], rest, value)
        return out
    if values is not None and not isinstance(values, dict):
        raise MtcError(f"{values!r} is a single value, not a mapping")
    out = dict(values or {})
    out[head] = value if not rest else _set_dotted(out.get(head, {}), rest, value)
    return out


