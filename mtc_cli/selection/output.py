"""What ``mtc select`` prints: the table of criteria (chosen k, its spread over splits, the
k range where the criterion is defined, what it optimises), the vote (who votes, majority,
plurality or run-off) with its tally and ties, the true k where labels were given — or the same as
JSON for scripts."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from mtc_cli.selection import answer, auto, voting
from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA, MODELS


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
    kind = ALGORITHMS[settings.model].kind
    if kind == "labels":
        line += "; one run of the algorithm serves every k"
    elif kind == "costs":
        n = settings.n_init
        line += f"; every fit the best of {n} start{'s' if n > 1 else ''} (n_init)"
    return line


def answer_lines(found: dict | None, k_lo: int = 1, k_hi: int | None = None) -> list[str]:
    """The answer and why, as every output says it (a row of ``answer.csv``,
    :class:`mtc_cli.selection.answer.Answer`): the answer (:func:`answer.headline`), how the
    rule reached it, a tie and how it was broken, what the tests of k = 1 found, an answer
    at the edge of the range with a wider one to try (``k_lo``, ``k_hi``: the range offered),
    and the doubt (:func:`answer.doubt`); no answer (no vote cast) said with why and the
    wider range to try."""
    if found is None:
        return []
    if not np.isfinite(found["k"]):
        lines = [f"Answer: {answer.headline(found)} — {found['how']}.",
                 "Every criterion's choice is in the table above; a choice at the largest k "
                 f"offered casts no vote, so a wider range may give one (--k {k_lo}..{2 * k_hi})."
                 if k_hi else "Every criterion's choice is in the table above."]
        return [""] + [w for line in lines
                       for w in textwrap.wrap(line, 100, subsequent_indent="  ")]
    lines = [f"Answer: {answer.headline(found)}."]
    if found["how"] != "no group structure":  # k = 1 by the tests says why below
        lines.append(f"How: {found['how']}.")
    for label, key in (("Tie", "tie"), ("Why", "why")):
        text = found.get(key)
        if isinstance(text, str) and text:
            lines.append(f"{label}: {text}.")
    if bool(found.get("at_edge")):
        k = int(found["k"])
        lines.append(f"At the edge: k = {k} is the largest k offered, and the data may hold "
                     f"more groups; try a wider range (--k {k_lo}..{2 * k}).")
    lines.append(f"Doubt: {answer.doubt(found)}.")
    return [""] + [w for line in lines
                   for w in textwrap.wrap(line, 100, subsequent_indent="  ")]


def answer_json(found: dict | None) -> dict | None:
    """The answer of ``answer.csv`` for ``--json``: model, k, headline, how, why, tie,
    at_edge, runner_up, support (of each, and out of how many draws), doubt, weak."""
    if found is None:
        return None

    def num(v):
        return None if v is None or not np.isfinite(v) else (int(v) if v == int(v) else v)

    def name(v):
        return v if isinstance(v, str) else None

    def text(v):
        return v if isinstance(v, str) else ""

    return {"model": name(found["model"]), "k": num(found["k"]),
            "headline": answer.headline(found), "how": found["how"],
            "why": text(found.get("why")), "tie": text(found.get("tie")),
            "at_edge": bool(found.get("at_edge")),
            "runner_up": {"model": name(found["runner_up_model"]),
                          "k": num(found["runner_up_k"])},
            "support": {"answer": num(found["support"]),
                        "runner_up": num(found["runner_up_support"]),
                        "out_of": num(float(found.get("draws") or np.nan))},
            "doubt": answer.doubt(found),
            "weak": bool(found["weak"])}


def terminal_report(summary: pd.DataFrame, settings, data, vote: pd.DataFrame,
                    found: dict | None = None) -> str:
    """The table of criteria, the vote, the answer with its doubt (``found``: a row of
    ``answer.csv``) and the notes, as plain text."""
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
    lines += vote_lines(vote, voting.rule_for(settings.model, settings.criteria), summary,
                        tested=_tested(settings))
    lines += answer_lines(found, settings.k_lo, settings.k_hi)
    true_k = summary["true_k"].iloc[0]
    if np.isfinite(true_k):
        lines.append(f"True k (distinct labels of the label column): {true_k:g} — reported, "
                     "never used by a criterion")
    lines += _notes(summary, settings, data)
    return "\n".join(lines)


def _tested(settings) -> bool:
    """Whether the shipped answer's tests of k = 1 decide k = 1 for this model's vote."""
    return answer.shipped_rule().tested({settings.model: None}) is not None


def vote_lines(vote: pd.DataFrame, rule, summary: pd.DataFrame, *,
               tested: bool = False) -> list[str]:
    """The vote said as it is: who votes under ``rule`` (and why the others do not),
    majority, plurality or run-off, how many voters cast a vote, every k tied for the lead
    and how the tie was broken, and why each voter without a vote cast none
    (:func:`mtc_cli.selection.voting.abstentions` of the ``summary``; ``tested``: the
    tests of k = 1 decide it)."""
    head = ["", f"Vote: {rule.describe()}.", *_silent_lines(rule.reasons)]
    silent = voting.abstentions(summary, rule, tested=tested)
    tail = _silent_lines(silent, "Without a vote")
    voted = vote.loc[vote["voted"], "k"]
    if not len(voted):
        return [*head, f"No vote: none of the {len(summary)} criteria cast one", *tail]
    cast = int(vote["votes"].sum())
    row = vote.loc[vote["voted"]].iloc[0]
    weighted = not np.allclose(vote["weight"], vote["votes"])
    tally = ", ".join(f"{k} ×{v}" + (f" (weight {w:.2f})" if weighted else "")
                      for k, v, w in zip(vote["k"], vote["votes"], vote["weight"],
                                         strict=True))
    how = voting.kind(vote)
    tie = voting.tie_words(vote) if how == "plurality" else ""
    tie = f"; {tie}" if tie else ""
    n = len(silent)
    without = f", {n} {'criterion' if n == 1 else 'criteria'} without a vote" if n else ""
    if rule.weights is not None and len(rule.weights) == 1:
        return [*head, f"Vote of the {next(iter(rule.weights))} alone: k = {row['k']}"
                       f"{f' ({without[2:]})' if without else ''}", *tail]
    if how == "run-off":
        final = vote[vote["finalist"]].sort_values("voted", ascending=False)
        (k, n), (k2, n2) = zip(final["k"], final["runoff_votes"].astype(int), strict=True)
        return [*head, f"Run-off vote: k = {k} ({n} of the {cast} votes cast back it "
                       f"against {n2} for k = {k2}, each voter backing the nearer "
                       f"finalist; first round {row['votes']} of {cast}{without}; tally "
                       f"{tally})", *tail]
    return [*head, f"{how.capitalize()} vote: k = {row['k']} ({row['votes']} of the {cast} "
                   f"votes cast{without}; tally {tally}{tie})", *tail]


def _silent_lines(reasons: dict, lead: str = "Not voting") -> list[str]:
    """The criteria that do not vote, one line per reason: ``reason: a (detail), b (…)``
    where a reason ends in a parenthesised detail of its own criterion, wrapped at 100."""
    groups: dict[str, list[str]] = {}
    for c, why in reasons.items():
        head, sep, detail = why.partition(" (")
        groups.setdefault(head, []).append(f"{c} ({detail}" if sep else c)
    return [textwrap.fill(f"{lead}, {head}: {', '.join(names)}.", 100,
                          initial_indent="  ", subsequent_indent="    ")
            for head, names in groups.items()]


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
    algorithm = ALGORITHMS[settings.model]
    if algorithm.kind == "labels" and data.n_items > settings.max_items // 2:
        out.append(f"{settings.model}: every fit on more than {settings.max_items} objects "
                   f"(the data, or a half of them) is made on a random sample of "
                   f"{settings.max_items}, the others labelled by its predictor "
                   f"({algorithm.predictors[0]}).")
    out += list(data.notes)
    if data.kind == "table" and not any("standardi" in n for n in data.notes):
        out.append("Features used as given (not standardised; --standardize to z-score).")
    return [""] + out if out else out


def summary_json(summary: pd.DataFrame, settings, data, vote: pd.DataFrame,
                 run_dir, found: dict | None = None) -> dict:
    """The selection as a JSON-able dict (``mtc select --json``); ``answer``: ``found``."""
    def num(v):
        return None if v is None or not np.isfinite(v) else (int(v) if v == int(v) else v)

    voted = vote.loc[vote["voted"], "k"]
    rule = voting.rule_for(settings.model, settings.criteria)
    silent = {**rule.reasons, **voting.abstentions(summary, rule, tested=_tested(settings))}
    return {
        "answer": answer_json(found),
        "data": {"file": data.source, "n_objects": int(data.n_items),
                 "n_features": int(data.n_features), "kind": data.kind,
                 "notes": list(data.notes)},
        "model": settings.model, "counts": MODELS[settings.model],
        "n_init": settings.n_init if ALGORITHMS[settings.model].clusters else None,
        "k_range": [settings.k_lo, settings.k_hi],
        "criteria": [{"criterion": r["criterion"], "selected_k": num(r["selected_k"]),
                      "spread": [num(r["selected_k_q25"]), num(r["selected_k_q75"])],
                      "defined": [int(r["k_min"]), int(r["k_max"])],
                      "optimises": r["optimises"], "at_edge": bool(r["at_edge"]),
                      "votes": r["criterion"] not in silent,
                      "without_vote": silent.get(r["criterion"], ""),
                      "note": r["note"] if isinstance(r["note"], str) else ""}
                     for _, r in summary.iterrows()],
        "vote": {"k": num(voted.iloc[0]) if len(voted) else None,
                 "kind": voting.kind(vote) if len(voted) else None,
                 "rule": rule.describe(),
                 "leading": [int(k) for k in vote.loc[vote["leading"], "k"]],
                 "voters": int(vote["votes"].sum()),
                 "tally": {str(k): int(v) for k, v in zip(vote["k"], vote["votes"],
                                                          strict=True)}},
        "true_k": num(summary["true_k"].iloc[0]),
        "results": str(run_dir),
    }


def auto_report(summary: pd.DataFrame, selections: dict, data, vote: pd.DataFrame,
                decision: pd.DataFrame, left: dict | None = None,
                found: dict | None = None) -> str:
    """``--model auto``: every algorithm's lowest normalised stability, its stability at its
    vote and its vote, those left out (``left``: algorithm → why its data check refused
    the data), the answer with its doubt (``found``: a row of ``answer.csv``) and the
    winner's own table of criteria."""
    best = decision[decision["winner"]]
    first = next(iter(selections.values()))
    rule = answer.shipped_rule()
    lines = [f"{data.source}: {data.n_items} objects × {data.n_features} features. Model auto: "
             f"every clustering algorithm, answered by {auto.words(rule.winner)} "
             f"(S(k)/S_perm(k): Lange et al. 2002's normalised stability, baseline the labels "
             f"permuted) and the algorithms' votes; k = {first.k_lo}..{first.k_hi}", ""]
    table = pd.DataFrame({
        "algorithm": decision["model"],
        "min S/S_perm": [f"{v:.3f}" if np.isfinite(v) else "–"
                         for v in decision["min_stability"]],
        "at k": [_k(v) for v in decision["stability_k"]],
        "vote": [_k(v) for v in decision["vote_k"]],
        "S/S_perm at vote": [f"{v:.3f}" if np.isfinite(v) else "–"
                             for v in decision["at_vote"]],
        "": ["← winner" if w else "" for w in decision["winner"]]})
    lines.append(table.to_string(index=False))
    lines += [f"Left out: {m}, which does not take these data: {why}"
              for m, why in (left or {}).items()]
    lines += [f"Left out: {m}, whose stability is not defined here: {why}"
              for m, why in auto.unranked(decision, stability_notes(summary)).items()]
    if best.empty:
        lines += ["", "No algorithm qualifies: no answer."]
    else:
        lines += answer_lines(found, first.k_lo, first.k_hi)
        model = best.iloc[0]["model"]
        own = summary[summary["model"] == model].drop(columns="model")
        own_vote = _own_vote(vote, model)
        lines += ["", f"The criteria of {model}:", "",
                  terminal_report(own, selections[model], data, own_vote)]
        voted = own_vote.loc[own_vote["voted"], "k"] if len(own_vote) else own_vote
        if found is not None and len(voted) and float(voted.iloc[0]) != found["k"]:
            lines += ["", f"(k = {int(voted.iloc[0])} is {model}'s own vote, not the answer: "
                          f"{answer.headline(found)}, as said above.)"]
    return "\n".join(lines)


