"""Build the "Train with costs" tweets sample, costlib/samples/offensive_training.npz.

Run by hand from the repository root (never at app run time):

    /work/main/.venv/bin/python scripts/make_training_sample.py [--shared PATH] [--check]

PATH defaults to ../shared/data relative to the repository root. The tweet text is read
only to count words and word pairs; what is written holds no text and no vocabulary:

- ``indptr``, ``indices``, ``data``, ``shape``: a CSR matrix of term counts, one row per
  tweet in the source's order, one column per word or word pair that occurs in at least two
  tweets (scikit-learn ``CountVectorizer(ngram_range=(1, 2), min_df=2)``, its default
  tokenisation: lowercased words of two or more letters or digits). Columns are in the
  vectorizer's order; the words themselves are not written.
- ``n_yes`` (hate_speech + offensive_language) and ``n_no`` (neither): annotator votes.

It also writes ``offensive_training_result.json``: the default comparison (all seven
methods, 10 seeds, random_state 0) and the cost-predictability R^2 on that sample, which the
page shows, labelled as precomputed, until the user trains here.

`TfidfTransformer(sublinear_tf=True)` of these counts is exactly the published features,
``TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)`` of the text (checked
below). The .npz is written with fixed zip timestamps, so a rerun writes identical bytes.
``--check`` also runs the 10-seed comparison on the text's own TF-IDF and on the shipped
counts and prints both summaries (they agree to rounding), and prints the result the page
shows. The script never prints tweet text.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
OUT = REPO / "costlib" / "samples" / "offensive_training.npz"
MAX_BYTES = 1_500_000
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> int:
    """An .npz (readable by numpy.load with allow_pickle=False) with fixed timestamps."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            body = io.BytesIO()
            np.lib.format.write_array(body, np.ascontiguousarray(arr), allow_pickle=False)
            zf.writestr(info, body.getvalue(), compresslevel=9)
    data = buf.getvalue()
    if len(data) > MAX_BYTES:
        raise SystemExit(f"{path.name} would be {len(data)} bytes, above the {MAX_BYTES} byte budget")
    path.write_bytes(data)
    return len(data)


def json_rows(frame: pd.DataFrame) -> list[list]:
    """Rows of plain Python values; NaN becomes null (floats keep their exact repr)."""

    def plain(x):
        x = x.item() if hasattr(x, "item") else x
        return None if isinstance(x, float) and x != x else x

    return [[plain(x) for x in row] for row in frame.itertuples(index=False)]


def write_precomputed(data) -> None:
    """The page's first view: the default comparison on the shipped sample, computed here."""
    import hashlib
    import json

    import scipy
    import sklearn

    from costlib.training.compare import METHODS, compare_training, cost_predictability, training_summary
    from costlib.training.data import PRECOMPUTED_SEEDS, TWEETS_FILE

    results = compare_training(data.X, data.delta, methods=METHODS, seeds=PRECOMPUTED_SEEDS, random_state=0, n_jobs=-1)
    r2 = cost_predictability(data.X, data.delta, seeds=PRECOMPUTED_SEEDS, random_state=0)
    out = {
        "what": "costlib.compare_training and costlib.cost_predictability on the shipped tweets sample",
        "sample": TWEETS_FILE,
        "sample_sha256": hashlib.sha256((OUT.parent / TWEETS_FILE).read_bytes()).hexdigest(),
        "settings": {
            "methods": list(METHODS),
            "seeds": PRECOMPUTED_SEEDS,
            "random_state": 0,
            "estimator": "default: LogisticRegression(C=1, max_iter=1000); Ridge(alpha=1)",
        },
        "versions": {"scikit-learn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__},
        "results": {"columns": list(results.columns), "rows": json_rows(results)},
        "predictability": {"columns": list(r2.columns), "rows": json_rows(r2)},
    }
    text = json.dumps(out, indent=1, allow_nan=False) + "\n"
    path = OUT.parent / "offensive_training_result.json"
    path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {path.relative_to(REPO)}: {len(results)} result rows, {len(text)} bytes")
    cols = ["method", "nec", "nec_low", "nec_high", "error_rate", "nec_change", "nec_change_low", "nec_change_high"]
    print(training_summary(results)[cols].round(4).to_string(index=False))
    print(f"  held-out R^2 of |delta|: mean {r2['r2'].mean():.4f}")


def main(argv: list[str] | None = None) -> int:
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--shared",
        type=Path,
        default=REPO.parent / "shared" / "data",
        help="folder holding davidson-votes/ (default: %(default)s)",
    )
    ap.add_argument("--check", action="store_true", help="also compare text TF-IDF and shipped counts (~1 min)")
    args = ap.parse_args(argv)

    raw = pd.read_csv(
        args.shared / "davidson-votes" / "labeled_data.csv",
        usecols=["count", "hate_speech", "offensive_language", "neither", "tweet"],
    )
    text = raw["tweet"].astype(str).to_numpy()  # counted, never written or printed
    n_yes = (raw["hate_speech"] + raw["offensive_language"]).to_numpy()
    n_no = raw["neither"].to_numpy()
    if not np.array_equal(n_yes + n_no, raw["count"].to_numpy()):
        raise SystemExit("vote counts do not add up to count")

    counts = CountVectorizer(ngram_range=(1, 2), min_df=2).fit_transform(text).tocsr()
    counts.sort_indices()
    if counts.shape[1] >= 2**16 or counts.max() > 255 or max(n_yes.max(), n_no.max()) > 255:
        raise SystemExit("the compact dtypes (uint16 columns, uint8 counts and votes) do not fit")
    size = write_npz(
        OUT,
        {
            "indptr": counts.indptr.astype(np.int32),
            "indices": counts.indices.astype(np.uint16),
            "data": counts.data.astype(np.uint8),
            "shape": np.array(counts.shape, dtype=np.int64),
            "n_yes": n_yes.astype(np.uint8),
            "n_no": n_no.astype(np.uint8),
        },
    )
    print(
        f"wrote {OUT.relative_to(REPO)}: {counts.shape[0]} tweets x {counts.shape[1]} terms, "
        f"{counts.nnz} non-zero counts, {size} bytes"
    )

    from costlib.training.data import tweets_sample

    shipped = tweets_sample()
    published = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True).fit_transform(text)
    gap = abs(shipped.X - published).max()
    print(f"  largest difference between shipped features and TfidfVectorizer on the text: {gap:.2e}")
    if gap > 1e-12:
        raise SystemExit("the shipped counts do not reproduce the published TF-IDF features")
    write_precomputed(shipped)
    if args.check:
        from costlib.training.compare import compare_training, training_summary

        cols = ["method", "nec", "nec_low", "nec_high", "error_rate", "nec_change", "nec_change_low", "nec_change_high"]
        for label, X in (("TfidfVectorizer on the text", published), ("shipped counts", shipped.X)):
            summary = training_summary(compare_training(X, shipped.delta, seeds=10, n_jobs=-1))
            print(f"  10-seed comparison, {label}:")
            print(summary[cols].round(4).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
