"""The tests of k = 1, "no group structure", that the answer weighs against the k the
algorithms found (:class:`~mtc_cli.selection.spec.Gate`, registered in the catalog).

Each test measures something of the data (``measure(ctx, k, param, model)``: ``ctx``, the
selection's :class:`~mtc_cli.selection.measuring.Measuring`), judges it at the k̂ the
algorithms found (``judge(statistic, k, param)`` → the
:class:`~mtc_cli.core.criteria.one_group.Evidence` shown with the answer) and says it in words
(``words(evidence, model)``). ``param``: its level, or HDBSCAN's min_cluster_size; ``model``:
the algorithm that answers (the stability's own curve is read). This module imports numpy only
when a test measures: the catalog that holds the tests loads without it, and it imports no
module that imports the catalog.
"""

from __future__ import annotations

from mtc_cli.selection.spec import Gate

_GAP = "Tibshirani, Walther & Hastie 2001"
#: simulated null data sets of SigClust
SIGCLUST_SIMULATIONS = 50


def _dip_measure(ctx, k, level, model) -> float:
    """The p-value of Hartigan's dip test of the first principal component of X (its tied
    values spread within their resolution, ``ctx.continuous``)."""
    from mtc_cli.core.criteria.dip import dip_pvalue
    from mtc_cli.selection.projection import pca_2d

    return dip_pvalue(pca_2d(ctx.continuous())[:, 0])[1]


def _p_evidence(name: str, p, k, level, rule: str):
    """The Evidence of a test that says "no group structure" iff its p exceeds ``level``."""
    import numpy as np

    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence(name, int(k), float(p), (), float(p), float(level),
                    bool(np.isfinite(p) and p > level), f"no group structure iff {rule}")


def _dip_judge(p, k, level):
    return _p_evidence("dip", p, k, level, "the dip test of the first principal component "
                       f"has p > {level:g}")


def _dip_words(e, model) -> str:
    if e.says_one:
        return (f"the first principal component looks unimodal (dip test p = {e.p_value:.3g} "
                f"> {e.level:g})")
    return (f"the first principal component has more than one mode (dip test p = "
            f"{e.p_value:.3g} ≤ {e.level:g})")


def _dip_means_measure(ctx, k, param, model) -> float:
    """Dip-means' share of split viewers (:func:`mtc_cli.core.criteria.dip_means.dip_means_test`)
    on the sample."""
    from mtc_cli.core.criteria.dip_means import dip_means_test

    return dip_means_test(ctx.sample(), ctx.rng("dip_means")).statistic


def _dip_means_judge(share, k, param):
    import numpy as np

    from mtc_cli.core.criteria.dip_means import ALPHA, SPLIT_SHARE
    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence("dip_means", int(k), float(share), (), np.nan, SPLIT_SHARE,
                    bool(np.isfinite(share) and share <= SPLIT_SHARE),
                    f"no group structure iff at most {SPLIT_SHARE:.0%} of the viewers see "
                    f"their distances multimodal (dip p < {ALPHA:g})")


def _dip_means_words(e, model) -> str:
    return (f"{e.statistic:.0%} of the points see their distances to the others as more than "
            f"one group (dip-means: {'at most' if e.says_one else 'above'} {e.level:.0%})")


def _hdbscan_measure(ctx, k, size, model) -> float:
    """HDBSCAN's own count at min_cluster_size ``size`` on the sample."""
    from mtc_cli.core.criteria.hdbscan_count import hdbscan_count

    return float(hdbscan_count(ctx.sample(), int(size))[0])


def _hdbscan_judge(count, k, size):
    import numpy as np

    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence("hdbscan", int(k), float(count), (), np.nan, float(size),
                    bool(count <= 1),
                    f"no group structure iff HDBSCAN (min_cluster_size {size:g}) finds at "
                    "most one cluster")


def _hdbscan_words(e, model) -> str:
    if e.statistic != e.statistic:  # NaN: not measured
        return f"HDBSCAN (min_cluster_size {e.level:g}) was not measured"
    n = int(e.statistic)
    return (f"HDBSCAN (min_cluster_size {e.level:g}) finds "
            f"{'no cluster' if n == 0 else f'{n} cluster' + 's' * (n > 1)}")


def _sigclust_measure(ctx, k, level, model) -> float:
    """SigClust's p at k̂ (k-means against a Gaussian null of the data's eigenvalues)."""
    from mtc_cli.core.criteria.sigclust import sigclust

    return sigclust(ctx.sample(), int(k), ctx.rng("sigclust"),
                    n_simulations=SIGCLUST_SIMULATIONS, level=level).p_value


def _sigclust_judge(p, k, level):
    return _p_evidence("sigclust", p, k, level, f"SigClust's p at k = {k} > {level:g}")


def _sigclust_words(e, model) -> str:
    if e.says_one:
        return (f"k-means' split into {e.k} is no tighter than one Gaussian's (SigClust p = "
                f"{e.p_value:.3g} > {e.level:g})")
    return (f"k-means' split into {e.k} is tighter than one Gaussian's (SigClust p = "
            f"{e.p_value:.3g} ≤ {e.level:g})")


