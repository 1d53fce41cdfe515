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
from mtc_cli.selection.measuring import Measuring
from mtc_cli.selection.shipped import answer_rule


@dataclass(frozen=True)
class Facts:
    """What an answer reads of one data set: per algorithm its criteria's choices
    (``choices``: model → {criterion: k}) and its S(k)/S_perm(k) (``curves``: model → a
    Series over k; ``auto`` reads them), the range's edge (``k_hi``: the largest k offered,
    inf where it is the number of distinct rows, :func:`~mtc_cli.selection.settings.edge`),
    and
    ``measure(test, k, param, model)``: what a test of k = 1 of the catalog measures of the
    data at k̂ = ``k`` of the answering ``model`` (:class:`Measuring` for a selection; the
    league's stored statistics)."""

    choices: dict
    k_hi: float
    curves: dict = field(default_factory=dict)
    measure: object = None
    #: the number of distinct rows where it is no more than ``k_hi`` (the data are that many
    #: rows repeated: the tests of k = 1, made for continuous data, do not apply), else None
    atoms: int | None = None
    #: the smallest k offered: k = 1 is tested only where it is offered
    k_lo: int = 1
    #: what rules computed of these facts, for others that share it (the league scores many
    #: rules on one data set): each algorithm's vote and auto's standings, by their inputs
    memo: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Said:
    """What the tests of k = 1 found at k̂ = ``k``: whether there is no group structure (all
    say so), in words (empty: no test), and each test's ``evidence``
    (:class:`~mtc_cli.core.criteria.one_group.Evidence`)."""

    no_structure: bool = False
    words: str = ""
    evidence: tuple = ()
    k: float = np.nan


@dataclass(frozen=True)
class Decision:
    """An answer without its doubt: the ``model`` and ``k`` voted (before the test of k = 1),
    ``how`` it was reached, the runner-up (``runner_up_model``, ``runner_up_k``), each
    algorithm's tally, ``auto``'s decision table (None for one algorithm) and what the test
    of k = 1 found at the k voted (``said``); ``k`` the answer: 1 where the test finds no
    group structure."""

    voted_model: str | None
    voted_k: float
    how: str
    runner_up_model: str | None
    runner_up_k: float
    tallies: dict
    table: pd.DataFrame | None
    said: Said
    #: how a tie was broken on the way to the answer, in words ("" without one)
    tie: str = ""

    @property
    def k(self) -> float:
        return 1.0 if self.said.no_structure else self.voted_k


def at_least_two(choices: dict) -> dict:
    """Criterion → k with every choice of k = 1 left out (NaN: abstains)."""
    return {c: (k if k is not None and np.isfinite(k) and k >= 2 else np.nan)
            for c, k in choices.items()}


