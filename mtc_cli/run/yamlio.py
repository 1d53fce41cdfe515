"""Reading YAML configs safely: ``yaml.SafeLoader`` (no Python objects), duplicate keys
refused, alias expansion bounded (a "billion laughs" file is refused before it is built),
text that is not UTF-8 refused — each as one :class:`~mtc_cli.core.errors.MtcError` line."""

from __future__ import annotations

from pathlib import Path

import yaml

from mtc_cli.core.errors import MtcError, not_found

#: largest config file read, in bytes
MAX_BYTES = 100 * 2**20
#: largest number of nodes the document may expand to (aliases counted at every use)
MAX_NODES = 1_000_000


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The safe loader (libyaml's when PyYAML has it: a 50 MB config parses in seconds)
    that refuses a key repeated in one mapping."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key = (key_node.tag, key_node.value)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key_node.value!r} (first at line "
                        f"{seen[key].line + 1})", key_node.start_mark)
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


def expanded_size(node, memo=None) -> int:
    """The number of nodes ``node`` stands for once every alias is expanded (shared
    sub-documents counted at each use), computed without expanding them."""
    memo = {} if memo is None else memo
    if id(node) in memo:
        return memo[id(node)]
    memo[id(node)] = 1  # a cycle counts once (SafeLoader builds recursive objects lazily)
    if isinstance(node, yaml.SequenceNode):
        size = 1 + sum(expanded_size(v, memo) for v in node.value)
    elif isinstance(node, yaml.MappingNode):
        size = 1 + sum(expanded_size(k, memo) + expanded_size(v, memo) for k, v in node.value)
    else:
        size = 1
    memo[id(node)] = size
    return size


def _written_nodes(text: str) -> int:
    """The number of nodes written in ``text`` (aliases once), counted from the parser's
    events up to :data:`MAX_NODES` + 1, before any node is built: a large plain file is
    refused in a second, not after its whole tree."""
    loader, n = _Loader(text), 0
    try:
        while n <= MAX_NODES and (event := loader.get_event()) is not None:
            n += isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent))
    finally:
        loader.dispose()
    return n


def load_text(text: str, source: str):
    """The YAML document in ``text`` (``source`` names it in errors)."""
    loader = _Loader(text)
    try:
        if _written_nodes(text) > MAX_NODES:
            raise MtcError(f"{source}: the YAML holds more than {MAX_NODES:,} nodes (limit "
                           f"{MAX_NODES:,}): is it a config?")
        node = loader.get_single_node()
        if node is None:
            return None
        size = expanded_size(node)
        if size > MAX_NODES:
            raise MtcError(f"{source}: the YAML expands to {size:,} nodes through its aliases "
                           f"(limit {MAX_NODES:,})")
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise MtcError(f"{source}: malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise MtcError(f"{source}: the YAML is nested too deeply") from None
    finally:
        loader.dispose()


def read(path: Path):
    """The YAML document of the file ``path``; missing, oversized, binary or malformed
    files are one-line errors."""
    path = Path(path)
    if not path.is_file():
        raise MtcError(f"{path}: " + ("is a directory, not a config file" if path.is_dir()
                                      else not_found(path, "config file")))
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise MtcError(f"{path}: {size / 2**20:.0f} MiB is larger than a config may be "
                       f"({MAX_BYTES // 2**20} MiB)")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MtcError(f"{path}: not a UTF-8 text file (byte 0x{raw[exc.start]:02x} at "
                       f"offset {exc.start}): is it a config?") from None
    return load_text(text, str(path))
