"""The built-in samples: each file loads, matches its mapping and keeps its promises."""

from __future__ import annotations

import io
from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

from costlib.core.dataset import SPLIT_ROLES, ColumnMapping
from costlib.loading.samples import SAMPLES, Sample, sample_bytes

# Columns a sample carries beyond the ones its mapping names (documented in ATTRIBUTION.md).
EXTRA_COLUMNS = {
    "compas": {"decile_score", "sex", "age_cat"},
    "offensive": {"annotators"},
    "tickets": set(),
    "screening": set(),
}
EXPECTED_SPLITS = {
    "compas": {"train", "test"},
    "offensive": {"train", "test"},
    "tickets": {"validation", "test"},
    "screening": {"train", "validation", "test"},
}


def load(key: str) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(sample_bytes(key)))


def mapped_columns(m: ColumnMapping) -> set[str]:
    cols: set[str] = set()
    for f in fields(m):
        v = getattr(m, f.name)
        if f.name in ("positive", "score_scale", "rating_midpoint", "measurement_threshold", "class_names"):
            continue
        if isinstance(v, tuple):
            cols.update(v)
        elif v is not None:
            cols.add(v)
    return cols


def value_at_k(y: np.ndarray, p: np.ndarray, k: float) -> float:
    """V at tau = k/(k+1): +1 accepted & correct, -k accepted & wrong, 0 rejected."""
    tau = k / (k + 1.0)
    accepted = np.maximum(p, 1.0 - p) >= tau
    correct = (p >= 0.5) == y.astype(bool)
    return float(np.mean(np.where(accepted, np.where(correct, 1.0, -k), 0.0)))


def test_registry_keys_and_types():
    assert set(SAMPLES) == {"compas", "offensive", "tickets", "screening"}
    assert next(iter(SAMPLES)) in ("screening", "compas")
    for key, s in SAMPLES.items():
        assert isinstance(s, Sample) and s.key == key
        assert s.title and s.description and s.attribution and s.filename.endswith(".csv")
        assert "\n" not in s.description and "\n" not in s.attribution


def test_unknown_key_raises_keyerror_listing_valid_keys():
    with pytest.raises(KeyError) as err:
        sample_bytes("no-such-sample")
    for key in SAMPLES:
        assert key in str(err.value)


@pytest.mark.parametrize("key", list(SAMPLES))
def test_columns_are_the_mapped_ones(key):
    df = load(key)
    assert len(df) > 1000
    assert set(df.columns) == mapped_columns(SAMPLES[key].mapping) | EXTRA_COLUMNS[key]
    assert not df.isna().any().any()


@pytest.mark.parametrize("key", list(SAMPLES))
def test_probabilities_labels_and_splits(key):
    df, m = load(key), SAMPLES[key].mapping
    for col in m.scores + m.class_probs:
        p = df[col].to_numpy(dtype=float)
        assert np.all((p >= 0) & (p <= 1)), col
    if m.label is not None:
        assert set(df[m.label].unique()) == {0, 1}
    if m.class_probs:
        total = df[list(m.class_probs)].to_numpy(dtype=float).sum(axis=1)
        assert np.max(np.abs(total - 1.0)) <= 1e-6
        assert set(df[m.class_label]) == set(m.class_names)
    assert set(df[m.split]) == EXPECTED_SPLITS[key]
    assert EXPECTED_SPLITS[key] <= set(SPLIT_ROLES)


def test_offensive_has_no_text():
    df = load("offensive")
    assert not any("tweet" in c.lower() for c in df.columns)
    for col in df.columns:
        if df[col].dtype == object or pd.api.types.is_string_dtype(df[col]):
            assert df[col].astype(str).str.len().max() <= 40, col
    raw = sample_bytes("offensive").decode("utf-8")
    assert max(len(line) for line in raw.splitlines()) < 80


def test_offensive_votes_agree_with_label():
    df = load("offensive")
    assert (df["n_yes"] >= 0).all() and (df["n_no"] >= 0).all()
    assert (df["n_yes"] + df["n_no"] == df["annotators"]).all()
    clear = df["n_yes"] != df["n_no"]
    assert ((df["n_yes"] > df["n_no"]).astype(int)[clear] == df["label"][clear]).all()


def test_compas_p_recid_is_smoothed_train_rate():
    df = load("compas")
    assert set(df["race"]) == {"African-American", "Caucasian", "Other"}
    assert df["decile_score"].between(1, 10).all()
    train = df[df["split"] == "train"].groupby("decile_score")["two_year_recid"]
    rate = ((train.sum() + 1) / (train.count() + 2)).round(6)
    assert np.allclose(df["p_recid"], df["decile_score"].map(rate), atol=1e-6)


def test_screening_value_ranking_flips():
    df = load("screening")
    y = df["label"].to_numpy()
    cal = df["score_calibrated"].to_numpy(dtype=float)
    over = df["score_overconfident"].to_numpy(dtype=float)
    small = value_at_k(y, over, 0.5) - value_at_k(y, cal, 0.5)
    large = value_at_k(y, over, 9.0) - value_at_k(y, cal, 9.0)
    assert small > 0 > large


def test_tickets_cheapest_route_differs_from_argmax():
    df, m = load("tickets"), SAMPLES["tickets"].mapping
    p = df[list(m.class_probs)].to_numpy(dtype=float)
    cost = np.ones((3, 3)) - np.eye(3)  # cost[true, routed]
    cost[2, :2] = 10.0  # a missed security ticket
    cheapest = (p @ cost).argmin(axis=1)
    assert 0.02 < np.mean(cheapest != p.argmax(axis=1)) < 0.5
