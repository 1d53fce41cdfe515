"""The tables ``league`` derives from its rows, anew on every run (outside its code version).

Every *candidate* — a criterion of one algorithm, an algorithm's vote under a rule, ``auto``
under a rule, HDBSCAN's own count, any of them behind a test of k = 1 — gives one k per data
set. A candidate with parameters fitted on data sets (a vote's rule, ``auto``'s winner rule,
HDBSCAN's ``min_cluster_size``, the test of k = 1) is scored twice: *in sample* (fitted on
every family) and *leave one family out* (refitted without each family in turn and scored on
it). Every score weighs the families equally: the share of a family's data sets where the
answer is the known k (``hit``) and the mean |k̂ − k| over the data sets answered, then their
means over the families.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from experiments.league import vote_fit
from experiments.league.protocol import FAMILIES, PROBE, Params
from mtc_cli.selection import voting
from mtc_cli.selection.answer import AnswerRule, Facts
from mtc_cli.selection.voting import VoteRule

#: the rows that are curves, not choices
CURVES = ("s_perm", "s_rand", "gap_curve")
#: the significance levels of the dip test tried as the test of k = 1
DIP_LEVELS = (0.01, 0.05, 0.1)


# --- the data sets as elections -----------------------------------------------------------

@dataclass
class Election:
    """One data set: per algorithm its criteria's choices and its S(k)/S_perm(k) curve, and
    the probe's HDBSCAN counts and dip test."""

    dataset: str
    family: str
    true_k: int
    k_hi: int
    choices: dict = field(default_factory=dict)   # model → {criterion: k}
    curves: dict = field(default_factory=dict)    # model → Series over k
    counts: dict = field(default_factory=dict)    # min_cluster_size → k
    dip_p: float = np.nan
    dip_means: float = np.nan                     # dip-means' share of split viewers
    sigclust: dict = field(default_factory=dict)  # k → SigClust's p
    gap: dict = field(default_factory=dict)       # model → its gap curve (k, value, lo)


def elections(rows: pd.DataFrame, k_hi: int) -> list[Election]:
    """The league's rows as one :class:`Election` per data set, in the rows' order."""
    out = []
    for (dataset, family, true_k), g in rows.groupby(["dataset", "family", "true_k"],
                                                    sort=False):
        e = Election(dataset, family, int(true_k), k_hi)
        for model, m in g.groupby("model", sort=False):
            if model == PROBE:
                for c, k, v in zip(m["criterion"], m["k"], m["score"], strict=True):
                    if c.startswith("hdbscan_"):
                        e.counts[int(c.split("_")[1])] = float(k)
                    elif c == "dip":
                        e.dip_p = float(v)
                    elif c == "dip_means":
                        e.dip_means = float(v)
                    elif c == "sigclust":
                        e.sigclust[int(k)] = float(v)
                continue
            gap = m[m["criterion"] == "gap_curve"]
            if len(gap):
                e.gap[model] = pd.DataFrame({"criterion": "gap", "k": gap["k"].astype(int),
                                             "value": gap["score"],
                                             "lo": gap["score"] - gap["se"]})
            picks = m[~m["criterion"].isin(CURVES)]
            e.choices[model] = dict(zip(picks["criterion"], picks["k"].astype(float),
                                        strict=True))
            curve = m[m["criterion"] == "s_perm"]
            e.curves[model] = pd.Series(curve["score"].to_numpy(float),
                                        index=curve["k"].astype(int).to_numpy())
        out.append(e)
    return out


def _choices_frame(es: list[Election], model: str) -> pd.DataFrame:
    """One model's choices in the form :func:`experiments.league.vote_fit.fit_rule` takes."""
    return pd.DataFrame([{"dataset": e.dataset, "family": e.family, "criterion": c, "k": k,
                          "true_k": e.true_k, "k_hi": e.k_hi}
                         for e in es if model in e.choices
                         for c, k in e.choices[model].items()])


