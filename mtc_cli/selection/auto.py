"""``--model auto``: the clustering algorithm and its k together, by the normalised stability
of Lange, Braun, Roth & Buhmann (2002).

Every algorithm of auto's roster (:func:`mtc_cli.selection.catalog.auto_models`) runs its
own selection (every criterion that applies to it, and its vote). Each has the curve
S(k)/S_rand(k) of Lange et al. (eq. 6: the disagreement of a half's own solution with the
one transferred from the other half, over that of random labellings), which makes the
stability of different k comparable. Across algorithms the baseline here keeps the cluster
sizes (the transferred labels permuted,
:func:`mtc_cli.core.criteria.stability.permuted_label_disagreement`) where Lange et al. draw
k labels uniformly: an algorithm that splits one outlier off a single big cluster agrees
with itself almost everywhere, and against uniform labels it would look stable; against its
own sizes it does not. The winner is the algorithm whose curve reaches the lowest value over
k ≥ 2; among algorithms tied there (several perfectly stable ones, at 0), the one that
reaches it at the largest k — the stability's own rule for ties across k — then the first in
the roster. The answer is the winner's vote, which may say k = 1 through the criteria
defined there.

What the paper claims for this use: on three rings, the stability of path-based clustering
is "significantly" better than that of k-means, "which indicates that the latter is the
better choice for this data set" (Sect. 4). It compares two algorithms on one data set and
does not show that the most stable algorithm is the right one in general: an algorithm that
always returns the same coarse split (single linkage cutting off one outlier) is stable too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: the columns of the decision table
COLUMNS = ("model", "min_stability", "stability_k", "vote_k", "at_vote", "backers",
           "winner", "margin")
#: how ``auto`` picks among the algorithms (:func:`standings`)
WINNER_RULES = ("lowest", "at_vote", "agreement")
#: each rule in words
RULE_WORDS = {"lowest": "the lowest minimum of S(k)/S_perm(k)",
              "at_vote": "the lowest S(k)/S_perm(k) at its own voted k",
              "agreement": "the k most algorithms vote, the most stable of them"}
#: how each rule breaks a tie
RULE_TIES = {"lowest": "ties: the largest k of it, then the first listed",
             "at_vote": "ties: the first listed", "agreement": "ties: the smaller k"}


def normalised_stability(rows: pd.DataFrame) -> pd.Series:
    """S(k)/S_perm(k) over k ≥ 2 from one algorithm's ``stability`` rows: the mean
    disagreement over the splits divided by the mean of its size-keeping baseline
    (``permuted``)."""
    sub = rows[(rows["criterion"] == "stability") & (rows["k"] >= 2)]
    g = sub.assign(k=sub["k"].astype(int)).groupby("k")
    out = g["score"].mean() / g["permuted"].mean()
    return out[np.isfinite(out)]


def standings(stabilities: dict, votes: dict, rule: str = "lowest") -> pd.DataFrame:
    """The decision table, one row per algorithm in the order of ``stabilities`` (model →
    :func:`normalised_stability`): its lowest value and the k of it (ties: the largest k,
    as the stability's own rule), its vote (``votes``: model → voted k, NaN: none), its
    curve at its voted k (``at_vote``), how many ranked algorithms (a finite curve) vote its
    k (``backers``), the
    ``winner`` by ``rule`` (:data:`WINNER_RULES`) and, for ``lowest``, on the winner's row
    its ``margin``: the next lowest minimum minus its own (0 for a tie; NaN with one
    algorithm).

    - ``lowest``: the lowest minimum (Lange et al.'s comparison of two algorithms on one
      data set) among the algorithms with a vote (one whose criteria all abstain gives no
      answer); ties: the largest k of it, then the first;
    - ``at_vote``: the lowest curve at the algorithm's own voted k ≥ 2 (how stable the
      answer it gives is, not its most stable k); ties: the first;
    - ``agreement``: the k voted by the most algorithms, and of its algorithms the one of
      lowest minimum (ties: the smaller k, then the first)."""
    if rule not in WINNER_RULES:
        raise ValueError(f"unknown winner rule {rule!r}: one of {', '.join(WINNER_RULES)}")
    rows = []
    voted = {m: float(votes.get(m, np.nan)) for m in stabilities}
    ranked = [voted[m] for m, c in stabilities.items() if len(c) and np.isfinite(c.min())]
    for model, curve in stabilities.items():
        low = float(curve.min()) if len(curve) else np.nan
        k = float(curve.index[curve == low].max()) if len(curve) else np.nan
        v = voted[model]
        at = float(curve.get(int(v), np.nan)) if np.isfinite(v) and v >= 2 else np.nan
        rows.append({"model": model, "min_stability": low, "stability_k": k, "vote_k": v,
                     "at_vote": at,
                     "backers": sum(np.isfinite(v) and w == v for w in ranked),
                     "winner": False, "margin": np.nan})
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    best = _winner_row(table, rule)
    if best is not None:
        table.loc[best, "winner"] = True
        finite = table["min_stability"].notna()
        others = table.loc[finite & (table.index != best), "min_stability"]
        if rule == "lowest" and len(others):
            table.loc[best, "margin"] = float(others.min() - table.loc[best, "min_stability"])
    return table


def _winner_row(table: pd.DataFrame, rule: str) -> int | None:
    """The index of :func:`standings`'s winner by ``rule`` (None: no algorithm qualifies)."""
    if rule == "lowest":
        ok = table[table["min_stability"].notna() & table["vote_k"].notna()]
        if ok.empty:
            return None
        tied = ok[ok["min_stability"] == ok["min_stability"].min()]
        return int(tied.index[int(np.argmax(tied["stability_k"].to_numpy()))])
    if rule == "at_vote":
        ok = table[table["at_vote"].notna()]
        return None if ok.empty else int(ok["at_vote"].idxmin())
    ok = table[table["vote_k"].notna() & table["min_stability"].notna()]
    ok = ok[ok["backers"] == ok["backers"].max()]
    if ok.empty:
        return None
    return int(ok.sort_values(["min_stability", "vote_k"], kind="stable").index[0])