def auto_json(summary: pd.DataFrame, selections: dict, data, vote: pd.DataFrame,
              decision: pd.DataFrame, run_dir, left: dict | None = None,
              found: dict | None = None) -> dict:
    """``--model auto`` as a JSON-able dict: the answer with its doubt (``found``), the
    decision, every algorithm's selection and those left out (``left``, as in
    :func:`auto_report`)."""
    def num(v):
        return None if v is None or not np.isfinite(v) else (int(v) if v == int(v) else v)

    return {
        "model": "auto",
        "answer": answer_json(found),
        "rule": answer.shipped_rule().describe(),
        "algorithms": [{"model": r["model"], "min_stability": num(r["min_stability"]),
                        "stability_k": num(r["stability_k"]), "vote_k": num(r["vote_k"]),
                        "at_vote": num(r["at_vote"]), "backers": int(r["backers"]),
                        "winner": bool(r["winner"])} for _, r in decision.iterrows()],
        "selections": {m: summary_json(summary[summary["model"] == m].drop(columns="model"),
                                       s, data, _own_vote(vote, m), run_dir)
                       for m, s in selections.items()},
        "left_out": {**(left or {}), **auto.unranked(decision, stability_notes(summary))},
        "results": str(run_dir),
    }


def stability_notes(summary: pd.DataFrame) -> dict:
    """model → the note of its stability (``auto``'s summary, a ``model`` column first)."""
    rows = summary[summary["criterion"] == "stability"]
    return dict(zip(rows["model"], rows["note"], strict=True))


def _own_vote(vote: pd.DataFrame, model: str) -> pd.DataFrame:
    """One algorithm's vote table out of the stacked ``vote.csv`` of ``auto`` (without the
    columns only other algorithms' rules fill, e.g. a run-off's ``finalist``); an algorithm
    without a tally (no criterion cast a vote) keeps every column, its table empty."""
    own = vote[vote["model"] == model].drop(columns="model")
    own = own.dropna(axis=1, how="all") if len(own) else own
    flags = [c for c in ("voted", "leading", "finalist") if c in own.columns]
    return own.astype({c: bool for c in flags}).reset_index(drop=True)
