"""The table of the README and docs/ built from committed runs: the reproduction table
(every run's ``targets.csv``), written between its markers in whichever of the given files
hold it (the league's tables are table blocks of :mod:`mtc_cli.show.numbers`)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import atomic_write_text
from mtc_cli.show.numbers import Renderer, render_blocks, render_spans
from mtc_cli.show.tables import markdown_table

MARKERS = {"targets": ("<!-- targets:start -->", "<!-- targets:end -->")}
START, END = MARKERS["targets"]
def tagged_claims(targets: pd.DataFrame) -> list[str]:
    """Each claim, tagged ``(derived)`` or ``(ours)`` when it is not the paper's own."""
    kinds = targets["kind"] if "kind" in targets else pd.Series("paper", index=targets.index)
    return [c if k == "paper" else f"({k}) {c}" for c, k in zip(targets["claim"], kinds,
                                                                 strict=True)]


def _status(targets: pd.DataFrame) -> pd.Series:
    if "status" in targets:
        return targets["status"]
    return targets["holds"].astype(str).map({"True": "holds", "False": "fails"})


#: the classes of a failure's reason (the first word of a failing target's ``why``):
#: the paper's result does not appear although we follow it, or a setting of ours
REASONS = ("faithful", "ours")


def reason_class(why: str) -> str | None:
    """``faithful`` or ``ours`` when ``why`` opens with that word and a dash
    ("faithful — which unstated detail", "ours — which setting"), else None."""
    head, dash, _ = str(why).partition(" — ")
    return head if dash and head in REASONS else None


def count_line(targets: pd.DataFrame) -> str:
    """'N paper claims: H hold, F fail (a faithful, b ours), T not testable; D derived/ours:
    …' of a table; the reasons are counted where the table has a ``why`` column."""
    status = _status(targets)
    kinds = targets["kind"] if "kind" in targets else pd.Series("paper", index=targets.index)
    reasons = (targets["why"].map(reason_class) if "why" in targets
               else pd.Series(None, index=targets.index))
    parts = []
    for label, mask in (("paper claims", kinds == "paper"),
                        ("derived and our own targets", kinds != "paper")):
        if not mask.any():
            continue
        s = status[mask]
        text = f"{int(mask.sum())} {label}: {int((s == 'holds').sum())} hold, " \
               f"{int((s == 'fails').sum())} fail"
        why = reasons[mask & (status == "fails")]
        if why.notna().any():
            text += " (" + ", ".join(f"{int((why == r).sum())} {r}" for r in REASONS) + ")"
        for extra in ("not testable", "error"):
            if (s == extra).any():
                text += f", {int((s == extra).sum())} {extra}"
        parts.append(text)
    return "; ".join(parts)


#: the table of every claim of every run, its paper's words and each failure's reason
CLAIMS_DOC = "docs/reproductions.md#reproduction-table"
#: what a failing claim means, said under the claims of a run where one fails
FAILING = ("A claim fails where this run does not show the paper's result: faithful, we "
           "follow the paper and its result does not appear; ours, a setting or reading of "
           f"ours decides it. Every claim and why: {CLAIMS_DOC}")


def claims_text(targets: pd.DataFrame, width: int = 100) -> str:
    """A run's targets for the terminal: the :func:`count_line`, then per target its status
    and claim (:func:`tagged_claims`), what the run observed and, for a failure, why — each
    wrapped to ``width`` columns, never cut — and, where one fails, what that means
    (:data:`FAILING`)."""
    import textwrap

    status = _status(targets).astype(str)
    why = targets["why"] if "why" in targets else pd.Series("", index=targets.index)
    pad = max(map(len, status)) + 4
    lines = [f"Targets — {count_line(targets)}:"]

    def wrap(text: str, first: str, indent: int) -> list[str]:
        return textwrap.wrap(" ".join(str(text).split()), width, initial_indent=first,
                             subsequent_indent=" " * indent, break_long_words=False,
                             break_on_hyphens=False)

    for s, claim, seen, reason in zip(status, tagged_claims(targets), targets["observed"],
                                      why.fillna(""), strict=True):
        lines += wrap(claim, f"  {s:<{pad - 4}}  ", pad)
        lines += wrap(seen, " " * (pad + 2), pad + 2)
        if s == "fails" and str(reason).strip():
            lines += wrap(f"why: {reason}", " " * (pad + 2), pad + 2)
    if (status == "fails").any():
        lines += [""] + wrap(FAILING, "", 0)
    return "\n".join(lines)