def facts(e: Election, models=None) -> Facts:
    """What an answer reads of a data set (:class:`mtc_cli.selection.answer.Facts`), of the
    algorithms ``models`` (default: all): the tests of k = 1 read the probe's statistics,
    and the choices and gap curve of the algorithm they test (k-means) as in a selection.
    Made once per data set and algorithms."""
    key = (id(e), None if models is None else tuple(models))
    if key not in _FACTS:
        _FACTS[key] = (_facts(e, models), e)
    return _FACTS[key][0]


#: (the data set's id, the algorithms) → (its facts, the data set: kept, its id is the key)
_FACTS: dict = {}


def _facts(e: Election, models) -> Facts:
    choices = e.choices if models is None else {m: e.choices[m] for m in models
                                                if m in e.choices}
    tested = "kmeans" if "kmeans" in e.choices else next(iter(e.choices), None)
    seen = SimpleNamespace(choices=e.choices.get(tested, {}),
                           curves=e.gap.get(tested, pd.DataFrame(columns=["criterion", "k",
                                                                          "value", "lo"])),
                           stability=e.curves)
    stored = {"dip": lambda k, p: e.dip_p, "dip_means": lambda k, p: e.dip_means,
              "hdbscan": lambda k, p: e.counts.get(int(p), np.nan),
              "sigclust": lambda k, p: e.sigclust.get(int(k), np.nan)}

    done: dict = {}

    def measure(gate, k, param, model=None):
        key = (gate.name, k if gate.at_k else None, param, model if gate.per_model else None)
        if key not in done:
            done[key] = (stored[gate.name](k, param) if gate.name in stored
                         else gate.measure(seen, k, param, model))
        return done[key]

    return Facts(choices, e.k_hi, e.curves, measure)


# --- the candidates -------------------------------------------------------------------------

_FITS: dict = {}


def _fitted_rule(model: str, train: list[Election]) -> VoteRule:
    """:func:`experiments.league.vote_fit.fit_rule` of ``model`` on ``train`` (each fit once:
    the votes, ``auto`` and the tests of k = 1 share them)."""
    key = (model, tuple((e.dataset, tuple(sorted(e.choices.get(model, {}).items())))
                        for e in train))
    if key not in _FITS:
        _FITS[key] = vote_fit.fit_rule(_choices_frame(train, model))[0]
    return _FITS[key]


class Candidate:
    """A way to answer: ``fit(train)`` returns its parameters (None without any) and
    ``answer(e, params)`` its k on one data set."""

    name = ""
    kind = ""
    fitted = False

    def spec(self) -> dict:
        """What the candidate is, as the answer rule would ship it: ``model`` (an algorithm,
        ``auto`` or ``hdbscan_count``), ``winner`` (auto's rule), ``k1_test``, ``k1_level``."""
        return {"model": getattr(self, "model", ""), "winner": "", "k1_test": "none",
                "k1_level": np.nan, "count_use": "none", "count_size": np.nan}

    def fit(self, train: list[Election]):
        return None

    def answer(self, e: Election, params) -> float:
        raise NotImplementedError


class Criterion(Candidate):
    kind = "criterion"

    def __init__(self, model: str, criterion: str):
        self.model, self.criterion = model, criterion
        self.name = f"{model} · {criterion}"

    def answer(self, e, params):
        return e.choices.get(self.model, {}).get(self.criterion, np.nan)


#: the votes' rules mtc shipped before this league (fitted by the criteria league on
#: Milligan–Cooper-like designs): the "today" votes
BEFORE = Path(__file__).with_name("vote_rule_before.csv")


def rule_before(model: str, criteria: list[str]) -> VoteRule:
    """The rule ``mtc select`` applied to ``model`` before this league
    (:func:`mtc_cli.selection.voting.rule_for` with the rules of :data:`BEFORE`), one object
    per model and criteria."""
    return _rule_before(model, tuple(criteria))


@cache
def _rule_before(model: str, criteria: tuple) -> VoteRule:
    return voting.rule_for(model, list(criteria), table=_before())


