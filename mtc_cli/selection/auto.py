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
           "answer_k", "winner", "margin")
#: how ``auto`` picks among the algorithms (:func:`standings`); a consensus rule may name
#: how far above the lowest minimum an algorithm still ties (``consensus@0.02``)
WINNER_RULES = ("lowest", "at_vote", "agreement", "consensus", "consensus_vote")
#: each rule in words
RULE_WORDS = {"lowest": "the lowest minimum of S(k)/S_perm(k)",
              "at_vote": "the lowest S(k)/S_perm(k) at its own voted k",
              "agreement": "the k most algorithms vote, the most stable of them",
              "consensus": "the most stable k that most of the most stable algorithms share",
              "consensus_vote": "the k that most of the most stable algorithms vote"}
#: how each rule breaks a tie
RULE_TIES = {"lowest": "ties: the largest k of it, then the first listed",
             "at_vote": "ties: the first listed", "agreement": "ties: the smaller k",
             "consensus": "ties in number: the larger k; of its algorithms the most stable, "
                          "then by name",
             "consensus_vote": "ties in number: the larger k; of its algorithms the most "
                               "stable, then by name"}
#: how HDBSCAN's own count takes part in a consensus: not at all, breaking a tie in number
#: between the k the tied algorithms share, or deciding whenever they do not all share one
COUNT_USES = ("none", "tiebreak", "disagreement")


def parse_rule(rule: str) -> tuple[str, float]:
    """(the rule's name, its tolerance): ``consensus@0.02`` → ("consensus", 0.02); a rule
    without one, 0."""
    name, _, tol = str(rule).partition("@")
    if name not in WINNER_RULES or (tol and not name.startswith("consensus")):
        raise ValueError(f"unknown winner rule {rule!r}: one of {', '.join(WINNER_RULES)} "
                         "(a consensus with @TOLERANCE)")
    try:
        return name, float(tol) if tol else 0.0
    except ValueError:
        raise ValueError(f"unknown winner rule {rule!r}: its tolerance is no number") from None


def words(rule: str) -> str:
    """The winner rule ``rule`` in words, with its tolerance."""
    name, tol = parse_rule(rule)
    return RULE_WORDS[name] + (f" (within {tol:g} of the lowest)" if tol else "")


def normalised_stability(rows: pd.DataFrame) -> pd.Series:
    """S(k)/S_perm(k) over k ≥ 2 from one algorithm's ``stability`` rows: the mean
    disagreement over the splits divided by the mean of its size-keeping baseline
    (``permuted``)."""
    sub = rows[(rows["criterion"] == "stability") & (rows["k"] >= 2)]
    g = sub.assign(k=sub["k"].astype(int)).groupby("k")
    out = g["score"].mean() / g["permuted"].mean()
    return out[np.isfinite(out)]


def standings(stabilities: dict, votes: dict, rule: str = "lowest", *, count: float = np.nan,
              count_use: str = "none") -> pd.DataFrame:
    """The decision table, one row per algorithm in the order of ``stabilities`` (model →
    :func:`normalised_stability`): its lowest value and the k of it (ties: the largest k,
    as the stability's own rule), its vote (``votes``: model → voted k, NaN: none), its
    curve at its voted k (``at_vote``), how many ranked algorithms (a finite curve) vote its
    k (``backers``; under a consensus, on the winner's row: how many tied algorithms share
    its k), the k it answers with (``answer_k``: its vote, under ``consensus`` its most
    stable k), the ``winner`` by ``rule`` (:data:`WINNER_RULES`) and, for ``lowest``, on the
    winner's row its ``margin``: the next lowest minimum minus its own (0 for a tie; NaN with
    one algorithm).

    - ``lowest``: the lowest minimum (Lange et al.'s comparison of two algorithms on one
      data set) among the algorithms with a vote (one whose criteria all abstain gives no
      answer); ties: the largest k of it, then the first;
    - ``at_vote``: the lowest curve at the algorithm's own voted k ≥ 2 (how stable the
      answer it gives is, not its most stable k); ties: the first;
    - ``agreement``: the k voted by the most algorithms, and of its algorithms the one of
      lowest minimum (ties: the smaller k, then the first);
    - ``consensus`` (``consensus@TOL``): the algorithms whose minimum is the lowest (within
      TOL of it) are tied; the k most of them reach it at (their most stable k) is the
      answer — ties in number to the larger k, or by HDBSCAN's own ``count`` where
      ``count_use`` says (:data:`COUNT_USES`: ``tiebreak`` between k tied in number,
      ``disagreement`` whenever the tied algorithms do not all share one k and the count is
      among theirs) — and of the tied algorithms at that k the most stable, then by name,
      is the winner: the answer never depends on the order of the algorithms, and is its
      winner's own most stable k;
    - ``consensus_vote``: the same, the tied algorithms sharing their votes."""
    name, tol = parse_rule(rule)
    if count_use not in COUNT_USES:
        raise ValueError(f"unknown use of the count {count_use!r}: one of "
                         f"{', '.join(COUNT_USES)}")
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
                     "answer_k": k if name == "consensus" else v,
                     "winner": False, "margin": np.nan})
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    if name.startswith("consensus"):
        best, shared = _consensus(table, tol, "stability_k" if name == "consensus"
                                  else "vote_k", count, count_use)
        if best is not None:
            table.loc[best, "backers"] = shared
    else:
        best = _winner_row(table, name)
    if best is not None:
        table.loc[best, "winner"] = True
        finite = table["min_stability"].notna()
        others = table.loc[finite & (table.index != best), "min_stability"]
        if name == "lowest" and len(others):
            table.loc[best, "margin"] = float(others.min() - table.loc[best, "min_stability"])
    return table