def reproduction_table(results_dir: Path) -> str:
    """The count line and one markdown row per target of every run directly under
    ``results_dir`` (its claim tagged by kind, the paper's value, ours, the status, and for
    a target that does not hold the reason its config gives: ``why``)."""
    files = sorted(Path(results_dir).glob("*/targets.csv"))
    if not files:
        raise MtcError(f"{results_dir}: no */targets.csv found")
    frames = [pd.read_csv(f, keep_default_na=False).assign(run=f.parent.name) for f in files]
    df = pd.concat(frames, ignore_index=True)
    status = _status(df).map({"holds": "yes", "fails": "**no**", "not testable":
                              "not testable", "error": "**error**"})
    why = df["why"] if "why" in df else pd.Series("", index=df.index)
    table = pd.DataFrame({"run": df["run"], "claim": tagged_claims(df), "paper": df["paper"],
                          "ours": df["observed"], "holds": status,
                          "why not": why.where(status != "yes", "")})
    return f"{count_line(df)}.\n\n" + markdown_table(table)


def _marker_lines(text: str, marker: str) -> list[int]:
    """The offsets of the lines of ``text`` that are ``marker`` alone (a marker quoted in
    prose is not one)."""
    return [m.start() for m in re.finditer(rf"^{re.escape(marker)}[ \t]*$", text, re.M)]


def replace_blocks(text: str, tables: dict[str, str], where: str = "") -> tuple[str, list[str]]:
    """``text`` with each table written between its markers, where the text has them, and
    the names of the blocks whose content changed. A start marker without its end marker
    after it, or a block marked twice, is an error naming ``where``."""
    changed = []
    for name, table in tables.items():
        start, end = MARKERS[name]
        starts, ends = _marker_lines(text, start), _marker_lines(text, end)
        if not starts and not ends:
            continue
        if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
            raise MtcError(f"{where}: the block {name} needs one line {start} and one "
                           f"line {end} after it")
        block = f"{start}\n{table}\n"
        if text[starts[0]:ends[0]] != block:
            changed.append(name)
            text = text[:starts[0]] + block + text[ends[0]:]
    return text, changed


def update_files(files: list[Path], tables: dict[str, str], *, check: bool = False,
                 renderer: Renderer | None = None) -> dict[Path, list[str]]:
    """Write each table between its markers in every file of ``files`` that holds them (each
    file updates only the blocks it marks) and, with a ``renderer``, every number span, table
    block and notes block (:mod:`mtc_cli.show.numbers`; notes from
    ``<root>/experiments/NAME/NOTES.md``, rendered first) — and return, per file, the blocks
    and numbers that changed; with ``check``, that would change, and nothing is written. A
    table whose markers are in none of the files is an error, raised before anything is
    written."""
    unique = list(dict.fromkeys(Path(f) for f in files))
    for f in unique:
        if not f.is_file():
            raise MtcError(f"{f}: file not found")
    texts = {f: f.read_text() for f in unique}
    found, new, changed = set(), {}, {}
    rendered: dict[Path, tuple[str, list[str]]] = {}

    def own(f: Path, text: str) -> tuple[str, list[str]]:
        """``text`` of ``f`` with its numbers and blocks rendered (once per file)."""
        key = f.resolve()
        if key not in rendered:
            text, spans = render_spans(text, renderer)
            text, parts = render_blocks(text, renderer, notes, f)
            rendered[key] = (text, parts + spans)
        return rendered[key]

    def notes(name: str) -> tuple[Path, str]:
        path = renderer.root / "experiments" / name / "NOTES.md"
        if not path.is_file():
            raise MtcError(f"notes:{name}: {path} not found")
        return path, own(path, path.read_text())[0]

    for f, text in texts.items():
        new[f], changed[f] = replace_blocks(text, tables, str(f))
        if renderer is not None:
            new[f], parts = own(f, new[f])
            changed[f] += parts
        found |= {name for name in tables if _marker_lines(text, MARKERS[name][0])}
    missing = [name for name in tables if name not in found]
    if missing:
        pairs = "; ".join(" and ".join(MARKERS[name]) for name in missing)
        raise MtcError(f"{', '.join(map(str, unique))}: markers {pairs} not found in any "
                       "of them")
    if not check:
        for f in unique:
            if changed[f]:
                atomic_write_text(f, new[f])
    return changed
