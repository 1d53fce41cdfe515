"""What the league of families ships with mtc (``experiments/league``): the answer's rule
(``answer_rule.csv``: the default model, auto's winner rule, the test of k = 1, HDBSCAN's
``min_cluster_size``) and the votes' rules (``vote_rule.csv``), files beside this module,
each read once. ``tests/selection/test_voting.py`` and ``test_answer.py`` check them against
the league's committed results."""

from __future__ import annotations

from functools import cache
from pathlib import Path

#: the answer's rule that ships with mtc
ANSWER_FILE = Path(__file__).with_name("answer_rule.csv")
#: the votes' rules that ship with mtc
VOTE_FILE = Path(__file__).with_name("vote_rule.csv")


@cache
def answer_rule() -> dict[str, str]:
    """key → value of :data:`ANSWER_FILE`."""
    import csv

    with open(ANSWER_FILE, newline="") as fh:
        return {row["key"]: row["value"] for row in csv.DictReader(fh)}


@cache
def vote_rules():
    """:data:`VOTE_FILE` as a table (None if absent)."""
    import pandas as pd

    return pd.read_csv(VOTE_FILE) if VOTE_FILE.is_file() else None
