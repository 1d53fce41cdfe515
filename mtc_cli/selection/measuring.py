"""What the tests of k = 1 (:mod:`mtc_cli.selection.gates`) measure of a selection's data:
:class:`Measuring`, handed each :class:`~mtc_cli.selection.spec.Gate` the answer weighs.
"""

from __future__ import annotations

from mtc_cli.selection.spec import Gate


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

        from mtc_cli.selection.auto import normalised_stability
        from mtc_cli.selection.choice import evaluate

        stability = {}
        for m, curve in self.stability.items():
            r = self.rows.get(m)
            stability[m] = curve if r is None else normalised_stability(r[r["rep"] == draw])
        choices, curves = dict(self.choices), self.curves
        rows, s = self.rows.get(self.tested), self.settings.get(self.tested)
        gaps = [c for c in choices if c.startswith("gap")]
        if rows is not None and gaps:
            rows = _references_redrawn(rows, self.rng("gap references", draw))
            drawn = {c: evaluate(rows, c, s) for c in gaps}
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
        """At most ``max_items`` objects of :meth:`continuous` (the reference sample), dense
        (the rows of a sparse matrix made dense: at most ``max_items`` of them)."""
        import numpy as np
        import scipy.sparse as sp

        from mtc_cli.selection.criteria import reference_sample

        X = self.continuous()
        rows = X[reference_sample(X, self.max_items)]
        return np.asarray(rows.toarray() if sp.issparse(rows) else rows, dtype=np.float64)

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