@cache
def _before() -> pd.DataFrame:
    return pd.read_csv(BEFORE)


def test_words(test: str, param) -> str:
    """A test of k = 1 with its parameter, as a candidate's name says it."""
    if test == "dip":
        return f"dip p > {param:g}"
    if test == "hdbscan":
        return f"HDBSCAN {param:g} finds ≤ 1"
    if test == "sigclust":
        return f"SigClust p > {param:g}"
    if test == "gap_at_k":
        return "gap at k̂" if param == 1 else f"gap at k̂ ({param:g} s.e.)"
    if test == "stability":
        return f"S/S_perm at k̂ > {param:g}"
    return "dip-means" if test == "dip_means" else test


class Answering(Candidate):
    """An answer ``mtc select`` can ship, as it ships it
    (:class:`mtc_cli.selection.answer.AnswerRule`: one algorithm's vote or ``auto``, with
    or without a test of k = 1), with each algorithm's vote by ``votes``: ``plurality``,
    ``today`` (the rule mtc shipped before this league, :func:`rule_before`) or ``fitted``
    (:func:`experiments.league.vote_fit.fit_rule` on the training families). The vote
    before the tests of k = 1 (:meth:`~mtc_cli.selection.answer.AnswerRule.elect`) is
    shared by every candidate that differs only in its tests (the data set's
    :class:`~mtc_cli.selection.answer.Facts` keep it)."""

    def __init__(self, rule: AnswerRule, votes: str, criteria: dict, models: list[str]):
        self.rule, self.votes, self.models = rule, votes, models
        self.model, self.fitted = rule.model, votes == "fitted"
        self.kind = "gated" if rule.tests else "auto" if rule.model == "auto" else "vote"
        name = (f"auto · {rule.winner} · votes {votes}" if rule.model == "auto"
                else f"{rule.model} · vote ({votes})")
        if rule.count_use != "none":
            name += f" · count {rule.count_use} ({rule.count_size})"
        if rule.tests:
            name += " | k = 1 by " + " and ".join(test_words(t, p) for t, p in rule.tests)
        self.name = name
        read = models if rule.model == "auto" else [rule.model]
        self.fixed = ({m: voting.PLURALITY for m in read} if votes == "plurality" else
                      {m: rule_before(m, criteria[m]) for m in read} if votes == "today"
                      else None)

    def spec(self):
        levels = [p for t, p in self.rule.tests if t == "dip"]
        return {"model": self.rule.model, "winner": self.rule.winner if self.model == "auto"
                else "", "k1_test": self.rule.k1_test,
                "k1_level": levels[0] if levels else np.nan,
                "count_use": self.rule.count_use,
                "count_size": self.rule.count_size if self.rule.count_use != "none"
                else np.nan}

    def fit(self, train):
        if not self.fitted:
            return self.fixed
        read = self.models if self.rule.model == "auto" else [self.rule.model]
        return {m: _fitted_rule(m, train) for m in read}

    def answer(self, e, params):
        models = self.models if self.rule.model == "auto" else None
        return self.rule.decide(facts(e, models), params).k


class HdbscanCount(Candidate):
    """HDBSCAN's own number of clusters at a ``min_cluster_size`` (``None``: the one of the
    best mean over the training families)."""

    kind = "hdbscan"

    def __init__(self, size: int | None, sizes: list[int]):
        self.size, self.sizes, self.fitted = size, sizes, size is None
        self.name = f"HDBSCAN count ({'fitted' if size is None else size})"
        self.model = "hdbscan_count"

    def fit(self, train):
        if self.size is not None:
            return self.size
        return max(self.sizes, key=lambda m: (_mean_hit(train, lambda e: e.counts.get(m)), -m))

    def answer(self, e, params):
        return e.counts.get(params, np.nan)


# --- scoring ----------------------------------------------------------------------------

def _mean_hit(es: list[Election], pick) -> float:
    """The share of data sets where ``pick(e)`` is the true k, averaged over families."""
    by: dict = {}
    for e in es:
        by.setdefault(e.family, []).append(pick(e) == e.true_k)
    return float(np.mean([np.mean(v) for v in by.values()])) if by else np.nan


