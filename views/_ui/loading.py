"""Parsing once per session, keyed by content, within the server's memory.

A parsed table is built once per session, keyed by the file's sha256 (never its name), and
kept in this session's state (two at most), so a rerun (a slider move) neither re-parses nor
unpickles a copy. Nothing user-specific sits in module globals or in `st.cache_resource`.
Both the read and the preparation are admitted on the server's memory ledger first: a read
gets the upload budget or, on a busy server, what is free (`MemoryLedger.allowance`); a
prepared dataset is admitted with the work it leads to (`loading.budget.work_bytes`).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from costlib import loading
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.loading.budget import work_bytes
from costlib.loading.frames import frame_bytes
from costlib.loading.ledger import LEDGER, held_bytes
from costlib.loading.messages import WHAT_CHECKING, WHAT_READING
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import labels as t
from views._ui.memo import recall, remember
from views._ui.memory import account

PARSED_KEEP = 2  # parsed tables a session keeps (by content): the upload being mapped and one more


def upload_content(upload) -> tuple[bytes, str]:
    """(bytes, sha256) of an uploaded file: hashed once per upload (kept by its `file_id` in
    ``_digests``, only the current upload's), so that a rerun does not hash the file again."""
    digests = st.session_state.setdefault("_digests", {})
    data = upload.getvalue()
    if upload.file_id not in digests:
        digests.clear()
        digests[upload.file_id] = loading.fingerprint(data)
    return data, digests[upload.file_id]


def read_table_cached(data: bytes, digest: str, filename: str) -> pd.DataFrame:
    """The parsed table for these bytes, parsed once per session; `digest` (the sha256 of the
    content, never the name) is the key. Kept in the session, not in `st.cache_data`: that
    cache pickles a copy in and hands a fresh copy out on every rerun, two more tables in
    memory per session for a file near the upload limit."""
    limit = LEDGER.allowance(account(), ("_parsed", digest))
    with st.spinner(t.READING_FILE):
        return remember(
            digest,
            lambda: loading.read_table(data, filename, limit=limit),
            store="_parsed",
            size=PARSED_KEEP,
            weigh=held_bytes,
            need=lambda: min(limit.peak, loading.read_peak(data)),
            what=WHAT_READING.format(name=loading.display_name(filename)),
        )


def kept_table(digest: str) -> pd.DataFrame | None:
    """The table parsed from the content `digest` if this session still keeps it
    (`read_table_cached`), else None; nothing is read."""
    return recall(digest, "_parsed")


def build_dataset_cached(df: pd.DataFrame, digest: str, name: str, mapping: ColumnMapping, options: tuple) -> Dataset:
    """`loading.prepare` once per (content, mapping, options) in this session, admitted with the
    work the pages will do on it (its sweeps and intervals are memoised without a weight of
    their own: `dataset_weight` covers them)."""
    with st.spinner(t.CHECKING_COLUMNS):
        return remember(
            (digest, name, mapping, options),
            lambda: loading.prepare(df, mapping, name=name, fingerprint=digest, **dict(options)),
            store="_prepared",
            size=PARSED_KEEP,
            weigh=dataset_weight,
            need=lambda: frame_bytes(df) + work_bytes(len(df), len(mapping.scores)),
            what=WHAT_CHECKING.format(name=loading.display_name(name)),
        )


def dataset_weight(ds: Dataset) -> int:
    """What a prepared dataset holds on the ledger: its arrays and the pages' work on it."""
    arrays = held_bytes(ds)
    # counts: the pages' work on them (intervals drawn per cell) is about the sweeps' size again
    return 2 * arrays if ds.counts_only else arrays + work_bytes(ds.n_rows, len(ds.scores))


def load_sample(key: str) -> Dataset:
    """The built-in sample `key` (this session's reference to the one the server shares)."""
    loaded = st.session_state.setdefault("_samples", {})
    if key not in loaded:
        loaded[key] = _shipped(key)
    return loaded[key]


@st.cache_resource(show_spinner=t.LOADING_SAMPLE)
def _shipped(key: str) -> Dataset:
    """A shipped sample, parsed and prepared once per server: the product's own data, shared by
    every session and outside the memory ledger (a few MB together), so a full server still
    opens its samples."""
    sample = SAMPLES[key]
    data = sample_bytes(key)
    df = loading.read_table(data, sample.filename)
    return loading.prepare(df, sample.mapping, name=sample.title, fingerprint=loading.fingerprint(data))
