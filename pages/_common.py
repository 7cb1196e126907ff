"""What every page shares: the data choice, per-session memo of sweeps, price inputs.

Pages stay thin: they read widgets, call costlib through `memo`, and hand figures to
`st.plotly_chart`. Nothing here computes a formula.

Where data lives. A parsed table is built once by a `st.cache_data` function keyed by the
file's sha256 (never its name), then kept in this session's state, so a rerun (a slider
move) does not unpickle a copy. Sweeps and other per-dataset results go through `memo`: a
small per-session LRU keyed by the dataset's identity and plain hashable arguments. Nothing
user-specific sits in module globals or in `st.cache_resource`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from costlib import loading
from costlib.dataset import ColumnMapping, Dataset
from costlib.errors import DataError
from costlib.samples_registry import SAMPLES, sample_bytes
from costlib.words import md_escape

UPLOAD = "upload"
DEFAULT_SAMPLE = "compas"
MEMO_SIZE = 48
DATA_PAGE = "pages/data.py"


# ---------------------------------------------------------------------------------------
# Loading (cached by content)


@st.cache_data(max_entries=8, ttl=3600, show_spinner="Reading the file…")
def read_table_cached(_data: bytes, digest: str, filename: str) -> pd.DataFrame:
    """The parsed table for these bytes; `digest` (sha256) is the cache key, not the name."""
    return loading.read_table(_data, filename)


@st.cache_data(max_entries=8, ttl=3600, show_spinner="Checking the columns…")
def build_dataset_cached(_df: pd.DataFrame, digest: str, name: str, mapping: ColumnMapping, options: tuple) -> Dataset:
    return loading.prepare(_df, mapping, name=name, fingerprint=digest, **dict(options))


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


def data_choice_label(key: str) -> str:
    # Labels are fixed strings: a label that changed with the upload would make a new widget.
    return "Your uploaded file" if key == UPLOAD else SAMPLES[key].title


def remembered(key: str, default, parse=str, valid=None):
    """Seed the widget `key` with this session's value of a setting that pages share.

    Streamlit drops a widget's value when the page that drew it stops rendering, and a
    widget on another page starts from its default. The value therefore lives under a
    plain key (``_keep_<key>``), first read from the URL (?key=...), and the widget is
    re-seeded from it on every run; `keep` (the widget's on_change) stores a change.
    Call `mirror(key)` after the widget to write the value back to the URL.
    """
    store = f"_keep_{key}"
    if store not in st.session_state:
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            try:
                value = parse(raw)
            except ValueError:
                value = default
        st.session_state[store] = value if valid is None or valid(value) else default
    st.session_state[key] = st.session_state[store]


def keep(key: str) -> None:
    st.session_state[f"_keep_{key}"] = st.session_state[key]


def set_setting(key: str, value) -> None:
    """Set a remembered setting (from a callback, a button or a loaded policy)."""
    st.session_state[f"_keep_{key}"] = value


def mirror(key: str) -> None:
    st.query_params[key] = str(st.session_state[f"_keep_{key}"])


def choose_data(key: str) -> None:
    """Make `key` (a sample key or UPLOAD) the data every page uses."""
    set_setting("data", key)


def replace_upload(ds: Dataset) -> None:
    """Make `ds` this session's uploaded data and forget what was memoised for the old one."""
    old = st.session_state.get("upload_dataset")
    st.session_state["upload_dataset"] = ds
    if old is not None and old.fingerprint != ds.fingerprint:
        store = st.session_state.get("_memo", {})
        for key in [k for k in store if k[1][0] == old.fingerprint]:
            del store[key]
    choose_data(UPLOAD)


def current_dataset(*, needs: str | None = None) -> Dataset | None:
    """The dataset chosen in the sidebar (mirrored in the URL as ?data=...).

    A fresh session given ?data=upload has no file yet: the page says so and returns None.
    `needs` names a role ("binary", "multiclass", "delta") the page requires; a dataset
    without it gets a sentence pointing to a sample that has it.
    """
    options = [*SAMPLES, UPLOAD]
    # Remembered across pages and mirrored in the URL by hand (a bound selectbox would put the
    # display label in the URL).
    remembered("data", DEFAULT_SAMPLE, valid=lambda v: v in options)
    choice = st.sidebar.selectbox(
        "Data",
        options,
        key="data",
        format_func=data_choice_label,
        on_change=keep,
        args=("data",),
        help="A built-in sample, or the file you uploaded on the Data page.",
    )
    mirror("data")
    if choice == UPLOAD:
        ds = st.session_state.get("upload_dataset")
        if ds is not None:
            st.sidebar.caption(md_escape(f"Your file: {ds.name} ({ds.n_rows:,} rows)"))
        else:
            st.info(
                "Choose a sample in the sidebar or upload a file on the Data page first. "
                "(Uploaded data is never part of a shared link: it stays in your session.)"
            )
            st.page_link(DATA_PAGE, label="Go to the Data page", icon="📂")
            return None
    else:
        ds = load_sample(choice)
        st.sidebar.caption(SAMPLES[choice].description)
    if needs and not has_role(ds, needs):
        hint = {
            "binary": "a binary label and at least one score column",
            "probabilities": "a binary label and scores that are probabilities (raw scores can be mapped as "
            "logits on the Data page)",
            "multiclass": "multiclass probability columns",
            "delta": "an instance cost (delta, votes, rating or a measurement)",
        }[needs]
        sample = {"binary": "screening", "probabilities": "screening", "multiclass": "tickets",
                  "delta": "offensive"}[needs]
        say(
            "info",
            f"“{ds.name}” lacks {hint}, which this page needs. Try the sample "
            f"“{SAMPLES[sample].title}” in the sidebar, or map such columns on the Data page.",
        )
        return None
    return ds


def has_role(ds: Dataset, role: str) -> bool:
    if role == "binary":
        return ds.y is not None and bool(ds.scores)
    if role == "probabilities":
        return has_role(ds, "binary") and ds.probabilities
    if role == "multiclass":
        return ds.class_probs is not None and ds.y_class is not None
    if role == "delta":
        return ds.delta is not None and bool(ds.scores)
    raise KeyError(role)


def dataset_key(ds: Dataset) -> tuple:
    """What identifies a dataset's content for memoised results."""
    return (ds.fingerprint, ds.mapping, ds.n_rows, ds.notes)


# ---------------------------------------------------------------------------------------
# Per-session memo (bounded)


def memo(name: str, ds: Dataset, args: tuple, compute: Callable):
    """compute(), remembered for this session under (name, dataset identity, args).

    `args` must be hashable and hold everything `compute` depends on besides the dataset.
    """
    store: OrderedDict = st.session_state.setdefault("_memo", OrderedDict())
    key = (name, dataset_key(ds), args)
    if key in store:
        store.move_to_end(key)
        return store[key]
    value = compute()
    store[key] = value
    while len(store) > MEMO_SIZE:
        store.popitem(last=False)
    return value


def groups_of(ds: Dataset) -> np.ndarray:
    """Group per row; one group "everyone" when no group column is mapped."""
    if ds.groups is None:
        return np.full(ds.n_rows, "everyone", dtype=object)
    return ds.groups


def rows(ds: Dataset, purpose: str) -> np.ndarray:
    """Row mask: "fit" uses train (or every row), "judge" test, "calibrate" validation."""
    role = {"fit": "train", "judge": "test", "calibrate": "validation"}[purpose]
    if ds.has_role(role):
        return ds.rows(role)
    if purpose == "calibrate" and ds.has_role("train"):
        return ds.rows("train")
    return np.ones(ds.n_rows, dtype=bool)


def split_note(ds: Dataset) -> str:
    if ds.has_role("train") and ds.has_role("test"):
        return (
            f"Cutoffs are fitted on the {int(ds.rows('train').sum()):,} train rows and judged on the "
            f"{int(ds.rows('test').sum()):,} test rows."
        )
    return (
        "This data has no train/test split, so cutoffs are fitted and judged on the same rows, "
        "which flatters the cost-optimal rule. Map a split column on the Data page to avoid that."
    )


# ---------------------------------------------------------------------------------------
# Shared widgets


def unit_and_volume(page: str) -> tuple[str, float]:
    """The money unit ("$", "minutes") and monthly volume, mirrored in the URL."""
    remembered("unit", "$", valid=lambda v: len(v) <= 12)
    remembered("volume", 10_000, parse=int, valid=lambda v: v >= 0)
    with st.sidebar:
        unit = st.text_input(
            "Unit of your prices",
            key="unit",
            on_change=keep,
            args=("unit",),
            max_chars=12,
            help="What one price unit is: $, €, minutes, hours…",
        )
        volume = st.number_input(
            "Cases per month",
            min_value=0,
            step=1_000,
            key="volume",
            on_change=keep,
            args=("volume",),
            help="Used to show cost and value per month.",
        )
    mirror("unit")
    mirror("volume")
    return unit.strip(), float(volume)


def model_picker(ds: Dataset, label: str = "Model (score column)", key: str = "model") -> str:
    models = list(ds.scores)
    if len(models) == 1:
        return models[0]
    return st.selectbox(label, models, key=key, bind="query-params")


def show_table(df: pd.DataFrame, name: str, *, key: str, column_config: dict | None = None) -> None:
    """A table with a CSV download (user text neutralised against formula injection)."""
    st.dataframe(df, hide_index=True, column_config=column_config, width="stretch")
    st.download_button(
        "Download this table (CSV)",
        data=loading.safe_csv(df),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=f"dl_{key}",
        on_click="ignore",
    )


def say(kind: str, text: str, *, bold: bool = False, where=None, **kwargs) -> None:
    """Show a sentence that may hold user text (names, units): escaped, never rendered.

    `kind` is the Streamlit call: "markdown", "caption", "success", "info", "warning", "error".
    """
    body = md_escape(text)
    getattr(where or st, kind)(f"**{body}**" if bold else body, **kwargs)


def show_error(err: DataError) -> None:
    say("error", err.message, icon="⚠️")


def page_header(title: str, what: str) -> None:
    ensure_navigation()
    st.title(title)
    st.caption(what)


def ensure_navigation() -> None:
    """Send a page that Streamlit ran on its own back through app.py's navigation.

    A folder named pages/ beside app.py makes Streamlit start in its legacy multipage mode,
    which it leaves only once some session has run st.navigation. Until then, the first
    visitor of a shared deep link (/costs?...) gets this page run directly: no page config,
    the file list as navigation. Clearing that flag and rerunning runs app.py, whose
    navigation resolves the same URL to the same page with its settings intact. Only a
    session's first run is redirected: a later run (a button click) must not be replayed.
    """
    from streamlit.runtime.pages_manager import PagesManager

    first_run = "_navigation_checked" not in st.session_state
    st.session_state["_navigation_checked"] = True
    if first_run and PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
