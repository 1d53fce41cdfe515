"""The README's reproduction table, built from the committed runs' ``targets.csv``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mtc_cli.errors import MtcError
from mtc_cli.results import atomic_write_text, markdown_table

START, END = "<!-- targets:start -->", "<!-- targets:end -->"


def reproduction_table(results_dir: Path) -> str:
    """One markdown row per paper target of every run directly under ``results_dir``."""
    files = sorted(Path(results_dir).glob("*/targets.csv"))
    if not files:
        raise MtcError(f"{results_dir}: no */targets.csv found")
    parts = []
    for f in files:
        df = pd.read_csv(f, keep_default_na=False)
        parts.append(pd.DataFrame({
            "run": f.parent.name,
            "paper's claim": df["claim"],
            "paper": df["paper"],
            "ours": df["observed"],
            "holds": df["holds"].astype(str).map({"True": "yes", "False": "**no**"}),
        }))
    return markdown_table(pd.concat(parts, ignore_index=True))


def update_readme(readme: Path, table: str) -> None:
    text = Path(readme).read_text()
    if START not in text or END not in text:
        raise MtcError(f"{readme}: markers {START} and {END} not found")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    atomic_write_text(readme, f"{head}{START}\n{table}\n{END}{tail}")
