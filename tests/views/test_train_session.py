"""Train with costs keeps an upload's features and results in its session only: another
session that uploads the same file builds them again (no shared cache, no timing side channel)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from views._ui import training


def test_features_are_built_per_session_and_kept_within_one(monkeypatch):
    calls = []

    def from_table(df, *, name, fingerprint, **choices):
        calls.append(fingerprint)
        return ("features", fingerprint)

    monkeypatch.setattr(training.training_data, "from_table", from_table)
    df = pd.DataFrame({"x": [1.0, 2.0]})
    st.session_state.clear()
    first = training.from_table_cached(df, "d1", "t.csv", (("a", 1),))
    again = training.from_table_cached(df, "d1", "t.csv", (("a", 1),))
    assert first is again and calls == ["d1"]  # kept within the session
    st.session_state.clear()  # another session: nothing of the first one is there
    training.from_table_cached(df, "d1", "t.csv", (("a", 1),))
    assert calls == ["d1", "d1"]
    for digest in ("d2", "d3", "d4"):  # bounded: the oldest upload's features go first
        training.from_table_cached(df, digest, "t.csv", ())
    assert len(st.session_state["_train_features"]) == training.FEATURES_KEPT