def answers(candidates: list[Candidate], es: list[Election]) -> pd.DataFrame:
    """Per candidate and data set: its k in sample (fitted on every family) and leave one
    family out (``k_lofo``: fitted without the data set's family; = ``k`` for a candidate
    without parameters)."""
    families = sorted({e.family for e in es})
    out = []
    for cand in candidates:
        params = cand.fit(es)
        held = ({f: cand.fit([e for e in es if e.family != f]) for f in families}
                if cand.fitted else {})
        for e in es:
            k = cand.answer(e, params)
            lofo = cand.answer(e, held[e.family]) if cand.fitted else k
            out.append({"candidate": cand.name, "kind": cand.kind, "fitted": cand.fitted,
                        **cand.spec(), "dataset": e.dataset, "family": e.family,
                        "true_k": e.true_k, "k": k, "k_lofo": lofo})
    return pd.DataFrame(out)


#: the family of data sets of one group
ONE = "one_cluster"
#: the most false "no groups" on the real family (raw and z-scored counted apart), and the
#: least share of the one-cluster family answered 1, for an answer mtc ships
REAL_FALSE_ONES, ONE_ANSWERED_ONE = 1 / 20, 0.9


def league(a: pd.DataFrame) -> pd.DataFrame:
    """Per candidate: per family the share recovered leave one family out (in sample for
    the unfitted) and the mean over families, in sample and out, and over the families with
    groups (``recovered_groups``); the mean |k̂ − k| per family (``error_<family>``, over the
    data sets answered) and over families; per family the share answered 1
    (``ones_<family>``: false "no groups" on a family with groups, the right answer on the
    one-cluster family), on the real family raw and z-scored apart (``ones_real_raw``,
    ``ones_real_z``); their mean over the families with groups (``false_alarms``); which of
    the bounds of a shipped answer hold (:func:`bounds`); the data sets without an answer;
    best first."""
    a = a.assign(hit=a["k"] == a["true_k"], hit_lofo=a["k_lofo"] == a["true_k"],
                 err=(a["k_lofo"] - a["true_k"]).abs(), one=a["k_lofo"] == 1)
    fams = [f for f in FAMILIES if f in set(a["family"])]
    fam = a.pivot_table(index="candidate", columns="family", values="hit_lofo",
                        aggfunc="mean")[fams]
    err = a.pivot_table(index="candidate", columns="family", values="err", aggfunc="mean",
                        dropna=False).reindex(columns=fams).add_prefix("error_")
    ones = a.pivot_table(index="candidate", columns="family", values="one",
                         aggfunc="mean").reindex(columns=fams).add_prefix("ones_")
    real = a[a["family"] == "real"]
    variant = real["dataset"].str.rsplit("-", n=1).str[-1]
    ones_real = real.assign(variant="ones_real_" + variant).pivot_table(
        index="candidate", columns="variant", values="one", aggfunc="mean")
    per = a.groupby(["candidate", "family"], sort=False)
    grouped = a[a["family"] != ONE].groupby(["candidate", "family"], sort=False)
    means = pd.DataFrame({
        "recovered_lofo": per["hit_lofo"].mean().groupby("candidate").mean(),
        "recovered_in_sample": per["hit"].mean().groupby("candidate").mean(),
        "recovered_groups": grouped["hit_lofo"].mean().groupby("candidate").mean(),
        "mean_abs_error": per["err"].mean().groupby("candidate").mean(),
        "error_groups": grouped["err"].mean().groupby("candidate").mean(),
        "false_alarms": a[a["true_k"] >= 2].groupby(["candidate", "family"], sort=False)[
            "one"].mean().groupby("candidate").mean(),
        "no_answer": a.groupby("candidate")["k_lofo"].apply(lambda k: int(k.isna().sum()))})
    info = a.drop_duplicates("candidate").set_index("candidate")[
        ["kind", "fitted", "model", "winner", "k1_test", "k1_level", "count_use",
         "count_size"]]
    out = info.join(means).join(fam).join(err).join(ones).join(ones_real).reset_index()
    out = pd.concat([out, bounds(out)], axis=1)
    return out.sort_values(["recovered_lofo", "mean_abs_error"], ascending=[False, True],
                           kind="stable").reset_index(drop=True)