def _gap_at_k_measure(ctx, k, factor, model) -> tuple:
    """(Gap(k̂) − Gap(1), s(k̂)) of the tested algorithm's gap curve (NaN without one)."""
    import numpy as np

    curve = ctx.curves
    gap = curve[curve["criterion"] == "gap"].set_index("k") if len(curve) else curve
    if not len(gap) or 1 not in gap.index or int(k) not in gap.index:
        return np.nan, np.nan
    return (float(gap.loc[int(k), "value"] - gap.loc[1, "value"]),
            float(gap.loc[int(k), "value"] - gap.loc[int(k), "lo"]))


def _gap_at_k_judge(stat, k, factor):
    from mtc_cli.core.criteria.one_group import gap_lead

    return gap_lead(stat[0], stat[1], int(k), se_factor=factor)


def _gap_at_k_words(e, model) -> str:
    if e.statistic != e.statistic:  # NaN: no gap curve
        return f"the gap statistic of {model} was not computed"
    return (f"the gap statistic at k = {e.k} {'does not lead' if e.says_one else 'leads'} "
            f"that of k = 1 by more than its standard error (Gap({e.k}) − Gap(1) = "
            f"{e.statistic:.3g}, s = {e.reference[0]:.3g})")


def _stability_measure(ctx, k, level, model) -> float:
    """The answering algorithm's S(k̂)/S_perm(k̂) (NaN where it has none at k̂)."""
    curve = ctx.stability.get(model)
    return float(curve.get(int(k), float("nan"))) if curve is not None else float("nan")


def _stability_judge(ratio, k, level):
    import numpy as np

    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence("stability", int(k), float(ratio), (), np.nan, float(level),
                    bool(np.isfinite(ratio) and ratio > level),
                    f"no group structure iff the answering algorithm's S({k})/S_perm({k}) > "
                    f"{level:g}, what data of one group reach")


def _stability_words(e, model) -> str:
    if e.statistic != e.statistic:  # NaN: no stability at k̂
        return f"{model} has no normalised stability at k = {e.k}"
    than = "no more stable than" if e.says_one else "more stable than"
    return (f"{model}'s clustering at k = {e.k} is {than} data of one group reach "
            f"(S/S_perm = {e.statistic:.3g} "
            f"{'>' if e.says_one else '≤'} {e.level:g})")


def _choice_gate(name: str, asks: str, source: str) -> Gate:
    """A test of k = 1 that is a criterion's own choice of 1 (of the tested algorithm)."""
    def measure(ctx, k, param, model):
        return ctx.choices.get(name, float("nan"))

    def judge(choice, k, param):
        from mtc_cli.core.criteria.one_group import Evidence

        return Evidence(name, int(k), float(choice), (), float("nan"), 1.0,
                        bool(choice == 1), f"no group structure iff {name} chooses k = 1")

    def words(e, model) -> str:
        from mtc_cli.selection.algorithms import BUILTIN as ALGORITHMS
        from mtc_cli.selection.criteria import BUILTIN as CRITERIA

        if e.statistic != e.statistic:  # NaN: not computed
            criterion = next(c for c in CRITERIA if c.name == name)
            algorithm = next((a for a in ALGORITHMS if a.name == model), None)
            if algorithm is not None and not criterion.applies(algorithm):
                return f"{name} does not apply to {model}"
            return f"{name} of {model} was not computed (not among the criteria)"
        if e.says_one:
            return f"{name} of {model} chooses k = 1"
        return f"{name} of {model} chooses k = {int(e.statistic)}, not 1"

    return Gate(name, measure, judge, words, asks, source)


#: the built-in tests of k = 1
GATES = (
    Gate("dip", _dip_measure, _dip_judge, _dip_words,
         "Hartigan's dip test of the first principal component", "Hartigan & Hartigan 1985",
         param=0.05, param_is_level=True),
    Gate("dip_means", _dip_means_measure, _dip_means_judge, _dip_means_words,
         "dip-means' test of the distances seen from each point", "Kalogeratos & Likas 2012"),
    Gate("hdbscan", _hdbscan_measure, _hdbscan_judge, _hdbscan_words,
         "HDBSCAN's own count", "Campello, Moulavi & Sander 2013", param=20),
    Gate("sigclust", _sigclust_measure, _sigclust_judge, _sigclust_words,
         "SigClust at the k found", "Liu, Hayes, Nobel & Marron 2008", param=0.05,
         param_is_level=True, at_k=True),
    Gate("gap_at_k", _gap_at_k_measure, _gap_at_k_judge, _gap_at_k_words,
         "the gap statistic at the k found against k = 1", _GAP, param=1.0, at_k=True),
    Gate("stability", _stability_measure, _stability_judge, _stability_words,
         "the answering algorithm's normalised stability at the k found against what data "
         "of one group reach", "Lange, Braun, Roth & Buhmann 2002", param=0.07, at_k=True,
         per_model=True),
    _choice_gate("gap", "the gap statistic's 1-s.e. rule", _GAP),
    _choice_gate("clest", "Clest", "Dudoit & Fridlyand 2002"),
    _choice_gate("duda_hart", "Duda & Hart's test", "Duda & Hart 1973"),
)
