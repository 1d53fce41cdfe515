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

import numpy as np
import pandas as pd

from experiments.league import vote_fit
from experiments.league.protocol import FAMILIES, PROBE, Params
from mtc_cli.selection import voting
from mtc_cli.selection.answer import AnswerRule, Evidence
from mtc_cli.selection.voting import VoteRule

#: the rows that are curves, not choices
CURVES = ("s_perm", "s_rand")
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


def elections(rows: pd.DataFrame, k_hi: int) -> list[Election]:
    """The league's rows as one :class:`Election` per data set, in the rows' order."""
    out = []
    for (dataset, family, true_k), g in rows.groupby(["dataset", "family", "true_k"],
                                                    sort=False):
        e = Election(dataset, family, int(true_k), k_hi)
        for model, m in g.groupby("model", sort=False):
            if model == PROBE:
                for c, k in zip(m["criterion"], m["k"], strict=True):
                    if c.startswith("hdbscan_"):
                        e.counts[int(c.split("_")[1])] = float(k)
                dip = m.loc[m["criterion"] == "dip", "score"]
                e.dip_p = float(dip.iloc[0]) if len(dip) else np.nan
                continue
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


def evidence(e: Election) -> Evidence:
    """What an answer reads of a data set (:class:`mtc_cli.selection.answer.Evidence`)."""
    return Evidence(e.choices, e.k_hi, e.curves, {"dip": e.dip_p})


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
                "k1_level": np.nan}

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
    (:func:`mtc_cli.selection.voting.rule_for` with the rules of :data:`BEFORE`)."""
    return voting.rule_for(model, criteria, table=_before())


@cache
def _before() -> pd.DataFrame:
    return pd.read_csv(BEFORE)


class Answering(Candidate):
    """An answer ``mtc select`` can ship, as it ships it
    (:class:`mtc_cli.selection.answer.AnswerRule`: one algorithm's vote or ``auto``, with
    or without a test of k = 1), with each algorithm's vote by ``votes``: ``plurality``,
    ``today`` (the rule mtc shipped before this league, :func:`rule_before`) or ``fitted``
    (:func:`experiments.league.vote_fit.fit_rule` on the training families)."""

    def __init__(self, rule: AnswerRule, votes: str, criteria: dict, models: list[str]):
        self.rule, self.votes, self.models = rule, votes, models
        self.model, self.fitted = rule.model, votes == "fitted"
        self.kind = "gated" if rule.tests else "auto" if rule.model == "auto" else "vote"
        name = (f"auto · {rule.winner} · votes {votes}" if rule.model == "auto"
                else f"{rule.model} · vote ({votes})")
        if rule.tests:
            name += " | k = 1 by " + " and ".join(
                f"dip p > {rule.k1_level:g}" if t == "dip" else t for t in rule.tests)
        self.name = name
        read = models if rule.model == "auto" else [rule.model]
        self.fixed = ({m: voting.PLURALITY for m in read} if votes == "plurality" else
                      {m: rule_before(m, criteria[m]) for m in read} if votes == "today"
                      else None)

    def spec(self):
        return {"model": self.rule.model, "winner": self.rule.winner if self.model == "auto"
                else "", "k1_test": self.rule.k1_test,
                "k1_level": self.rule.k1_level if "dip" in self.rule.tests else np.nan}

    def fit(self, train):
        if not self.fitted:
            return self.fixed
        read = self.models if self.rule.model == "auto" else [self.rule.model]
        return {m: _fitted_rule(m, train) for m in read}

    def answer(self, e, params):
        ev = evidence(e)
        if self.rule.model == "auto":
            ev = Evidence({m: e.choices[m] for m in self.models if m in e.choices}, e.k_hi,
                          e.curves, ev.measures)
        return self.rule.decide(ev, params).k


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


def league(a: pd.DataFrame) -> pd.DataFrame:
    """Per candidate: per family the share recovered leave one family out (in sample for
    the unfitted) and the mean over families, in sample and out; the mean |k̂ − k| per
    family (``error_<family>``, over the data sets answered) and over families; the false
    alarms of k = 1 (``false_alarms``: the share of the data sets with groups answered 1,
    per family, averaged over the families); the data sets without an answer; best first."""
    a = a.assign(hit=a["k"] == a["true_k"], hit_lofo=a["k_lofo"] == a["true_k"],
                 err=(a["k_lofo"] - a["true_k"]).abs(), one=a["k_lofo"] == 1)
    fams = [f for f in FAMILIES if f in set(a["family"])]
    fam = a.pivot_table(index="candidate", columns="family", values="hit_lofo",
                        aggfunc="mean")[fams]
    err = a.pivot_table(index="candidate", columns="family", values="err", aggfunc="mean",
                        dropna=False).reindex(columns=fams).add_prefix("error_")
    per = a.groupby(["candidate", "family"], sort=False)
    means = pd.DataFrame({
        "recovered_lofo": per["hit_lofo"].mean().groupby("candidate").mean(),
        "recovered_in_sample": per["hit"].mean().groupby("candidate").mean(),
        "mean_abs_error": per["err"].mean().groupby("candidate").mean(),
        "false_alarms": a[a["true_k"] >= 2].groupby(["candidate", "family"], sort=False)[
            "one"].mean().groupby("candidate").mean(),
        "no_answer": a.groupby("candidate")["k_lofo"].apply(lambda k: int(k.isna().sum()))})
    info = a.drop_duplicates("candidate").set_index("candidate")[
        ["kind", "fitted", "model", "winner", "k1_test", "k1_level"]]
    out = info.join(means).join(fam).join(err).reset_index()
    return out.sort_values(["recovered_lofo", "mean_abs_error"], ascending=[False, True],
                           kind="stable").reset_index(drop=True)


def roster(rows: pd.DataFrame, p: Params) -> list[Candidate]:
    """Every candidate the league scores."""
    models = [m for m in p.models if m in set(rows["model"])]
    criteria = {m: list(dict.fromkeys(rows.loc[(rows["model"] == m)
                                               & ~rows["criterion"].isin(CURVES),
                                               "criterion"]))
                for m in models}

    def answering(model, votes, winner="lowest", test="none", level=0.05):
        return Answering(AnswerRule(model, winner, test, level), votes, criteria, models)

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
    return out


# --- what mtc ships ------------------------------------------------------------------------

#: the kinds of candidate the default answer is chosen among (a single criterion of one
#: algorithm is a criterion, not an answer; HDBSCAN's count and the plain plurality are
#: compared, not shipped: ``mtc select`` answers with a vote of the shipped rule)
ANSWERS = ("vote", "auto", "gated")


def answer_rule(table: pd.DataFrame, es: list[Election], sizes: list[int]) -> pd.DataFrame:
    """The answer's rule mtc ships (``mtc_cli/selection/answer_rule.csv``): the default model
    of the best answer (:data:`ANSWERS` counting the votes mtc can ship: the rule it shipped
    before this league or the one fitted here) leave one family out (in :func:`league`'s
    order: ties to the smaller mean error, then the roster's order), those votes, its winner rule
    and the test of k = 1 of the best candidate of its kind (auto with those votes; a test
    of k = 1 only where the best such candidate has one), and HDBSCAN's
    ``min_cluster_size`` fitted on every family; each with why."""
    ok = table[table["kind"].isin(ANSWERS) & table["candidate"].map(votes_of).notna()]
    best = ok.iloc[0]
    votes = votes_of(best["candidate"])
    autos = ok[ok["model"] == "auto"]
    autos = autos[autos["candidate"].map(votes_of) == votes] if votes else autos
    autos = autos.iloc[0]
    gate = best if best["k1_test"] != "none" else None
    size = HdbscanCount(None, sizes).fit(es)

    def why(row) -> str:
        return (f"{row['candidate']}: {row['recovered_lofo']:.1%} averaged over the "
                f"families, each left out of the fit it is scored on")

    other = ok[ok["candidate"].map(votes_of).isin({"today", "fitted"} - {votes})]
    votes_why = "the votes of the best answer" + (
        f"; the best with the other votes, {why(other.iloc[0])}" if len(other) else "")
    rows = [("default_model", best["model"], f"the best answer, {why(best)}"),
            ("votes", votes or "today", votes_why),
            ("auto_winner", autos["winner"], f"the best auto, {why(autos)}"),
            ("k1_test", "none" if gate is None else gate["k1_test"],
             "the best answer has no test of k = 1" if gate is None else why(gate)),
            ("k1_level", 0.05 if gate is None or not np.isfinite(gate["k1_level"])
             else gate["k1_level"], "the dip test's level"),
            ("hdbscan_min_cluster_size", size, "the HDBSCAN count of the best mean over "
             "the families")]
    return pd.DataFrame(rows, columns=["key", "value", "why"])


def votes_of(candidate: str) -> str | None:
    """The votes a candidate counts, ``today`` or ``fitted`` (None: no vote of a rule)."""
    for v in ("today", "fitted"):
        if f"votes {v}" in candidate or f"vote ({v})" in candidate:
            return v
    return None


# --- the experiment's hooks ---------------------------------------------------------------

def _answers(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    return answers(roster(rows, p), elections(rows, p.k_max))


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per data set × candidate: its k (leave one family out) and the true k."""
    a = _answers(rows, p)
    return a.rename(columns={"k_lofo": "selected_k"}).assign(
        criterion=a["candidate"], selected_k_q25=a["k_lofo"], selected_k_q75=a["k_lofo"],
        n_reps=1)


def tables(exp, rows, summary, p: Params) -> dict:
    """``league``: per candidate the share recovered per family and over families (leave
    one family out and in sample) and the mean |k̂ − k|; ``vote_rule_fitted``: every
    algorithm's vote fitted on every family; ``vote_rule``: the votes the answer's rule
    counts, that one or the rule shipped before this league (:data:`BEFORE`; what mtc
    ships, :data:`mtc_cli.selection.shipped.VOTE_FILE`);
    ``answer_rule``: the answer's rule (:func:`answer_rule`, what mtc ships,
    :data:`mtc_cli.selection.shipped.ANSWER_FILE`)."""
    a = summary.rename(columns={"selected_k": "k_lofo"})
    es = elections(rows, p.k_max)
    models = [m for m in p.models if m in set(rows["model"])]
    rules = {m: vote_fit.fit_rule(_choices_frame(es, m)) for m in models if m != PROBE}
    table = league(a)
    answer = answer_rule(table, es, list(p.hdbscan_sizes))
    fitted = vote_fit.rule_table(rules)
    ships = answer.set_index("key").loc["votes", "value"] == "fitted"
    return {"league": table, "vote_rule": fitted if ships else pd.read_csv(BEFORE),
            "vote_rule_fitted": fitted, "answer_rule": answer}


def report(exp, summary, p: Params, run_dir) -> str:
    table = pd.read_csv(Path(run_dir) / "league.csv")
    cols = ["candidate", "recovered_lofo", "recovered_in_sample", "mean_abs_error",
            *[f for f in FAMILIES if f in table.columns]]
    with pd.option_context("display.width", 250, "display.max_colwidth", 60,
                           "display.float_format", "{:.2f}".format):
        return ("League of families (share recovered, families weighted equally; fitted "
                "candidates leave one family out), the 40 best:\n"
                + table[cols].head(40).to_string(index=False))

