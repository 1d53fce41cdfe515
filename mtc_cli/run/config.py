"""YAML config → validated, typed config; ``--set`` overrides; the ``quick:`` profile.

A config file holds the common keys (``experiment``, ``description``, ``seed``,
``targets``, ``quick``) and, beside them, the experiment's own parameters, declared by
the experiment as a dataclass whose fields are made with :func:`param`. Every error is
one line naming the file, the key and the value (:class:`~mtc_cli.errors.MtcError`).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtc_cli import yamlio
from mtc_cli.errors import MtcError, not_found

PROJECT_ROOT = Path(__file__).resolve().parent.parent
COMMON_KEYS = ("experiment", "description", "seed", "targets", "quick", "cluster")
TARGET_KEYS = ("claim", "table", "where", "expect", "paper", "kind", "testable", "why")
TARGET_KINDS = ("paper", "derived", "ours")


def param(default, help: str, *, min=None, max=None, choices=None,  # noqa: A002
          allow_nan: bool = False):
    """A config parameter: default, one-line help and optional range or choices. A float
    must be finite unless ``allow_nan``."""
    meta = {"help": help, "min": min, "max": max, "choices": choices, "allow_nan": allow_nan}
    if isinstance(default, list | dict):
        return field(default_factory=lambda: _copy(default), metadata=meta)
    return field(default=default, metadata=meta)


def _copy(value):
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Target:
    """A claim checked on a results table after the run (:mod:`mtc_cli.expressions`).

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


