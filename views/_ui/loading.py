"""Parsing once per session, keyed by content.

A parsed table is built once per session, keyed by the file's sha256 (never its name), and
kept in this session's state (two at most), so a rerun (a slider move) neither re-parses nor
unpickles a copy. Nothing user-specific sits in module globals or in `st.cache_resource`.
"""

from __future__ import annotations

from collections import OrderedDict

import pandas as pd
import streamlit as st

from costlib import loading
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.loading.samples import SAMPLES, sample_bytes

PARSED_KEEP = 2  # parsed tables a session keeps (by content): the upload being mapped and one more


def read_table_cached(data: bytes, digest: str, filename: str) -> pd.DataFrame:
    """The parsed table for these bytes, parsed once per session; `digest` (the sha256 of the
    content, never the name) is the key. Kept in the session, not in `st.cache_data`: that
    cache pickles a copy in and hands a fresh copy out on every rerun, two more tables in
    memory per session for a file near the upload limit."""
    store = st.session_state.setdefault("_parsed", OrderedDict())
    if digest not in store:
        with st.spinner("Reading the file…"):
            store[digest] = loading.read_table(data, filename)
        while len(store) > PARSED_KEEP:
            store.popitem(last=False)
    return store[digest]


def build_dataset_cached(df: pd.DataFrame, digest: str, name: str, mapping: ColumnMapping, options: tuple) -> Dataset:
    """`loading.prepare` once per (content, mapping, options) in this session."""
    key = ("_prepared", digest, name, mapping, options)
    store = st.session_state.setdefault("_prepared", OrderedDict())
    if key not in store:
        with st.spinner("Checking the columns…"):
            store[key] = loading.prepare(df, mapping, name=name, fingerprint=digest, **dict(options))
        while len(store) > PARSED_KEEP:
            store.popitem(last=False)
    return store[key]


def load_sample(key: str) -> Dataset:
    """The built-in sample `key`, parsed once per session."""
    loaded = st.session_state.setdefault("_samples", {})
    if key not in loaded:
        sample = SAMPLES[key]
        data = sample_bytes(key)
        digest = loading.fingerprint(data)
        df = read_table_cached(data, digest, sample.filename)
        loaded[key] = build_dataset_cached(df, digest, sample.title, sample.mapping, ())
    return loaded[key]