@dataclass(frozen=True)
class AnswerRule:
    """How ``mtc select`` answers: ``model`` (an algorithm, or ``auto``: its ``winner`` rule of
    :data:`mtc_cli.selection.auto.WINNER_RULES` among the algorithms, HDBSCAN's own count at
    ``count_size`` taking part as ``count_use`` says,
    :data:`~mtc_cli.selection.auto.COUNT_USES`), and the test of k = 1 ``k1_test``:
    ``none``, or tests of the catalog (:data:`mtc_cli.selection.catalog.GATES`) joined by
    ``+``, each with its parameter after ``@`` (a level; HDBSCAN's min_cluster_size) or its
    default (``k1_level`` for a level): "no group structure" only where every one of them
    says so at the k voted."""

    model: str = "auto"
    winner: str = "lowest"
    k1_test: str = "none"
    k1_level: float = 0.05
    count_use: str = "none"
    count_size: int = 10

    def __post_init__(self):
        unknown = [t.partition("@")[0] for t in self.k1_test.split("+")
                   if t.partition("@")[0] not in GATES]
        if self.k1_test != "none" and unknown:
            raise ValueError(f"unknown test of k = 1 {self.k1_test!r}: none, or tests of "
                             f"{', '.join(GATES)} joined by +")
        auto.parse_rule(self.winner)
        if self.count_use not in auto.COUNT_USES:
            raise ValueError(f"unknown use of HDBSCAN's count {self.count_use!r}: one of "
                             f"{', '.join(auto.COUNT_USES)}")

    @property
    def tests(self) -> list[tuple[str, float]]:
        """(test, its parameter) of ``k1_test``."""
        if self.k1_test == "none":
            return []
        out = []
        for t in self.k1_test.split("+"):
            name, _, param = t.partition("@")
            gate = GATES[name]
            default = self.k1_level if gate.param_is_level else gate.param
            out.append((name, float(param) if param else default))
        return out

    def describe(self) -> str:
        if self.tests:
            test = " and ".join(GATES[t].asks + (f" at {p:g}" if GATES[t].param_is_level
                                                  else f" ({p:g})" if p is not None else "")
                                for t, p in self.tests)
        else:
            test = "the votes themselves"
        count = ("" if self.count_use == "none" else
                 f"; HDBSCAN's own count (min_cluster_size {self.count_size}) breaking "
                 + ("a tie" if self.count_use == "tiebreak" else "a disagreement"))
        return (f"algorithm by {auto.words(self.winner)}{count}; k = 1 decided by {test}")

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
        the algorithm the tests of k = 1 read (``tested``, :meth:`tested`), the criteria
        the tests read (the gap statistic for the gap tests)."""
        weights = voting.rule_for(model, criteria).weights
        read = {"stability", *(criteria if weights is None else weights)}
        if tested:
            read |= {"gap" if t == "gap_at_k" else t for t, _ in self.tests}
        return tuple(c for c in criteria if c in read)

    def test(self, facts: Facts, k: float, answering: str | None = None) -> Said:
        """The rule's tests of k = 1 on ``facts``, weighed at k̂ = ``k`` (2 where no k ≥ 2
        was voted) of the ``answering`` algorithm, and why, in words: for no group structure
        what every test found; else what the tests that see groups found ("k = 1 ruled
        out: …"). Nothing said without a test (:meth:`tested`) or where k = 1 is not
        offered."""
        model = self.tested(facts.choices)
        if model is None or facts.k_lo > 1:
            return Said()
        at = int(k) if np.isfinite(k) else 2
        if facts.atoms is not None:
            return Said(False, f"no test of k = 1: the data are {facts.atoms} distinct rows "
                               "repeated, each one a group of copies", (), float(at))
        evidence = tuple(GATES[t].judge(facts.measure(GATES[t], at, p, answering), at, p)
                         for t, p in self.tests)
        said = [(e, GATES[t].words(e, model))
                for (t, _), e in zip(self.tests, evidence, strict=True)]
        one = all(e.says_one for e in evidence)
        seen = [w for e, w in said if not e.says_one and np.isfinite(e.statistic)]
        if one:
            words = " and ".join(w for _, w in said)
        elif seen:
            words = "k = 1 ruled out: " + "; ".join(seen)
        else:
            words = "k = 1 not tested: " + "; ".join(w for _, w in said)
        return Said(one, words, evidence, float(at))

    def own_support(self, facts: Facts, k: float, answering: str | None, draws: int) -> float:
        """The share of ``draws`` redraws of its tests' randomness
        (:meth:`~mtc_cli.selection.measuring.Measuring.redrawn`: random split r's stability,
        the gap's reference sets resampled, new samples and simulations) on which the
        rule's tests of k = 1 all say so again at k̂ = ``k``: the doubt of a k = 1 answer."""
        said = [self.test(replace(facts, measure=facts.measure.redrawn(r)), k,
                          answering).no_structure for r in range(draws)]
        return float(np.mean(said)) if said else np.nan

    def decide(self, facts: Facts, votes: dict) -> Decision:
        """The answer to ``facts`` with each algorithm's vote by ``votes`` (model →
        :class:`~mtc_cli.selection.voting.VoteRule`): :meth:`elect`, then the tests of k = 1
        at the k it gives (:meth:`test`)."""
        d = self.elect(facts, votes)
        return replace(d, said=self.test(facts, d.voted_k, d.voted_model))

    def elect(self, facts: Facts, votes: dict) -> Decision:
        """The answer to ``facts`` before the tests of k = 1: each algorithm's vote — among
        k ≥ 2 where the rule has a test — and the algorithm that answers."""
        gated = self.tested(facts.choices) is not None
        tallies, voted = {}, {}
        for m, picks in facts.choices.items():
            if self.model in ("auto", m):  # the algorithms this rule reads the votes of
                key = ("vote", m, id(votes[m]), gated)
                if key not in facts.memo:
                    facts.memo[key] = voting.elect(at_least_two(picks) if gated else picks,
                                                   votes[m], facts.k_hi)
                voted[m], tallies[m] = facts.memo[key]
        if self.model != "auto":
            m = self.model
            if m not in tallies:
                return Decision(m, np.nan, "no vote: the algorithm did not run", None, np.nan,
                                tallies, None, Said())
            k, second = _vote_and_next(tallies[m])
            how = (f"{voting.kind(tallies[m])} vote of {m}" if np.isfinite(k)
                   else "no vote: no criterion cast one")
            return Decision(m, k, how, m if np.isfinite(second) else None, second, tallies,
                            None, Said(), voting.tie_words(tallies[m]))
        count = (facts.measure(GATES["hdbscan"], 1, self.count_size)
                 if self.count_use != "none" else np.nan)
        key = ("auto", self.winner, self.count_use, count, tuple(sorted(voted.items())))
        if key not in facts.memo:
            table = auto.standings({m: facts.curves.get(m, pd.Series(dtype=float))
                                    for m in voted}, voted, self.winner, count=count,
                                   count_use=self.count_use)
            facts.memo[key] = (table, auto.winner(table), auto.runner_up(table, self.winner))
        table, (best, k), (second, k2) = facts.memo[key]
        how = (f"auto: {best}, chosen by {auto.words(self.winner)}" if best
               else "auto: no algorithm qualifies")
        ties = [auto.tie_words(table, self.winner, count)]
        if best and auto.parse_rule(self.winner)[0] != "consensus":
            ties.append(voting.tie_words(tallies[best]))  # it answers with its vote
        return Decision(best, k, how, second, k2, tallies, table, Said(),
                        "; ".join(t for t in ties if t))


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
                      k1_test=s.get("k1_test", "none"), k1_level=float(s.get("k1_level", 0.05)),
                      count_use=s.get("count_use", "none"),
                      count_size=int(s.get("count_size", 10)))


def default_model() -> str:
    """The model that answers by default on a table: the league's best answer."""
    return answer_rule()["default_model"]


# --- the answer with its doubt --------------------------------------------------------------

#: below this share of the random splits reproducing it, an answer is said to be weak
WEAK_SUPPORT = 0.6


@dataclass(frozen=True)
class Answer:
    """One answer with its doubt: the ``model`` and ``k`` (no model for k = 1, no group
    structure: said by the tests of k = 1, ``how`` "no group structure", or by the vote
    itself, ``how`` the vote's path), ``how`` it was reached (the rule's path) and ``why``
    (what the tests of k = 1 found, for the answer), the runner-up (model, k: the rule's
    best candidate of another k; for k = 1, the best k ≥ 2), and the ``support`` of each —
    the share of the random splits on which the vote, every split-based criterion read on
    that split alone, gives that k (0 where none does; NaN for a model without splits); a
    k = 1 of the tests of k = 1: the share of their random draws on which they say so again
    (:meth:`AnswerRule.own_support`) — out of ``draws``. ``at_edge``: k is the largest k
    offered (:func:`~mtc_cli.selection.settings.edge`); ``tie``: how a tie on the way was
    broken. ``weak``: the answer's support is below :data:`WEAK_SUPPORT`."""

    model: str | None
    k: float
    how: str
    runner_up_model: str | None = None
    runner_up_k: float = np.nan
    support: float = np.nan
    runner_up_support: float = np.nan
    why: str = ""
    draws: int = 0
    at_edge: bool = False
    tie: str = ""

    @property
    def weak(self) -> bool:
        return bool(np.isfinite(self.support) and self.support < WEAK_SUPPORT)

    def row(self) -> dict:
        """The answer as one row of ``answer.csv``."""
        return {"model": self.model, "k": self.k, "how": self.how, "why": self.why,
                "runner_up_model": self.runner_up_model, "runner_up_k": self.runner_up_k,
                "support": self.support, "runner_up_support": self.runner_up_support,
                "draws": self.draws, "weak": self.weak, "at_edge": self.at_edge,
                "tie": self.tie}


def _of(share: float, draws: int) -> str:
    """A share said as a count out of ``draws`` ("7 of 10"), or a percentage."""
    if draws > 0 and np.isfinite(share):
        return f"{int(round(share * draws))} of {draws}"
    return f"{share:.0%} of the"


def _k(v) -> str:
    return f"{int(v)}" if np.isfinite(v) else "–"


def headline(a: dict) -> str:
    """The answer of a row of ``answer.csv`` (:meth:`Answer.row`) in a few words: "no group
    structure (k = 1)", or the model and k."""
    k = a.get("k")
    if not isinstance(a.get("model"), str) or k is None or not np.isfinite(k):
        return "no group structure (k = 1)" if k == 1 else "no answer"
    return f"{a['model']}, k = {_k(k)}"


def doubt(a: dict) -> str:
    """The doubt of a row of ``answer.csv`` in plain words, the one definition every output
    uses (docs/select.md, "Reading the answer"): how many of the random splits back the
    answer (for k = 1 of the tests of k = 1: how many of their own redraws say so again)
    and the runner-up —
    the rule's best candidate of another k; for k = 1 the best k ≥ 2 — with its backing;
    "weak" below :data:`WEAK_SUPPORT`."""
    draws = int(a.get("draws") or 0)
    support, second = float(a.get("support", np.nan)), float(a.get("runner_up_k", np.nan))
    one = not isinstance(a.get("model"), str) and a.get("k") == 1
    tested = one and isinstance(a.get("why"), str) and bool(a.get("why"))
    if tested:
        out = ([f"the tests of k = 1 say so again on {_of(support, draws)} redraws of their "
                "randomness (splits, reference sets, samples)"] if np.isfinite(support)
               else [])
    elif np.isfinite(support):
        out = [f"the answer is backed by {_of(support, draws)} random splits"]
    else:
        out = ["no random split measures it (no criterion of the model reads them)"]
    if np.isfinite(second):
        other = a.get("runner_up_model")
        who = f"{other} at k = {_k(second)}" if isinstance(other, str) else f"k = {_k(second)}"
        what = "the best k ≥ 2" if one else "the runner-up (the best other k)"
        backed = float(a.get("runner_up_support", np.nan))
        out.append(f"{what}, {who}" + (f", by {_of(backed, draws)}" if np.isfinite(backed)
                                        else ""))
    text = "; ".join(out)
    if bool(a.get("weak")):
        text += (f" — a weak answer: fewer than {WEAK_SUPPORT:.0%} of the "
                 f"{'redraws say so' if tested else 'random splits back it'}")
    return text


def split_shares(rows, summary, settings, rule, distinct: int | None = None) -> dict:
    """k → the share of the random splits whose vote under ``rule`` gives k: each split
    recomputed with every criterion read per split (MTC, capacity, stability, prediction
    strength) on that split alone, the others as chosen on all splits (``distinct``: the
    number of distinct rows, :func:`~mtc_cli.selection.settings.edge`)."""
    from mtc_cli.selection import choice
    from mtc_cli.selection.settings import edge

    base = choice.choices(summary)
    per = choice.per_split(rows, settings)
    n = max((len(v) for v in per.values()), default=0)
    if n == 0:
        return {}
    counts: dict = {}
    for r in range(n):
        picks = {**base, **{c: v[r] for c, v in per.items() if r < len(v)}}
        k = voting.elect(picks, rule, edge(settings, distinct))[0]
        counts[k] = counts.get(k, 0) + 1
    return {k: c / n for k, c in counts.items()}


def facts(X, rows: dict, summaries: dict, settings: dict, rule: AnswerRule, *,
          curves: dict | None = None, digest: str = "0" * 24,
          distinct: int | None = None) -> Facts:
    """The :class:`Facts` of a selection: each model's choices (``summaries``: model →
    summary table), under ``auto`` its S(k)/S_perm(k) (``rows``: model → its rows), and
    what the rule's tests measure of X (:class:`Measuring`: the tested algorithm's curves,
    ``curves``: model → its curves table; its generators seeded by the data's ``digest``)
    and, where the ``distinct`` rows of X are no more than the largest k, their number."""
    from mtc_cli.selection import choice

    choices = {m: choice.choices(summaries[m]) for m in settings}
    tested = rule.tested(choices)
    table = (curves or {}).get(tested, pd.DataFrame(columns=["criterion", "k", "value"]))
    stability = {m: auto.normalised_stability(rows[m]) for m in settings
                 if "stability" in settings[m].criteria}
    from mtc_cli.selection.settings import edge

    max_items = min(s.max_items for s in settings.values())
    k_hi = max(s.k_hi for s in settings.values())
    return Facts(choices, max(edge(s, distinct) for s in settings.values()),
                 stability if rule.model == "auto" else {},
                 Measuring(X, digest, choices.get(tested, {}), table, max_items, stability,
                           rows=rows, settings=settings, tested=tested),
                 distinct if distinct is not None and distinct <= k_hi else None,
                 min(s.k_lo for s in settings.values()))


def find(X, rows: dict, summaries: dict, settings: dict, *, auto_mode: bool,
         rule: AnswerRule | None = None, curves: dict | None = None, digest: str = "0" * 24,
         distinct: int | None = None):
    """The answer of a selection with its doubt, by ``rule`` (default: the shipped one) for
    ``auto`` or the one model of ``settings``: (:class:`Answer`, each model's tally, ``auto``'s
    decision table or None, what the test of k = 1 found). ``rows``, ``summaries``,
    ``settings``, ``curves``: model → its rows, summary table, Settings and curves;
    ``distinct``: the number of distinct rows of X (:func:`facts`)."""
    rule = replace(rule or shipped_rule(), model="auto" if auto_mode else next(iter(settings)))
    votes = {m: voting.rule_for(m, s.criteria) for m, s in settings.items()}
    f = facts(X, rows, summaries, settings, rule, curves=curves, digest=digest,
              distinct=distinct)
    d = rule.decide(f, votes)
    shares = {m: split_shares(rows[m], summaries[m], settings[m], votes[m], distinct)
              for m in dict.fromkeys((d.voted_model, d.runner_up_model)) if m is not None}

    def share(m, k) -> float:  # 0 where no split gives k; NaN without splits
        if m is None or not np.isfinite(k) or not shares[m]:
            return np.nan
        return shares[m].get(k, 0.0)

    draws = min(s.splits for s in settings.values())
    if d.said.no_structure:
        found = Answer(None, 1.0, "no group structure", d.voted_model, d.voted_k,
                       rule.own_support(f, d.voted_k, d.voted_model, draws),
                       share(d.voted_model, d.voted_k), d.said.words, draws)
    elif d.voted_k == 1:  # the vote itself says one group: no group structure, by the vote
        found = Answer(None, 1.0, d.how, d.runner_up_model, d.runner_up_k,
                       share(d.voted_model, 1.0), share(d.runner_up_model, d.runner_up_k),
                       d.said.words, draws, False, d.tie)
    else:
        from mtc_cli.selection.settings import edge

        at_edge = (d.voted_model in settings and np.isfinite(d.voted_k)
                   and d.voted_k >= edge(settings[d.voted_model], distinct))
        found = Answer(d.voted_model, d.voted_k, d.how, d.runner_up_model, d.runner_up_k,
                       share(d.voted_model, d.voted_k), share(d.runner_up_model, d.runner_up_k),
                       d.said.words, draws, bool(at_edge), d.tie)
    return found, d.tallies, d.table, d.said
