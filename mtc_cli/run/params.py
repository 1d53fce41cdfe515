"""Parameters declared as dataclass fields made with :func:`param`, validated from a mapping
(:func:`build`: one-line errors naming the source and the key), listed for ``mtc keys``.
Imports nothing of mtc but its errors and the YAML reader, so that the config loader and
the backends that declare parameters both build on it.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import types
import typing
from dataclasses import field
from pathlib import Path
from typing import Any

from mtc_cli.core.errors import MtcError, not_found
from mtc_cli.run import yamlio

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def param(default, help: str, *, min=None, max=None, choices=None,  # noqa: A002
          allow_nan: bool = False, metavar: str | None = None):
    """A config parameter: default, one-line help and optional range or choices (a list, or
    a function returning it when the value is checked: choices read from a registry). A
    float must be finite unless ``allow_nan``; ``metavar``: how a command line names its
    value."""
    meta = {"help": help, "min": min, "max": max, "choices": choices, "allow_nan": allow_nan,
            "metavar": metavar}
    if isinstance(default, list | dict):
        return field(default_factory=lambda: _copy(default), metadata=meta)
    return field(default=default, metadata=meta)


def _copy(value):
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


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
    """Read a YAML mapping (:func:`mtc_cli.run.yamlio.read`: missing, binary, oversized or
    malformed files, duplicate keys and alias bombs are one-line errors)."""
    data = yamlio.read(path)
    if not isinstance(data, dict):
        raise MtcError(f"{path}: expected a mapping of keys at the top level")
    return data


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
    choices = choices_of(meta)
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


def choices_of(meta) -> list | None:
    """A parameter's choices (its function called, for choices read from a registry)."""
    choices = meta.get("choices")
    return list(choices()) if callable(choices) else choices


def resolve_path(text: str, source: str, key: str) -> Path:
    """A data path: as given (absolute or relative to the working directory), else
    relative to the project root, so shipped configs work from any directory."""
    p = Path(text).expanduser()
    for candidate in (p, PROJECT_ROOT / p):
        if candidate.exists():  # a pipe's /dev/fd link resolves to no path: kept as given
            real = candidate.resolve()
            return real if real.exists() else candidate.absolute()
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
        choices = choices_of(meta)
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