def bounds(table: pd.DataFrame) -> pd.DataFrame:
    """Which bounds of an answer mtc ships hold for each candidate (a row of
    :func:`league`'s table): ``no_false_ones`` — no data set with groups answered 1 on any
    synthetic family; ``real_false_ones`` — at most :data:`REAL_FALSE_ONES` of the real
    family's sets answered 1, raw and z-scored each; ``one_cluster_ones`` — at least
    :data:`ONE_ANSWERED_ONE` of the one-cluster family answered 1; ``tier``: 1 where all
    hold, 2 where the first two do, 3 where the first does, 4 otherwise."""
    synthetic = [c for c in table.columns if c.startswith("ones_") and c not in
                 (f"ones_{ONE}", "ones_real", "ones_real_raw", "ones_real_z")]
    first = (table[synthetic].fillna(0) == 0).all(axis=1)
    real = [c for c in ("ones_real_raw", "ones_real_z") if c in table.columns]
    second = (table[real].fillna(0) <= REAL_FALSE_ONES + 1e-12).all(axis=1)
    third = (table[f"ones_{ONE}"] >= ONE_ANSWERED_ONE - 1e-12 if f"ones_{ONE}" in table
             else pd.Series(True, index=table.index))
    tier = np.where(first & second & third, 1, np.where(first & second, 2,
                                                        np.where(first, 3, 4)))
    return pd.DataFrame({"no_false_ones": first, "real_false_ones": second,
                         "one_cluster_ones": third, "tier": tier}, index=table.index)


#: the tests of k = 1 the league tries alone and in pairs, and of which it tries every three
#: of :data:`TRIPLES`
TESTS = ("dip@0.01", "dip@0.05", "dip_means", "hdbscan@10", "hdbscan@20", "hdbscan@50",
         "stability@0.05", "stability@0.07", "stability@0.1", "gap", "gap_at_k",
         "sigclust@0.05", "clest", "duda_hart")
TRIPLES = ("dip@0.01", "dip_means", "hdbscan@20", "hdbscan@50", "stability@0.07", "gap_at_k",
           "sigclust@0.05")
#: auto's winner rules the league tries with each combination of tests
WINNERS = ("lowest", "consensus", "consensus@0.02", "consensus@0.05", "consensus_vote",
           "consensus_vote@0.02")


def combinations() -> list[str]:
    """Every test of :data:`TESTS`, every pair of tests of two kinds, every three of
    :data:`TRIPLES`, as ``k1_test`` strings."""
    from itertools import combinations as subsets

    def kind(t):
        return t.partition("@")[0]

    pairs = [f"{a}+{b}" for a, b in subsets(TESTS, 2) if kind(a) != kind(b)]
    return [*TESTS, *pairs, *("+".join(c) for c in subsets(TRIPLES, 3))]


