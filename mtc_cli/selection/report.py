"""What ``mtc select`` prints: the table of criteria (chosen k, its spread over splits, the
k range where the criterion is defined, what it optimises), the vote (majority or
plurality) with its tally and ties, the true k where labels were given — or the same as
JSON for scripts."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtc_cli.selection import choice
from mtc_cli.selection.criteria import CLUSTERING, CRITERIA, MODELS


def _k(v) -> str:
    return "–" if v is None or not np.isfinite(v) else f"{v:g}"


def _spread(row) -> str:
    lo, hi = row["selected_k_q25"], row["selected_k_q75"]
    if not np.isfinite(lo):
        return "–"
    return f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"


def _data_line(data, settings) -> str:
    kind = {"table": "features", "sparse": "terms (sparse)", "image": "pixels per patch",
            "boolean": "columns (0/1)"}[data.kind]
    line = (f"{data.source}: {data.n_items} objects × {data.n_features} {kind}. Model "
            f"{settings.model}: k = {MODELS[settings.model]}, {settings.k_lo}..{settings.k_hi}")
    if settings.model in CLUSTERING:
        n = settings.n_init
        line += f"; every fit the best of {n} start{'s' if n > 1 else ''} (n_init)"
    return line


def terminal_report(summary: pd.DataFrame, settings, data, vote: pd.DataFrame) -> str:
    """The table of criteria, the vote and the notes, as plain text."""
    table = pd.DataFrame({
        "criterion": summary["criterion"],
        "k": [_k(v) + (" ↑" if e else "") for v, e in zip(summary["selected_k"],
                                                            summary["at_edge"], strict=True)],
        "spread": [_spread(r) for _, r in summary.iterrows()],
        "defined": [f"{a}–{b}" for a, b in zip(summary["k_min"], summary["k_max"],
                                               strict=True)],
        "optimises": summary["optimises"],
    })
    with pd.option_context("display.max_colwidth", 90, "display.width", 200):
        lines = [_data_line(data, settings), "", table.to_string(index=False)]
    lines += vote_lines(vote, len(summary))
    true_k = summary["true_k"].iloc[0]
    if np.isfinite(true_k):
        lines.append(f"True k (distinct labels of the label column): {true_k:g} — reported, "
                     "never used by a criterion")
    lines += _notes(summary, settings, data)
    return "\n".join(lines)


def vote_lines(vote: pd.DataFrame, n_criteria: int) -> list[str]:
    """The vote said as it is: majority or plurality, of how many criteria that voted
    (those without a choice abstain), and every k that ties for the lead."""
    voted = vote.loc[vote["voted"], "k"]
    if not len(voted):
        return ["", f"No vote: none of the {n_criteria} criteria made a choice"]
    voters = int(vote["votes"].sum())
    top = int(vote.loc[vote["voted"], "votes"].iloc[0])
    kind = choice.vote_kind(top, voters)
    tally = ", ".join(f"{k} ×{v}" for k, v in zip(vote["k"], vote["votes"], strict=True))
    abstain = f", {n_criteria - voters} without a choice" if voters < n_criteria else ""
    leading = vote.loc[vote["leading"], "k"].tolist()
    tie = (f"; k = {', '.join(map(str, leading))} tie with {top} votes each, the smallest "
           "is given" if len(leading) > 1 else "")
    return ["", f"{kind.capitalize()} vote: k = {voted.iloc[0]} ({top} of {voters} criteria "
                f"that voted{abstain}; tally {tally}{tie})"]


def _notes(summary, settings, data) -> list[str]:
    out = []
    late = [c for c in summary["criterion"] if CRITERIA[c].k_min > settings.k_lo]
    if late:
        out.append(f"Undefined at k = 1, so starting at k = 2: {', '.join(late)}.")
    if summary["at_edge"].any():
        out.append("↑ chosen at the largest k offered: the curve may keep improving beyond "
                   "it (widen --k).")
    spreads = summary["selected_k_q25"].notna()
    if spreads.any():
        out.append(f"Spread: quartiles of the choice over the {settings.splits} random splits "
                   "(or permutations); – where a criterion reads one curve.")
    for _, r in summary.iterrows():
        if isinstance(r["note"], str) and r["note"]:
            out.append(f"{r['criterion']}: {r['note']}")
    out += list(data.notes)
    if data.kind == "table" and not any("standardi" in n for n in data.notes):
        out.append("Features used as given (not standardised; --standardize to z-score).")
    return [""] + out if out else out


def summary_json(summary: pd.DataFrame, settings, data, vote: pd.DataFrame,
                 run_dir) -> dict:
    """The selection as a JSON-able dict (``mtc select --json``)."""
    def num(v):
        return None if v is None or not np.isfinite(v) else (int(v) if v == int(v) else v)

    voted = vote.loc[vote["voted"], "k"]
    return {
        "data": {"file": data.source, "n_objects": int(data.n_items),
                 "n_features": int(data.n_features), "kind": data.kind,
                 "notes": list(data.notes)},
        "model": settings.model, "counts": MODELS[settings.model],
        "n_init": settings.n_init if settings.model in CLUSTERING else None,
        "k_range": [settings.k_lo, settings.k_hi],
        "criteria": [{"criterion": r["criterion"], "selected_k": num(r["selected_k"]),
                      "spread": [num(r["selected_k_q25"]), num(r["selected_k_q75"])],
                      "defined": [int(r["k_min"]), int(r["k_max"])],
                      "optimises": r["optimises"], "at_largest_k": bool(r["at_edge"]),
                      "note": r["note"] if isinstance(r["note"], str) else ""}
                     for _, r in summary.iterrows()],
        "vote": {"k": num(voted.iloc[0]) if len(voted) else None,
                 "kind": (choice.vote_kind(int(vote.loc[vote["voted"], "votes"].iloc[0]),
                                           int(vote["votes"].sum())) if len(voted) else None),
                 "leading": [int(k) for k in vote.loc[vote["leading"], "k"]],
                 "voters": int(vote["votes"].sum()),
                 "tally": {str(k): int(v) for k, v in zip(vote["k"], vote["votes"],
                                                          strict=True)}},
        "true_k": num(summary["true_k"].iloc[0]),
        "results": str(run_dir),
    }