#: why an algorithm whose stability rows are all finite has no finite S(k)/S_perm(k)
ZERO_BASELINE = ("S_perm(k) is 0 at every k ≥ 2: its halves are too small for permuted labels "
                 "to disagree")


def unranked(table: pd.DataFrame, notes: dict) -> dict[str, str]:
    """The algorithms of :func:`standings`'s table without a finite normalised stability, each
    with why: ``notes`` (model → the note of its ``stability`` rows, e.g. a fit that failed),
    else :data:`ZERO_BASELINE`. ``auto`` leaves them out and says so."""
    def why(note) -> str:
        return note if isinstance(note, str) and note else ZERO_BASELINE

    return {m: why(notes.get(m)) for m in table.loc[table["min_stability"].isna(), "model"]}


def runner_up(table: pd.DataFrame, rule: str = "lowest") -> tuple[str | None, float]:
    """(the algorithm, its voted k) that :func:`standings` would have chosen by ``rule`` had the
    winner not run (with ``agreement``: had no algorithm voted the winner's k), and of
    another k than the winner's; (None, NaN) if none."""
    won = table[table["winner"]]
    if won.empty:
        return None, np.nan
    k = won["vote_k"].iloc[0]
    rest = table[(table["vote_k"] != k) & ~table["winner"]]
    if rule == "agreement":
        ranked = rest.loc[rest["min_stability"].notna(), "vote_k"].tolist()
        rest = rest.assign(backers=[sum(w == v for w in ranked) for v in rest["vote_k"]])
    best = _winner_row(rest.reset_index(drop=True), rule) if len(rest) else None
    if best is None:
        return None, np.nan
    row = rest.reset_index(drop=True).loc[best]
    return str(row["model"]), float(row["vote_k"])


def choose(curves: dict, votes: dict, rule: str = "lowest") -> tuple[str | None, float]:
    """(the algorithm, its voted k) that ``auto`` answers with by ``rule``, from each
    algorithm's S(k)/S_perm(k) curve (``curves``: model → Series over k) and vote
    (``votes``: model → k, NaN: none): :func:`winner` of :func:`standings`."""
    return winner(standings(curves, votes, rule))


def winner(table: pd.DataFrame) -> tuple[str | None, float]:
    """(the winning algorithm, its voted k) of :func:`standings`'s table; (None, NaN) if none."""
    row = table[table["winner"]]
    if row.empty:
        return None, np.nan
    return str(row["model"].iloc[0]), float(row["vote_k"].iloc[0])