def roster(rows: pd.DataFrame, p: Params) -> list[Candidate]:
    """Every candidate the league scores: each criterion of each algorithm, each
    algorithm's vote, ``auto`` by each winner rule, HDBSCAN's own counts, and behind tests
    of k = 1 — today's (the gap statistic, Duda & Hart, the dip test and the dip test with
    either) on every fitted vote and auto, and every combination of :func:`combinations`
    on auto by each rule of :data:`WINNERS` (the consensus also with HDBSCAN's count
    breaking its ties or its disagreements, the consensus of votes with the count (10)
    breaking its ties)."""
    models = [m for m in p.models if m in set(rows["model"])]
    criteria = {m: list(dict.fromkeys(rows.loc[(rows["model"] == m)
                                               & ~rows["criterion"].isin(CURVES),
                                               "criterion"]))
                for m in models}

    def answering(model, votes, winner="lowest", test="none", level=0.05, count="none",
                  size=10):
        return Answering(AnswerRule(model, winner, test, level, count, size), votes,
                         criteria, models)

    out: list[Candidate] = [Criterion(m, c) for m in models for c in criteria[m]]
    out += [answering(m, r) for m in models for r in ("plurality", "today", "fitted")]
    winners = ("lowest", "at_vote", "agreement")
    out += [answering("auto", v, w) for w in winners for v in ("today", "fitted")]
    sizes = list(p.hdbscan_sizes)
    out += [HdbscanCount(m, sizes) for m in sizes] + [HdbscanCount(None, sizes)]
    bases = [(m, "fitted", "lowest") for m in models] + [("auto", v, w) for w in winners
                                                          for v in ("today", "fitted")]
    tests = [("gap", 0.05), ("duda_hart", 0.05),
             *((t, a) for t in ("dip", "dip+gap", "dip+duda_hart") for a in DIP_LEVELS)]
    out += [answering(m, v, w, t, a) for m, v, w in bases for t, a in tests]
    counted = [("none", 10), ("tiebreak", 10), ("disagreement", 10), ("tiebreak", 20),
               ("disagreement", 20)]
    autos = [(w, c, m) for w in WINNERS for c, m in (
        counted[:2] if w.startswith("consensus_vote") else counted
        if w.startswith("consensus") else counted[:1])]
    out += [answering("auto", "today", w, "none", 0.05, c, m) for w, c, m in autos
            if (w, c) != ("lowest", "none")]
    out += [answering("auto", "today", w, t, 0.05, c, m) for w, c, m in autos
            for t in combinations()]
    return out


# --- what mtc ships ------------------------------------------------------------------------

#: the kinds of candidate the default answer is chosen among (a single criterion of one
#: algorithm is a criterion, not an answer; HDBSCAN's count and the plain plurality are
#: compared, not shipped: ``mtc select`` answers with a vote of the shipped rule)
ANSWERS = ("vote", "auto", "gated")


#: the bounds of :func:`bounds`, as :func:`answer_rule` says them
BOUND_WORDS = {"no_false_ones": "no data set with groups answered 1 on a synthetic family",
               "real_false_ones": f"at most {REAL_FALSE_ONES:.0%} of the real sets answered "
                                  "1, raw and z-scored each",
               "one_cluster_ones": f"at least {ONE_ANSWERED_ONE:.0%} of the one-cluster "
                                   "family answered 1"}


#: tests of k = 1 mtc does not ship: what they say depends on the range of k offered. Clest
#: chooses the k of the largest significant d_k over the range (Dudoit & Fridlyand 2002, else
#: 1); the league reads every selection at k = 1..k_max (mtc select's default, 1..10) while a
#: user may offer a range of their own, so its "k = 1" in the league is not its "k = 1" on
#: every user's range — on make_circles(500, factor=0.5, noise=0.05, random_state=0) Clest
#: of k-means chooses 5 over k = 1..15 and 1 over 1..10, and with Duda & Hart's test the
#: answer is 1.
RANGE_DEPENDENT = ("clest",)


def range_free(k1_test) -> bool:
    """Whether a test of k = 1 (``k1_test``) reads no test of :data:`RANGE_DEPENDENT`."""
    return not any(t.partition("@")[0] in RANGE_DEPENDENT for t in str(k1_test).split("+"))


def shippable(table: pd.DataFrame, *, any_range: bool = False) -> pd.DataFrame:
    """The candidates mtc can ship (:data:`ANSWERS`, counting the votes it can ship: the
    rule it shipped before this league or the one fitted here; a test of k = 1 that does not
    depend on the range of k offered, :func:`range_free`, unless ``any_range``) in the order
    the default is chosen in: the lowest tier of :func:`bounds` first — all bounds hold; else
    no false "no groups" on the synthetic and the real families; else on the synthetic ones —
    then by the share recovered leave one family out over the families with groups, then by
    the mean |k̂ − k| over them (then the roster's order)."""
    ok = table[table["kind"].isin(ANSWERS) & table["candidate"].map(votes_of).notna()]
    if not any_range:
        ok = ok[ok["k1_test"].map(range_free)]
    return ok.sort_values(["tier", "recovered_groups", "error_groups"],
                          ascending=[True, False, True], kind="stable")


