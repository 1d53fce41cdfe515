"""How a criterion chooses k from its rows: each reader turns the rows of one criterion into
its curve over k (``value``, and a band ``lo``/``hi``: the quartiles over splits, or ± s_k for
the gap statistic), its chosen k and, where it has one score per split (or permutation), the
*spread*: its rule applied to each split alone.

A reader says which way its curve is better (``better``: ``"low"`` or ``"high"``; the figure
draws 1 at the best) and over which column its replicates run (``replicate``). Readers import
numpy and pandas when they read: the catalog that holds them loads without (``mtc list``).
"""

from __future__ import annotations

from dataclasses import dataclass


def arg_best(ks, values, better: str) -> float:
    """The k of least (``low``) or greatest (``high``) finite value; ties: smallest k."""
    import numpy as np

    ok = np.isfinite(values)
    if not ok.any():
        return np.nan
    v = np.where(ok, values if better == "low" else -values, np.inf)
    return float(ks[int(np.argmin(v))])


def aggregate(sub, replicate: str | None, agg: str = "mean"):
    """Per k: the aggregate of the score over replicates and its quartiles."""
    import numpy as np
    import pandas as pd

    g = sub.groupby("k")["score"]
    out = pd.DataFrame({"value": g.agg(agg)})
    if replicate is not None and sub[replicate].nunique() > 1:
        out["lo"], out["hi"] = g.quantile(0.25), g.quantile(0.75)
    else:
        out["lo"] = out["hi"] = np.nan
    return out


def per_replicate(sub, replicate: str | None, choose) -> list[float]:
    """``choose(ks, scores, rows)`` on each replicate's rows alone, in replicate order."""
    if replicate is None:
        return []
    out = []
    for _, g in sub.groupby(replicate, sort=True):
        g = g.sort_values("k")
        out.append(choose(g["k"].to_numpy(), g["score"].to_numpy(), g))
    return out


def empty_curve():
    import pandas as pd

    return pd.DataFrame(columns=["value", "lo", "hi"])


@dataclass(frozen=True)
class Extremum:
    """The k of the best mean (``aggregate="median"``: median) score over the replicates:
    least for ``better="low"``, greatest for ``"high"`` (ties: the smallest k)."""

    better: str
    replicate: str | None = None
    aggregate: str = "mean"

    def choose(self, sub, s):
        curve = aggregate(sub, self.replicate, self.aggregate)
        chosen = arg_best(curve.index.to_numpy(), curve["value"].to_numpy(), self.better)
        per = per_replicate(sub, self.replicate, lambda k, v, g: arg_best(k, v, self.better))
        return curve, chosen, per


@dataclass(frozen=True)
class Stability:
    """Lange et al. 2002's normalised stability S(k)/S_rand(k) (mean disagreement over the
    splits over the mean of its random-labelling baseline), least at the chosen k (ties:
    the largest k, :func:`mtc_cli.core.criteria.stability.select_k`)."""

    better: str = "low"
    replicate: str = "rep"

    def choose(self, sub, s):
        import pandas as pd

        from mtc_cli.core.criteria import stability

        g = sub.groupby("k")
        ratio = sub["score"] / sub["random"]
        curve = pd.DataFrame({"value": g["score"].mean() / g["random"].mean(),
                              "lo": ratio.groupby(sub["k"]).quantile(0.25),
                              "hi": ratio.groupby(sub["k"]).quantile(0.75)})
        chosen = float(stability.select_k(curve.index, curve["value"], ties="largest"))
        per = per_replicate(sub, self.replicate, lambda k, v, g: float(stability.select_k(
            k, v / g["random"].to_numpy(), ties="largest")))
        return curve, chosen, per


@dataclass(frozen=True)
class Threshold:
    """The largest k whose mean score reaches the setting ``option`` (Tibshirani & Walther
    2005's prediction strength ≥ 0.8)."""

    option: str
    better: str = "high"
    replicate: str = "rep"

    def choose(self, sub, s):
        from mtc_cli.core.criteria import prediction_strength

        level = getattr(s, self.option)
        curve = aggregate(sub, self.replicate)
        chosen = float(prediction_strength.select(curve.index, curve["value"], level))
        per = per_replicate(sub, self.replicate, lambda k, v, g: float(
            prediction_strength.select(k, v, level)))
        return curve, chosen, per