def to_plain(obj):
    """Dataclasses, paths and tuples → plain dicts, strings and lists."""
    if dataclasses.is_dataclass(obj):
        return {f.name: to_plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, list | tuple):
        return [to_plain(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_plain(v) for k, v in obj.items()}
    if isinstance(obj, Path):
        try:
            return str(obj.relative_to(PROJECT_ROOT))
        except ValueError:
            return str(obj)
    return obj


def read_yaml(path: Path) -> dict:
    """Read a YAML mapping (:func:`mtc_cli.yamlio.read`: missing, binary, oversized or
    malformed files, duplicate keys and alias bombs are one-line errors)."""
    data = yamlio.read(path)
    if not isinstance(data, dict):
        raise MtcError(f"{path}: expected a mapping of keys at the top level")
    return data


def load_config(path, *, quick: bool = False, overrides=(), resolve_experiment=None) -> Config:
    """Load ``path``, apply the ``quick:`` block if asked, then ``--set`` overrides.

    ``resolve_experiment(name)`` returns the experiment object (with ``.Params``) or
    raises :class:`MtcError`; by default the registry in :mod:`mtc_cli.registry`.
    """
    path = Path(path)
    return config_from_mapping(read_yaml(path), path, quick=quick, overrides=overrides,
                               resolve_experiment=resolve_experiment)


def config_from_mapping(raw: dict, path: Path, *, quick: bool = False, overrides=(),
                        resolve_experiment=None) -> Config:
    """A :class:`Config` from the mapping ``raw`` of a config file (``path`` names its
    source in errors and outputs): the validation of :func:`load_config`.

    With the default registry, the config is first checked against the ``Params`` read
    from the experiment's source (:mod:`mtc_cli.declared`), so that a bad key or value is
    reported before the experiment's module and its heavy imports are loaded."""
    if resolve_experiment is None:
        from mtc_cli.registry import declared_experiment, get_experiment

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
        from mtc_cli.cluster import ClusterSpec

        cluster = build(ClusterSpec, raw["cluster"], str(path), "cluster.")
    return Config(path, name, params, seed, str(desc).strip(), targets, quick, cluster)


def _check_seed(seed, path) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise MtcError(f"{path}: key 'seed': expected a non-negative integer, got {seed!r}")


def _target(item, i, path) -> Target:
    if not isinstance(item, dict):
        raise MtcError(f"{path}: key 'targets[{i}]': expected a mapping with claim and expect")
    from mtc_cli import expressions

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


def _unknown(key: str, valid, prefix: str = "") -> str:
    """'unknown key …' for ``prefix + key``, with the nearest and the list of ``valid``."""
    near = difflib.get_close_matches(key, list(valid), n=1, cutoff=0.5)
    hint = f" (did you mean '{prefix}{near[0]}'?)" if near else ""
    return f"unknown key '{prefix}{key}'{hint}; valid keys: {', '.join(valid)}"


def build(cls, values: dict, source: str, prefix: str):
    """Validate ``values`` against dataclass ``cls``; fill defaults; return an instance."""
    if not isinstance(values, dict):
        raise MtcError(f"{source}: key '{prefix.rstrip('.')}': expected a mapping, got {values!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in values:
        if key not in fields:
            raise MtcError(f"{source}: {_unknown(key, fields, prefix)}")
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for name, f in fields.items():
        if name in values:
            kwargs[name] = _coerce(values[name], hints[name], f.metadata, source, prefix + name)
        elif dataclasses.is_dataclass(hints[name]) and f.default is dataclasses.MISSING:
            kwargs[name] = build(hints[name], {}, source, prefix + name + ".")
    return cls(**kwargs)


def _coerce(value, tp, meta, source: str, key: str):
    def fail(expected):
        raise MtcError(f"{source}: key '{key}': expected {expected}, got {value!r}")

    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _coerce(value, inner[0], meta, source, key)
    if dataclasses.is_dataclass(tp):
        return build(tp, value, source, key + ".")
    if origin is list:
        if not isinstance(value, list):
            fail("a list")
        return [_coerce(v, args[0], meta, source, f"{key}[{i}]") for i, v in enumerate(value)]
    if tp is bool:
        if not isinstance(value, bool):
            fail("true or false")
    elif tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            fail("an integer")
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            fail("a number")
        value = float(value)
        if not math.isfinite(value) and not meta.get("allow_nan"):
            fail("a finite number")
    elif tp is str:
        if not isinstance(value, str):
            fail("a string")
    elif tp is Path:
        if not isinstance(value, str) or not value:
            fail("a file path")
        value = resolve_path(value, source, key)
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        near = difflib.get_close_matches(str(value), list(map(str, choices)), n=1, cutoff=0.5)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        fail("one of " + ", ".join(map(repr, choices)) + hint)
    lo, hi = meta.get("min"), meta.get("max")
    if lo is not None and value < lo:
        fail(f"a value ≥ {lo}")
    if hi is not None and value > hi:
        fail(f"a value ≤ {hi}")
    return value


def resolve_path(text: str, source: str, key: str) -> Path:
    """A data path: as given (absolute or relative to the working directory), else
    relative to the project root, so shipped configs work from any directory."""
    p = Path(text).expanduser()
    for candidate in (p, PROJECT_ROOT / p):
        if candidate.exists():
            return candidate.resolve()
    raise MtcError(f"{source}: key '{key}': {not_found(p)}: {text}")


def keys(cls, prefix: str = "", defaults: Any = dataclasses.MISSING) -> list[dict]:
    """Every key of the dataclass ``cls`` (``mtc keys``), nested ones dotted (``a.b``,
    ``a[i].b`` in a list): its type, range, choices, default (as YAML) and help."""
    if defaults is dataclasses.MISSING:
        try:
            defaults = cls()
        except TypeError:  # a field without a default
            defaults = None
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp, meta = _inner(hints[f.name]), f.metadata
        listed = typing.get_origin(tp) is list
        each = "each " if listed else ""
        bounds = [f"{sign} {meta[b]}" for b, sign in (("min", "≥"), ("max", "≤"))
                  if meta.get(b) is not None]
        choices = meta.get("choices")
        default = getattr(defaults, f.name, None)
        out.append({
            "key": prefix + f.name, "type": _type_name(hints[f.name]),
            "range": each + ", ".join(bounds) if bounds else "",
            "choices": f"{each}one of {', '.join(map(str, choices))}" if choices else "",
            "default": "" if dataclasses.is_dataclass(default) else
            json.dumps(to_plain(default), ensure_ascii=False),
            "help": meta.get("help", "")})
        nested = typing.get_args(tp)[0] if listed else tp
        if dataclasses.is_dataclass(nested):
            out += keys(nested, f"{prefix}{f.name}{'[i]' if listed else ''}.",
                        default if dataclasses.is_dataclass(default) else dataclasses.MISSING)
    return out


def _inner(tp):
    """``X`` of ``X | None``; ``tp`` itself otherwise."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return inner[0] if len(inner) == 1 else tp
    return tp


def _type_name(tp) -> str:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    if typing.get_origin(tp) is list:
        return f"list[{_type_name(typing.get_args(tp)[0])}]"
    if dataclasses.is_dataclass(tp):
        return "mapping"
    return {Path: "path", type(None): "null"}.get(tp, getattr(tp, "__name__", str(tp)))