def answer_rule(table: pd.DataFrame, es: list[Election], sizes: list[int]) -> pd.DataFrame:
    """The answer's rule mtc ships (``mtc_cli/selection/answer_rule.csv``): the first of
    :func:`shippable` — its model, votes, winner rule (or the first auto's of its votes),
    test of k = 1 and use of HDBSCAN's count — HDBSCAN's ``min_cluster_size`` of the count
    criterion fitted on every family, and which bounds hold; each with why."""
    ok = shippable(table)
    best = ok.iloc[0]
    votes = votes_of(best["candidate"])
    autos = ok[(ok["model"] == "auto") & (ok["candidate"].map(votes_of) == votes)]
    autos = autos.iloc[0]
    size = HdbscanCount(None, sizes).fit(es)

    def why(row) -> str:
        return (f"{row['candidate']}: {row['recovered_groups']:.1%} averaged over the "
                f"families with groups, each left out of the fit it is scored on")

    held = [w for b, w in BOUND_WORDS.items() if bool(best[b])]
    missed = [w for b, w in BOUND_WORDS.items() if not bool(best[b])]
    level = best["k1_level"] if np.isfinite(best["k1_level"]) else 0.05
    count = best["count_use"] if isinstance(best["count_use"], str) else "none"
    rows = [("default_model", best["model"], f"the best answer, {why(best)}"),
            ("votes", votes, "the votes of the best answer"),
            ("auto_winner", autos["winner"], f"the best auto, {why(autos)}"),
            ("k1_test", best["k1_test"], "the best answer's test of k = 1"),
            ("k1_level", level, "the level of its tests where none is written"),
            ("count_use", count, "how HDBSCAN's count takes part in auto's consensus"),
            ("count_size", int(best["count_size"]) if count != "none" else 10,
             "HDBSCAN's min_cluster_size there"),
            ("hdbscan_min_cluster_size", size, "the HDBSCAN count of the best mean over "
             "the families (the criterion hdbscan_count)"),
            ("bounds", int(best["tier"]),
             "tier of the bounds it keeps (1: all): " + "; ".join(held)
             + (f" — not: {'; '.join(missed)}" if missed else ""))]
    ahead = shippable(table, any_range=True).iloc[0]
    if ahead["candidate"] != best["candidate"]:
        rows.append(("not_shipped", ahead["candidate"],
                     f"ahead of it in the league (tier {int(ahead['tier'])}, "
                     f"{ahead['recovered_groups']:.1%}) but its test of k = 1 depends on the "
                     "range of k offered (RANGE_DEPENDENT)"))
    return pd.DataFrame(rows, columns=["key", "value", "why"])


def votes_of(candidate: str) -> str | None:
    """The votes a candidate counts, ``today`` or ``fitted`` (None: no vote of a rule)."""
    for v in ("today", "fitted"):
        if f"votes {v}" in candidate or f"vote ({v})" in candidate:
            return v
    return None


def chosen_without(a: pd.DataFrame) -> pd.DataFrame:
    """How the choice of the default itself does on a family it did not see: per family
    with groups (and the one-cluster family), the candidate :func:`shippable` puts first
    on the league of the other families (``candidate``, its ``tier`` there), and on the
    family left out the share it recovers (``recovered``), answers 1 (``ones``) and its
    mean |k̂ − k| (``error``). ``a``: :func:`answers`' frame. The shipped default was chosen
    among many candidates on every family; this is the left-out score of that choice."""
    out = []
    for family in [f for f in FAMILIES if f in set(a["family"])]:
        rest = shippable(league(a[a["family"] != family]))
        best = rest.iloc[0]
        on = a[(a["candidate"] == best["candidate"]) & (a["family"] == family)]
        out.append({"family": family, "candidate": best["candidate"],
                    "tier": int(best["tier"]),
                    "recovered": float((on["k_lofo"] == on["true_k"]).mean()),
                    "ones": float((on["k_lofo"] == 1).mean()),
                    "error": float((on["k_lofo"] - on["true_k"]).abs().mean())})
    return pd.DataFrame(out)


