"""The tests of k = 1, "no group structure", that the answer weighs against the k the
algorithms found (:class:`~mtc_cli.selection.spec.Gate`, registered in the catalog), and
what they measure of a selection's data (:class:`Measuring`).

Each test measures something of the data (``measure(ctx, k, param, model)``: ``ctx`` is the
:class:`Measuring` of the selection), judges it at the k̂ the algorithms found
(``judge(statistic, k, param)`` → the :class:`~mtc_cli.core.criteria.one_group.Evidence`
shown with the answer) and says it in words (``words(evidence, model)``). ``param``: its
level, or HDBSCAN's min_cluster_size; ``model``: the algorithm that answers (the stability's
own curve is read). This module imports numpy only when a test measures: the catalog that
holds the tests loads without it.
"""

from __future__ import annotations

from mtc_cli.selection.spec import Gate

_GAP = "Tibshirani, Walther & Hastie 2001"


class Measuring:
    """What the tests of k = 1 measure of a selection's data, each once (per k̂ where it
    depends on it, per answering algorithm where it reads its curve): ``X`` the data, their
    :meth:`continuous` form and :meth:`sample` of at most ``max_items`` objects, a generator
    per test (:meth:`rng`, seeded by the data's ``digest``), the choices and curves of the
    algorithm the tests read (``choices``, ``curves``) and each algorithm's S(k)/S_perm(k)
    (``stability``). Called with a :class:`~mtc_cli.selection.spec.Gate`, the k̂, its
    parameter and the answering algorithm.

    :meth:`redrawn` measures the same again on another draw of what is random in them (from
    the tested algorithm's ``rows`` and ``settings``: model → its rows and Settings)."""

    def __init__(self, X, digest: str, choices: dict, curves, max_items: int = 2000,
                 stability: dict | None = None, *, rows: dict | None = None,
                 settings: dict | None = None, tested: str | None = None,
                 draw: int | None = None):
        self.X, self.digest, self.choices, self.curves = X, digest, choices, curves
        self.max_items, self.stability = max_items, stability or {}
        self.rows, self.settings, self.tested = rows or {}, settings or {}, tested
        self.draw = draw
        self._done: dict = {}

    def redrawn(self, draw: int) -> Measuring:
        """The measures on draw ``draw`` ≥ 0 of their randomness: every generator seeded
        with it too (the ties' spread, samples, reference and simulated data sets); each
        algorithm's S(k)/S_perm(k) of random split ``draw`` alone; the tested algorithm's
        gap statistic over reference sets drawn with replacement from the run's (the
        bootstrap of its B references), its choices and curve of it. Criteria without
        randomness of their own (Clest's choice, Duda & Hart's) as they are."""
        import pandas as pd

        from mtc_cli.selection import choice
        from mtc_cli.selection.auto import normalised_stability

        stability = {}
        for m, curve in self.stability.items():
            r = self.rows.get(m)
            stability[m] = curve if r is None else normalised_stability(r[r["rep"] == draw])
        choices, curves = dict(self.choices), self.curves
        rows, s = self.rows.get(self.tested), self.settings.get(self.tested)
        gaps = [c for c in choices if c.startswith("gap")]
        if rows is not None and gaps:
            rows = _references_redrawn(rows, self.rng("gap references", draw))
            drawn = {c: choice.evaluate(rows, c, s) for c in gaps}
            choices.update({c: d.k for c, d in drawn.items()})
            curves = pd.concat([curves[~curves["criterion"].isin(gaps)],
                                *(d.curve.reset_index().assign(criterion=c)
                                  for c, d in drawn.items())], ignore_index=True)
        return Measuring(self.X, self.digest, choices, curves, self.max_items, stability,
                         rows=self.rows, settings=self.settings, tested=self.tested,
                         draw=draw)

    def continuous(self):
        """The data with tied values spread within their resolution
        (:func:`mtc_cli.core.criteria.ties.dequantized`: the tests of k = 1 assume continuous
        values), made once."""
        if "continuous" not in self._done:
            from mtc_cli.core.criteria.ties import dequantized

            self._done["continuous"] = dequantized(self.X, self.rng("ties"))
        return self._done["continuous"]

    def sample(self):
        """At most ``max_items`` objects of :meth:`continuous` (the reference sample)."""
        import numpy as np

        from mtc_cli.selection.criteria import reference_sample

        X = self.continuous()
        return np.asarray(X[reference_sample(X, self.max_items)], dtype=np.float64)

    def rng(self, name: str, draw: int | None = None):
        """A numpy Generator of its own for what ``name`` draws, seeded by the data (and by
        the draw, :meth:`redrawn`)."""
        import zlib

        import numpy as np

        draw = self.draw if draw is None else draw
        return np.random.default_rng([int(self.digest[:12], 16), zlib.crc32(name.encode()),
                                      *(() if draw is None else (draw + 1,))])

    def __call__(self, gate: Gate, k: int, param, model: str | None = None):
        key = (gate.name, int(k) if gate.at_k else None, param,
               model if gate.per_model else None)
        if key not in self._done:
            self._done[key] = gate.measure(self, k, param, model)
        return self._done[key]


def _references_redrawn(rows, rng):
    """``rows`` with the gap statistic's reference sets (``reference`` 1, one ``rep`` each)
    drawn with replacement from themselves, as many as there are."""
    import pandas as pd

    is_ref = (rows["criterion"] == "gap") & (rows.get("reference", 0) == 1)
    refs = rows[is_ref]
    reps = refs["rep"].unique()
    if len(reps) < 2:
        return rows
    picked = rng.choice(reps, size=len(reps), replace=True)
    drawn = [refs[refs["rep"] == r].assign(rep=i) for i, r in enumerate(picked)]
    return pd.concat([rows[~is_ref], *drawn], ignore_index=True)


#: simulated null data sets of SigClust
SIGCLUST_SIMULATIONS = 50


def _dip_measure(ctx, k, level, model) -> float:
    """The p-value of Hartigan's dip test of the first principal component of X (its tied
    values spread within their resolution, ``ctx.continuous``)."""
    from mtc_cli.core.criteria.dip import dip_pvalue
    from mtc_cli.selection.projection import pca_2d

    return dip_pvalue(pca_2d(ctx.continuous())[:, 0])[1]


def _dip_judge(p, k, level):
    import numpy as np

    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence("dip", int(k), float(p), (), float(p), float(level),
                    bool(np.isfinite(p) and p > level),
                    f"no group structure iff the dip test of the first principal component "
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
    import numpy as np

    from mtc_cli.core.criteria.one_group import Evidence

    return Evidence("sigclust", int(k), float(p), (), float(p), float(level),
                    bool(np.isfinite(p) and p > level),
                    f"no group structure iff SigClust's p at k = {k} > {level:g}")


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
        from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA

        if e.statistic != e.statistic:  # NaN: not computed
            if not CRITERIA[name].applies(ALGORITHMS[model]):
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