@dataclass(frozen=True)
class GapRule:
    """Gap(k) = mean log W*_k of the reference sets − log W_k of the data, with s_k
    (Tibshirani, Walther & Hastie 2001, eqs. 3–4), chosen by ``rule`` of ``cluster::maxSE``
    (``Tibs2001SEmax``: the paper's 1-s.e. rule)."""

    rule: str
    better: str = "high"
    replicate: None = None

    def choose(self, sub, s):
        import numpy as np
        import pandas as pd

        from mtc_cli.core.criteria import gap_rules, gap_statistic

        observed = sub[sub["reference"] == 0].set_index("k")["score"].sort_index()
        refs = sub[sub["reference"] == 1].pivot_table(index="rep", columns="k",
                                                      values="score")
        ks = observed.index.intersection(refs.columns)
        if len(refs) < 2 or not len(ks):
            return empty_curve(), np.nan, []
        gaps, se = gap_statistic.gap(observed[ks].to_numpy(), refs[ks].to_numpy())
        curve = pd.DataFrame({"value": gaps, "lo": gaps - se, "hi": gaps + se},
                             index=pd.Index(ks, name="k"))
        chosen = (float(gap_statistic.select_1se(ks, gaps, se)) if self.rule == "Tibs2001SEmax"
                  else float(gap_rules.choose(np.asarray(ks), gaps, se, self.rule)))
        return curve, chosen, []


@dataclass(frozen=True)
class Clest:
    """Clest's d_k = t_k − mean t⁰_k and p_k = share of reference sets with t⁰_k ≥ t_k at
    the k where the data and every reference set have a score (Dudoit & Fridlyand 2002;
    :func:`mtc_cli.core.criteria.clest.select`)."""

    better: str = "high"
    replicate: None = None

    def choose(self, sub, s):
        import numpy as np
        import pandas as pd

        from mtc_cli.core.criteria import clest

        t = sub[sub["rep"] == 0].set_index("k")["score"].sort_index()
        t0 = sub[sub["rep"] > 0].pivot_table(index="rep", columns="k", values="score")
        ks = t.index.intersection(t0.columns)
        if len(t0):
            ks = ks[np.isfinite(t[ks].to_numpy()) & np.isfinite(t0[ks].to_numpy()).all(axis=0)]
        if not len(t0) or not len(ks):
            return empty_curve(), np.nan, []
        d = t[ks].to_numpy() - t0[ks].to_numpy().mean(axis=0)
        p = (t0[ks].to_numpy() >= t[ks].to_numpy()).mean(axis=0)
        curve = pd.DataFrame({"value": d, "lo": np.nan, "hi": np.nan, "p_value": p},
                             index=pd.Index(ks, name="k"))
        return curve, float(clest.select(ks, d, p)), []


@dataclass(frozen=True)
class AboveOne:
    """The number of k whose score exceeds 1 (Gavish & Donoho 2014: singular values above
    the threshold τ, the score s_k/τ); the figure marks each kept rank 1, the others 0."""

    better: str = "high"
    replicate: None = None

    def choose(self, sub, s):
        curve = aggregate(sub, None)
        return curve, float((curve["value"] > 1.0).sum()), []

    @staticmethod
    def normalise(values):
        import numpy as np

        return np.where(np.isfinite(values), (values > 1.0).astype(float), np.nan)


@dataclass(frozen=True)
class Reported:
    """The k its one row reports (a rank or a count found directly, without a curve)."""

    better: str = "high"
    replicate: None = None

    def choose(self, sub, s):
        return empty_curve(), float(sub["k"].iloc[0]), []


@dataclass(frozen=True)
class IndexRule:
    """A classical index's own published rule
    (:data:`mtc_cli.core.criteria.partition_indices.INDICES`)."""

    name: str
    better: str

    replicate = None

    def choose(self, sub, s):
        from mtc_cli.core.criteria.partition_indices import INDICES

        curve = aggregate(sub, None)
        return curve, float(INDICES[self.name].choose(curve.index.to_numpy(),
                                                      curve["value"].to_numpy())), []


@dataclass(frozen=True)
class Molloy:
    """Molloy et al. 2010's rules on the thresholded SVD: ``coverage`` (the smallest rank
    covering the share ``option`` of the ones) or ``increment`` (the smallest rank changing
    less than ``option`` of ‖X‖₁)."""

    rule: str
    option: str
    better: str
    replicate = None

    def choose(self, sub, s):
        from mtc_cli.core.criteria import molloy

        curve = aggregate(sub, None)
        level = getattr(s, self.option)
        if self.rule == "coverage":
            idx = molloy.coverage_rule(curve["value"].to_numpy(), level)
        else:
            idx = molloy.increment_rule(curve["value"].to_numpy(), level)
        return curve, float(curve.index[idx - 1]), []