# --- the experiment's hooks ---------------------------------------------------------------

#: today's default (before this league's tests of k = 1), beside what the league ships
TODAY = "auto · lowest · votes today | k = 1 by dip p > 0.01 and gap"


def every_answer(rows: pd.DataFrame, p: Params) -> tuple[pd.DataFrame, list[Election]]:
    """:func:`answers` of the whole :func:`roster` on the league's rows, and the elections
    they were read from; computed once per rows (``summarize`` and ``tables`` share them)."""
    key = (id(rows), p.k_max)
    if key not in _ANSWERED:
        es = elections(rows, p.k_max)
        _ANSWERED.clear()
        _ANSWERED[key] = (rows, answers(roster(rows, p), es), es)
    return _ANSWERED[key][1:]


#: (the rows' id, k_max) → (the rows: kept, their id is the key; every answer; elections)
_ANSWERED: dict = {}


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """The league table (:func:`league`): per candidate its share recovered per family and
    over families, its answers of 1 per family and the bounds it keeps."""
    return league(every_answer(rows, p)[0])


def tables(exp, rows, summary, p: Params) -> dict:
    """``answer_rule``: the answer's rule (:func:`answer_rule`, what mtc ships,
    :data:`mtc_cli.selection.shipped.ANSWER_FILE`); ``answers``: per data set the answer
    of the shipped default, the best of each tier of the bounds, :data:`TODAY`'s default
    and HDBSCAN's count (10), and the true k; ``chosen_without``: the choice of the default
    scored on each family it did not see (:func:`chosen_without`); ``vote_rule_fitted``:
    every algorithm's vote fitted on every family; ``vote_rule``: the votes the answer's
    rule counts, that one or the rule shipped before this league (:data:`BEFORE`; what mtc
    ships, :data:`mtc_cli.selection.shipped.VOTE_FILE`)."""
    a, es = every_answer(rows, p)
    models = [m for m in p.models if m in set(rows["model"])]
    rules = {m: vote_fit.fit_rule(_choices_frame(es, m)) for m in models if m != PROBE}
    answer = answer_rule(summary, es, list(p.hdbscan_sizes))
    ok = shippable(summary)
    reported = list(dict.fromkeys([ok["candidate"].iloc[0],
                                   *ok.drop_duplicates("tier")["candidate"], TODAY,
                                   "HDBSCAN count (10)"]))
    fitted = vote_fit.rule_table(rules)
    ships = answer.set_index("key").loc["votes", "value"] == "fitted"
    return {"answers": a[a["candidate"].isin(reported)].reset_index(drop=True),
            "chosen_without": chosen_without(a[a["kind"].isin(ANSWERS)]),
            "vote_rule": fitted if ships else pd.read_csv(BEFORE),
            "vote_rule_fitted": fitted, "answer_rule": answer}


def report(exp, summary, p: Params, run_dir) -> str:
    table = shippable(pd.read_csv(Path(run_dir) / "summary.csv"))
    cols = ["candidate", "tier", "recovered_groups", "false_alarms", f"ones_{ONE}",
            "ones_real_raw", "ones_real_z"]
    with pd.option_context("display.width", 250, "display.max_colwidth", 70,
                           "display.float_format", "{:.2f}".format):
        return ("League of families: the answers mtc can ship, in the order the default is "
                "chosen (tier of the bounds kept, then the share recovered over the "
                "families with groups, fitted candidates leaving one family out), the 30 "
                "first:\n" + table[[c for c in cols if c in table]].head(30)
                .to_string(index=False))