def tie_words(table: pd.DataFrame, rule: str, count: float = np.nan) -> str:
    """How :func:`standings`'s winner came out of a tie at the lowest S(k)/S_perm(k), in
    words ("" without one): the algorithms tied, the k they reach it at (``count``:
    HDBSCAN's own count where it took part), and who answers."""
    name, tol = parse_rule(rule)
    won = table[table["winner"]]
    if won.empty or name not in ("lowest", "consensus", "consensus_vote"):
        return ""
    ok = table[table["min_stability"].notna()]
    low = float(ok["min_stability"].min())
    tied = ok[ok["min_stability"] <= low + tol]
    if len(tied) < 2:
        return ""
    w = won.iloc[0]
    within = f"within {tol:g} of" if tol else "at"
    head = (f"{len(tied)} algorithms tie {within} the lowest S/S_perm ({low:.3f}): "
            f"{', '.join(tied['model'])}")
    if name == "lowest":
        k = w["stability_k"]
        how = [f"the largest k of it (k = {_int(k)})" if (tied["stability_k"] < k).any()
               else "", "the first listed" if (tied["stability_k"] == k).sum() > 1 else ""]
        return f"{head}; {w['model']} answers, by {', then '.join(h for h in how if h)}"
    by = "stability_k" if name == "consensus" else "vote_k"
    shares = tied[by].value_counts()
    k = w["answer_k"]
    tops = sorted(int(v) for v in shares[shares == shares.max()].index)
    broken = (f" (as many reach k = {', '.join(map(str, tops))}: the larger is taken)"
              if len(tops) > 1 else "")
    if len(shares) > 1 and np.isfinite(count) and k == count and k != max(tops):
        broken = f" (they differ: HDBSCAN's own count, {_int(count)}, decides)"
    reach = "reach their lowest at" if name == "consensus" else "vote"
    return (f"{head}; {int(shares.get(k, 0))} of them {reach} k = {_int(k)}{broken}, "
            f"{w['model']} the most stable of those (then by name)")


def _int(v) -> str:
    return f"{int(v)}" if np.isfinite(v) else "–"


def _consensus(table: pd.DataFrame, tol: float, by: str, count: float,
               count_use: str) -> tuple[int | None, int]:
    """(the index of the winner of a consensus on column ``by``, how many tied algorithms
    share its k), see :func:`standings`; (None, 0) if no algorithm qualifies."""
    ok = table[table["min_stability"].notna() & table[by].notna()]
    if ok.empty:
        return None, 0
    tied = ok[ok["min_stability"] <= ok["min_stability"].min() + tol]
    shares = tied[by].value_counts()
    top = shares[shares == shares.max()].index
    k = float(max(top))
    counted = np.isfinite(count) and count in set(tied[by])
    if counted and ((count_use == "tiebreak" and len(top) > 1 and count in set(top))
                    or (count_use == "disagreement" and len(shares) > 1)):
        k = float(count)
    at_k = tied[tied[by] == k].sort_values(["min_stability", "model"], kind="stable")
    return int(at_k.index[0]), int(len(at_k))


def _winner_row(table: pd.DataFrame, rule: str) -> int | None:
    """The index of :func:`standings`'s winner by ``rule`` (``lowest``, ``at_vote``,
    ``agreement``; None: no algorithm qualifies)."""
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
    """(the algorithm, the k it answers with) that :func:`standings` would have chosen by
    ``rule`` had no algorithm answered the winner's k (with ``lowest`` and ``at_vote``:
    had the winner not run, and of another k); (None, NaN) if none."""
    won = table[table["winner"]]
    if won.empty:
        return None, np.nan
    name, tol = parse_rule(rule)
    k = won["answer_k"].iloc[0]
    rest = table[(table["answer_k"] != k) & ~table["winner"]].reset_index(drop=True)
    if not len(rest):
        return None, np.nan
    if name.startswith("consensus"):
        best = _consensus(rest, tol, "stability_k" if name == "consensus" else "vote_k",
                          np.nan, "none")[0]
    else:
        if name == "agreement":
            ranked = rest.loc[rest["min_stability"].notna(), "vote_k"].tolist()
            rest = rest.assign(backers=[sum(w == v for w in ranked) for v in rest["vote_k"]])
        best = _winner_row(rest, name)
    if best is None:
        return None, np.nan
    row = rest.loc[best]
    return str(row["model"]), float(row["answer_k"])


def choose(curves: dict, votes: dict, rule: str = "lowest") -> tuple[str | None, float]:
    """(the algorithm, the k it answers with) that ``auto`` answers with by ``rule``, from
    each algorithm's S(k)/S_perm(k) curve (``curves``: model → Series over k) and vote
    (``votes``: model → k, NaN: none): :func:`winner` of :func:`standings`."""
    return winner(standings(curves, votes, rule))


def winner(table: pd.DataFrame) -> tuple[str | None, float]:
    """(the winning algorithm, the k it answers with) of :func:`standings`'s table; (None,
    NaN) if none."""
    row = table[table["winner"]]
    if row.empty:
        return None, np.nan
    return str(row["model"].iloc[0]), float(row["answer_k"].iloc[0])
