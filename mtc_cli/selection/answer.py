"""The answer of ``mtc select``: one algorithm and one k, by the rule the league of families
chose (:class:`AnswerRule`, shipped as ``answer_rule.csv``: :func:`shipped_rule`). The league
judges its candidates with the same object (``experiments/league``), so that what it scores
is what ships.

- **Which model answers**: one algorithm (its vote), or ``auto`` — every algorithm of its
  roster, one chosen by ``winner`` (:func:`mtc_cli.selection.auto.standings`) and its vote.
- **k = 1 as its own question** (``k1_test``, ``k1_level``): "no group structure" only when
  the tests of k = 1 of the catalog (:data:`mtc_cli.selection.catalog.GATES`) named by the
  rule all say so; otherwise the answer is among k ≥ 2: each algorithm's vote with every
  choice of k = 1 left out, so that an algorithm whose stability has just found structure at
  k ≥ 2 never answers k = 1.
- **Its doubt** (:func:`find`): the share of the random splits whose vote gives the answer's
  k, and the runner-up's.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from mtc_cli.selection import auto, voting
from mtc_cli.selection.catalog import ALGORITHMS, GATES
from mtc_cli.selection.shipped import answer_rule


@dataclass(frozen=True)
class Evidence:
    """What an answer reads of one data set: per algorithm its criteria's choices
    (``choices``: model → {criterion: k}) and its S(k)/S_perm(k) (``curves``: model → a
    Series over k; ``auto`` reads them), the largest k offered (``k_hi``) and what the tests
    of k = 1 measure of the data (``measures``: test → value, e.g. the dip test's p)."""

    choices: dict
    k_hi: int
    curves: dict = field(default_factory=dict)
    measures: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Said:
    """What the tests of k = 1 found: whether there is no group structure (all say so), and
    in words (empty: no test)."""

    no_structure: bool = False
    words: str = ""


@dataclass(frozen=True)
class Decision:
    """An answer without its doubt: the ``model`` and ``k`` voted (before the test of k = 1),
    ``how`` it was reached, the runner-up (``runner_up_model``, ``runner_up_k``), each
    algorithm's tally, ``auto``'s decision table (None for one algorithm) and what the test
    of k = 1 found (``said``); ``k`` the answer: 1 where the test finds no group
    structure."""

    voted_model: str | None
    voted_k: float
    how: str
    runner_up_model: str | None
    runner_up_k: float
    tallies: dict
    table: pd.DataFrame | None
    said: Said

    @property
    def k(self) -> float:
        return 1.0 if self.said.no_structure else self.voted_k


def at_least_two(choices: dict) -> dict:
    """Criterion → k with every choice of k = 1 left out (NaN: abstains)."""
    return {c: (k if k is not None and np.isfinite(k) and k >= 2 else np.nan)
            for c, k in choices.items()}


@dataclass(frozen=True)
class AnswerRule:
    """How ``mtc select`` answers: ``model`` (an algorithm, or ``auto``: its ``winner`` rule
    of :data:`mtc_cli.selection.auto.WINNER_RULES` among the algorithms), and the test of
    k = 1 ``k1_test`` — ``none``, a test of the catalog, or several joined by ``+`` (all
    must say so) — at ``k1_level`` for the tests with a level (the dip test)."""

    model: str = "auto"
    winner: str = "lowest"
    k1_test: str = "none"
    k1_level: float = 0.05

    def __post_init__(self):
        unknown = [t for t in self.k1_test.split("+") if t not in GATES]
        if self.k1_test != "none" and unknown:
            raise ValueError(f"unknown test of k = 1 {self.k1_test!r}: none, or tests of "
                             f"{', '.join(GATES)} joined by +")

    @property
    def tests(self) -> list[str]:
        return [] if self.k1_test == "none" else self.k1_test.split("+")

    def describe(self) -> str:
        if self.tests:
            words = {"gap": "the gap statistic's 1-s.e. rule (k-means)",
                     "duda_hart": "Duda & Hart's test (k-means)",
                     "dip": f"Hartigan's dip test of the first principal component at "
                            f"{self.k1_level:g}"}
            test = " and ".join(words.get(t, GATES[t].asks) for t in self.tests)
        else:
            test = "the votes themselves"
        return f"algorithm by {self.winner.replace('_', ' ')}; k = 1 decided by {test}"

    def tested(self, models) -> str | None:
        """The algorithm among ``models`` whose choices the tests of k = 1 read: k-means, or
        if it did not run the first; None without a test, or when it does not cluster."""
        if not self.tests or not models:
            return None
        model = "kmeans" if "kmeans" in models else next(iter(models))
        return model if ALGORITHMS[model].clusters else None

    def reads(self, model: str, criteria, *, tested: bool) -> tuple:
        """The criteria among ``criteria`` that ``auto``'s answer reads of ``model``: the
        stability (auto ranks the algorithms by it), those of the model's vote
        (:func:`mtc_cli.selection.voting.rule_for`; every one under a plurality) and, for
        the algorithm the tests of k = 1 read (``tested``, :meth:`tested`), the tests'."""
        weights = voting.rule_for(model, criteria).weights
        read = {"stability", *(criteria if weights is None else weights)}
        if tested:
            read |= set(self.tests)
        return tuple(c for c in criteria if c in read)

    def measure(self, X, models) -> dict:
        """What the rule's tests of k = 1 measure of the data X for a selection of
        ``models`` (nothing where no test is read: :meth:`tested`)."""
        if self.tested(models) is None:
            return {}
        return {t: GATES[t].measure(X) for t in self.tests if GATES[t].measure is not None}

    def test(self, ev: Evidence) -> Said:
        """The rule's test of k = 1 on ``ev`` (:meth:`tested`: of whose choices; nothing said
        without one)."""
        model = self.tested(ev.choices)
        if model is None:
            return Said()
        picks = ev.choices[model]
        found = [(GATES[t], ev.measures.get(t, np.nan)) for t in self.tests]
        one = all(g.says_one(m, picks, self.k1_level) for g, m in found)
        words = " and ".join(g.words(m, picks, self.k1_level, model) for g, m in found)
        return Said(one, words)

    def decide(self, ev: Evidence, votes: dict) -> Decision:
        """The answer to ``ev`` with each algorithm's vote by ``votes`` (model →
        :class:`~mtc_cli.selection.voting.VoteRule`)."""
        said = self.test(ev)
        tallies, voted = {}, {}
        for m, picks in ev.choices.items():
            if self.model in ("auto", m):  # the algorithms this rule reads the votes of
                picks = at_least_two(picks) if said.words else picks
                voted[m], tallies[m] = voting.elect(picks, votes[m], ev.k_hi)
        if self.model != "auto":
            m = self.model
            if m not in tallies:
                return Decision(m, np.nan, "no vote: the algorithm did not run", None, np.nan,
                                tallies, None, said)
            k, second = _vote_and_next(tallies[m])
            how = (f"{voting.kind(tallies[m])} vote of {m}" if np.isfinite(k)
                   else "no vote: no criterion cast one")
            return Decision(m, k, how, m if np.isfinite(second) else None, second, tallies,
                            None, said)
        table = auto.standings({m: ev.curves.get(m, pd.Series(dtype=float)) for m in voted},
                               voted, self.winner)
        best, k = auto.winner(table)
        second, k2 = auto.runner_up(table, self.winner)
        how = (f"auto: {best}, chosen by {auto.RULE_WORDS[self.winner]}" if best
               else "auto: no algorithm qualifies")
        return Decision(best, k, how, second, k2, tallies, table, said)


def _vote_and_next(tally: pd.DataFrame) -> tuple[float, float]:
    """(the voted k, the runner-up: the other finalist of a run-off, else the k of next most
    weight) of a tally (:func:`mtc_cli.selection.voting.elect`)."""
    voted = tally.loc[tally["voted"], "k"]
    if not len(voted):
        return np.nan, np.nan
    others = tally[~tally["voted"]]
    if "finalist" in tally.columns:
        others = others[others["finalist"]]
    others = others.sort_values(["weight", "k"], ascending=[False, True])
    return float(voted.iloc[0]), float(others["k"].iloc[0]) if len(others) else np.nan


def shipped_rule(model: str = "auto") -> AnswerRule:
    """The answer's rule mtc ships (:func:`mtc_cli.selection.shipped.answer_rule`), for
    ``model`` (an algorithm, or ``auto``)."""
    s = answer_rule()
    return AnswerRule(model=model, winner=s.get("auto_winner", "lowest"),
                      k1_test=s.get("k1_test", "none"), k1_level=float(s.get("k1_level", 0.05)))


def default_model() -> str:
    """The model that answers by default on a table: the league's best answer."""
    return answer_rule()["default_model"]


# --- the answer with its doubt --------------------------------------------------------------

#: below this share of the random splits reproducing it, an answer is said to be weak
WEAK_SUPPORT = 0.6


@dataclass(frozen=True)
class Answer:
    """One answer with its doubt: the ``model`` and ``k``, how it was reached (``how``),
    the runner-up (model, k), and the ``support`` of each — the share of the random splits
    on which the vote, every split-based criterion read on that split alone, gives that k
    (NaN where it does not apply: a test's k = 1, a model without splits). ``weak``: the
    answer's support is below :data:`WEAK_SUPPORT`."""

    model: str | None
    k: float
    how: str
    runner_up_model: str | None = None
    runner_up_k: float = np.nan
    support: float = np.nan
    runner_up_support: float = np.nan

    @property
    def weak(self) -> bool:
        return bool(np.isfinite(self.support) and self.support < WEAK_SUPPORT)

    def row(self) -> dict:
        """The answer as one row of ``answer.csv``."""
        return {"model": self.model, "k": self.k, "how": self.how,
                "runner_up_model": self.runner_up_model, "runner_up_k": self.runner_up_k,
                "support": self.support, "runner_up_support": self.runner_up_support,
                "weak": self.weak}


def split_shares(rows, summary, settings, rule) -> dict:
    """k → the share of the random splits whose vote under ``rule`` gives k: each split
    recomputed with every criterion read per split (MTC, capacity, stability, prediction
    strength) on that split alone, the others as chosen on all splits."""
    from mtc_cli.selection import choice

    base = choice.choices(summary)
    per = choice.per_split(rows, settings)
    n = max((len(v) for v in per.values()), default=0)
    if n == 0:
        return {}
    counts: dict = {}
    for r in range(n):
        picks = {**base, **{c: v[r] for c, v in per.items() if r < len(v)}}
        k = voting.elect(picks, rule, settings.k_hi)[0]
        counts[k] = counts.get(k, 0) + 1
    return {k: c / n for k, c in counts.items()}


def evidence(X, rows: dict, summaries: dict, settings: dict, rule: AnswerRule) -> Evidence:
    """The :class:`Evidence` of a selection: each model's choices (``summaries``: model →
    summary table), under ``auto`` its S(k)/S_perm(k) (``rows``: model → its rows), and what
    ``rule``'s tests measure of X."""
    from mtc_cli.selection import choice

    curves = ({m: auto.normalised_stability(rows[m]) for m in settings}
              if rule.model == "auto" else {})
    return Evidence({m: choice.choices(summaries[m]) for m in settings},
                    max(s.k_hi for s in settings.values()), curves, rule.measure(X, settings))


def find(X, rows: dict, summaries: dict, settings: dict, *, auto_mode: bool,
         rule: AnswerRule | None = None):
    """The answer of a selection with its doubt, by ``rule`` (default: the shipped one) for
    ``auto`` or the one model of ``settings``: (:class:`Answer`, each model's tally, ``auto``'s
    decision table or None). ``rows``, ``summaries``, ``settings``: model → its rows, summary
    table and Settings."""
    rule = replace(rule or shipped_rule(), model="auto" if auto_mode else next(iter(settings)))
    votes = {m: voting.rule_for(m, s.criteria) for m, s in settings.items()}
    d = rule.decide(evidence(X, rows, summaries, settings, rule), votes)
    shares = {m: split_shares(rows[m], summaries[m], settings[m], votes[m])
              for m in dict.fromkeys((d.voted_model, d.runner_up_model)) if m is not None}

    def share(m, k) -> float:
        return shares[m].get(k, np.nan) if m is not None and np.isfinite(k) else np.nan

    found = Answer(d.voted_model, d.voted_k, d.how, d.runner_up_model, d.runner_up_k,
                   share(d.voted_model, d.voted_k), share(d.runner_up_model, d.runner_up_k))
    if d.said.no_structure:
        found = Answer(found.model, 1.0, f"no group structure: {d.said.words}", found.model,
                       found.k, np.nan, found.support)
    elif d.said.words:
        found = replace(found, how=f"{found.how}; {d.said.words}")
    return found, d.tallies, d.table
