"""What every page shares: the data choice, per-session memo of sweeps, price inputs.

Pages stay thin: they read widgets, call costlib through `memo`, and hand figures to
`st.plotly_chart`. Nothing here computes a formula.

Where data lives. A parsed table is built once per session, keyed by the file's sha256
(never its name), and kept in this session's state (two at most), so a rerun (a slider
move) neither re-parses nor unpickles a copy. Sweeps and other per-dataset results go through `memo`: a
small per-session LRU keyed by the dataset's identity and plain hashable arguments. Nothing
user-specific sits in module globals or in `st.cache_resource`.
"""

from __future__ import annotations

import gc
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from costlib import loading
from costlib.binary.decision import SINGLE_GROUP, sweep_model
from costlib.core import settings
from costlib.core.dataset import ColumnMapping, Dataset
from costlib.core.errors import DataError
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present.amounts import money
from costlib.present.escaping import label, md_escape

# Streamlit collects garbage in full after every script run (runner.postScriptGC), and a full
# collection walks every object the imports made: about 170,000 here, 90 to 110 ms, more than
# everything else a price move costs on the sample (benchmarks/README.md, "Slider latency").
# Those objects live as long as the server, so they leave the collector's walk once, when this
# module is first imported; whatever the sessions make is still collected after every run.
if gc.get_freeze_count() == 0:  # once per process, even if the module is imported again
    gc.freeze()

UPLOAD = "upload"
DEFAULT_SAMPLE = "compas"
MEMO_SIZE = 48
DATA_PAGE = "views/data.py"
COSTS_PAGE = "views/costs.py"
PRICES_PAGE = "views/prices.py"


# ---------------------------------------------------------------------------------------
# Loading (cached by content)


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


def data_choice_label(key: str) -> str:
    # Labels are fixed strings: a label that changed with the upload would make a new widget.
    return "Your uploaded file" if key == UPLOAD else SAMPLES[key].title


def remembered(key: str, default, parse=str, valid=None, bound: settings.Bound | None = None):
    """Seed the widget `key` with this session's value of a setting that pages share.

    Streamlit drops a widget's value when the page that drew it stops rendering, and a
    widget on another page starts from its default. The value therefore lives under a
    plain key (``_keep_<key>``), first read from the URL (?key=...), and the widget is
    re-seeded from it on every run; `keep` (the widget's on_change) stores a change.
    A value from the URL goes through the same `bound` as the widget: out of range, it
    falls back to the default and the page says so (`setting_notes`).
    Call `mirror(key)` after the widget to write the value back to the URL.
    """
    ensure_setting(key, default, parse, valid, bound)
    st.session_state[key] = st.session_state[f"_keep_{key}"]


def _seed(widget: str, value, signature=None) -> None:
    """Give the widget `widget` this value when it differs, or when the widget is drawn with
    other options or labels than last time (`signature`): Streamlit then makes a new widget,
    which would start from its default. Writing a widget's state otherwise is avoided, since
    it sends the value back to the browser and would undo key presses made meanwhile."""
    sig_key = f"_sig_{widget}"
    changed = signature is not None and st.session_state.get(sig_key) != signature
    if changed or widget not in st.session_state or st.session_state[widget] != value:
        st.session_state[widget] = value
    if signature is not None:
        st.session_state[sig_key] = signature


def ensure_setting(key: str, default, parse=str, valid=None, bound: settings.Bound | None = None) -> None:
    """Read a remembered setting from the URL once per session (see `remembered`), no widget."""
    store = f"_keep_{key}"
    if store not in st.session_state:
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            if bound is not None:
                value, note = settings.check(bound, raw, default=default)
                if note:
                    st.session_state.setdefault("_setting_notes", []).append(f"The link's {key}: {note}")
            else:
                try:
                    value = parse(raw)
                    ok = valid is None or valid(value)
                except ValueError:
                    ok = False
                if not ok:
                    value = default
                    shown = raw if len(raw) <= 40 else raw[:40] + "…"
                    st.session_state.setdefault("_setting_notes", []).append(
                        f"The link's {key} “{shown}” is not one this page can use, so {default!s} is used instead."
                    )
        st.session_state[store] = value if valid is None or valid(value) else default


def setting(key: str, default=None):
    """The current value of a remembered setting (without drawing its widget)."""
    return st.session_state.get(f"_keep_{key}", default)


def setting_notes() -> None:
    """Say once which settings from the link were out of range (and what was used instead)."""
    for note in st.session_state.pop("_setting_notes", []):
        say("warning", note)


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


NEEDS = {  # role -> (what it is, in words; the sample that has it)
    "binary": ("a binary label and at least one score column", "compas"),
    "probabilities": (
        "a binary label and scores that are probabilities (raw scores can be mapped as logits on the Data page)",
        "screening",
    ),
    "value": (
        "a binary label and scores that are probabilities (raw scores can be mapped as logits on the Data page)",
        "screening",
    ),
    "multiclass": ("multiclass probability columns", "tickets"),
    "delta": ("an instance cost (delta, votes, rating or a measurement)", "offensive"),
}


def current_dataset(*, needs: str | None = None) -> Dataset | None:
    """The dataset chosen in the sidebar (mirrored in the URL as ?data=...).

    A fresh session given ?data=upload has no file yet: the page says so and returns None.
    `needs` names a role ("binary", "probabilities", "multiclass", "delta") the page
    requires. A dataset without it does not leave the page empty: the page shows its charts
    on a built-in sample that has the role, says so above them, and offers one click to make
    that sample the data of the whole app.
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
            st.page_link(DATA_PAGE, label="Go to the Data page", icon=":material/folder_open:")
            return None
    else:
        ds = load_sample(choice)
        st.sidebar.caption(SAMPLES[choice].description)
    if needs and not has_role(ds, needs):
        hint, sample = NEEDS[needs]
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        if ds.counts_only:
            sentence = (
                f"“{ds.name}” holds counts, not rows, and this page needs each case's score and label, so the "
                f"charts below use the built-in sample “{SAMPLES[sample].title}”."
            )
        else:
            sentence = (
                f"“{ds.name}” lacks {missing(ds, needs) or hint}, which this page needs, so the charts below use the "
                f"built-in sample “{SAMPLES[sample].title}”."
            )
        say("info", sentence, where=c1)
        c2.button(
            "Use this sample everywhere",
            key="fallback_switch",
            on_click=choose_data,
            args=(sample,),
            help=f"Makes “{SAMPLES[sample].title}” the data of every page.",
            width="stretch",
        )
        return load_sample(sample)
    return ds


def missing(ds: Dataset, role: str) -> str:
    """What exactly `ds` lacks for `role`, in words ("" when the general hint says it best)."""
    if role not in ("binary", "probabilities", "value") or ds.counts_only:
        return ""
    parts = []
    if ds.y is None:
        parts.append("a label column with two values")
    if not ds.scores:
        parts.append("a score column")
    if not parts and not ds.probabilities and role != "binary":
        parts.append("scores that are probabilities (they were read as raw scores)")
    return " and ".join(parts)


# the pages a dataset can feed, with the role each needs
PAGE_ROLES = (
    ("Costs & groups", "binary"),
    ("Find my prices", "binary"),
    ("Value", "value"),
    ("Cost matrix", "multiclass"),
    ("Instance costs", "delta"),
    ("Calibration", "probabilities"),
)


def loaded_sentence(ds: Dataset, shown_name: str) -> tuple[str, str]:
    """(kind, sentence) after an upload: which pages now use it, and what the others need."""
    usable = [page for page, role in PAGE_ROLES if has_role(ds, role)]
    others = [page for page, role in PAGE_ROLES if not has_role(ds, role)]
    if not usable:
        need = missing(ds, "binary") or NEEDS["binary"][0]
        return "warning", (
            f"Loaded “{shown_name}”, but no page can use it yet: it lacks {need}. Map the columns again below; "
            "until then the pages draw on built-in samples."
        )
    text = f"Loaded “{shown_name}”. {_listed(usable)} now use it."
    if others:
        text += f" {_listed(others)} need columns it does not have, and draw on built-in samples."
    return "success", text


def _listed(pages: list[str]) -> str:
    return pages[0] if len(pages) == 1 else ", ".join(pages[:-1]) + " and " + pages[-1]


def has_role(ds: Dataset, role: str) -> bool:
    if ds.counts_only:  # sweeps only: what can be read from counts per distinct score
        return role == "binary" or (role == "value" and ds.probabilities)
    if role == "value":
        return has_role(ds, "probabilities")
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
    """Row mask for `purpose` ("fit", "judge", "calibrate"): see `Dataset.purpose_rows`."""
    return ds.purpose_rows(purpose)


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


def unit_and_volume(page: str = "") -> tuple[str, float]:
    """The money unit ("$", "minutes") and monthly volume, mirrored in the URL, bounded."""
    remembered("unit", "$", valid=lambda v: settings.check_unit(v)[1] is None)
    remembered("volume", 10_000, bound=settings.VOLUME)
    with st.sidebar:
        unit = st.text_input(
            "Unit of your prices",
            key="unit",
            on_change=keep,
            args=("unit",),
            max_chars=settings.UNIT_MAX_CHARS,
            help="What one price unit is: $, €, minutes, hours…",
        )
        volume = st.number_input(
            "Cases per month",
            min_value=0,
            max_value=int(settings.VOLUME_MAX),
            step=1_000,
            key="volume",
            on_change=keep,
            args=("volume",),
            help="Used to show cost and value per month.",
        )
    mirror("unit")
    mirror("volume")
    unit, _ = settings.check_unit(unit)
    return unit, float(volume)


def model_picker(ds: Dataset, label: str = "Model (score column)", key: str = "model") -> str:
    models = list(ds.scores)
    if len(models) == 1:
        return models[0]
    return st.selectbox(label, models, key=key, bind="query-params")


def show_table(
    df: pd.DataFrame,
    name: str,
    *,
    key: str,
    column_config: dict | None = None,
    export: pd.DataFrame | None = None,
) -> None:
    """A table with a CSV download: `export` (the same table as plain numbers) when given, so a
    spreadsheet gets numbers rather than "$1.00" text. User text is neutralised against formula
    injection in both exports: this button's (`safe_csv`) and the table toolbar's own
    "Download as CSV", which writes what the table displays (`safe_cells`)."""
    st.dataframe(loading.safe_cells(df), hide_index=True, column_config=column_config, width="stretch")
    st.download_button(
        "Download this table (CSV)",
        data=loading.safe_csv(df if export is None else export),
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


def show_verdict(verdict, asides_title: str = "Why not another rule?") -> None:
    """A page's one answer (`words.Verdict`): the headline in its colour, the details as
    captions, and the other rules' story folded away under `asides_title`."""
    say(verdict.kind, verdict.headline)
    for line in verdict.details:
        say("caption", line)
    if verdict.asides:
        with st.expander(asides_title):
            for line in verdict.asides:
                say("caption", line)


def show_error(err: DataError) -> None:
    say("error", err.message, icon=":material/warning:")


def page_header(title: str, what: str) -> None:
    st.title(title)
    st.caption(what)


# ---------------------------------------------------------------------------------------
# The price book: c_fp and c_fn (per group when asked), set once, read by every page


def _grid() -> list[float]:
    """Slider stops from 0.01 to 10,000: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 times each power of 10."""
    stops = [0.0]
    for e in range(-2, 4):
        stops += [round(m * 10.0**e, 6) for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5)]
    return stops + [10_000.0]


PRICE_STOPS = _grid()  # spans 1:1,000,000 to 1,000,000:1 in ratio


def _store(widget: str, key: str) -> None:
    st.session_state[f"_keep_{key}"] = float(st.session_state[widget])


def _remember_price(key: str, default: float) -> float:
    ensure_setting(key, default, bound=settings.PRICE)
    return float(st.session_state[f"_keep_{key}"])


def _price_slider(key: str, label: str, unit: str, where, help: str | None = None) -> float:
    """A price on a log-like slider (exact values typed elsewhere are added to its stops)."""
    value = float(st.session_state[f"_keep_{key}"])
    options = PRICE_STOPS if value in PRICE_STOPS else sorted({*PRICE_STOPS, value})
    _seed(f"s_{key}", value, signature=(unit, len(options), label))
    where.select_slider(
        label,
        options=options,
        key=f"s_{key}",
        format_func=lambda x: money(x, unit),
        on_change=_store,
        args=(f"s_{key}", key),
        help=help,
    )
    st.query_params[key] = f"{value:g}"
    return value


def _price_box(key: str, label: str, where) -> None:
    _seed(f"n_{key}", float(st.session_state[f"_keep_{key}"]))
    where.number_input(
        label,
        min_value=0.0,
        max_value=settings.PRICE_MAX,
        step=0.5,
        format="%g",
        key=f"n_{key}",
        on_change=_store,
        args=(f"n_{key}", key),
    )


def group_label(name) -> str:
    """A group's name where a widget label shows it (see `words.label`)."""
    return label(name)


def price_book(names: list, unit: str) -> dict:
    """Draw the price sliders and return {group: (c_fp, c_fn)}.

    Two sliders (a false positive, a false negative), an exact-entry popover, and, with the
    toggle on, one pair per group. Values are remembered across pages and mirrored in the URL
    (?c_fp=1&c_fn=3&per_group=true&c_fp_0=...); a value from the URL is bounded like the slider.
    """
    c_fp = _remember_price("c_fp", 1.0)
    c_fn = _remember_price("c_fn", 3.0)
    ensure_setting("per_group", False, parse=lambda v: v.lower() == "true")
    per_group = bool(st.session_state["_keep_per_group"]) and len(names) > 1
    if per_group:
        for i in range(len(names)):
            _remember_price(f"c_fp_{i}", c_fp)
            _remember_price(f"c_fn_{i}", c_fn)
    c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
    help_fp = "What it costs to flag a case that turns out negative (a false alarm)."
    help_fn = "What it costs to miss a case that turns out positive."
    if not per_group:
        c_fp = _price_slider("c_fp", "A false positive costs", unit, c1, help_fp)
        c_fn = _price_slider("c_fn", "A false negative costs", unit, c2, help_fn)
    with c3.popover("Type exact prices", width="stretch"):
        _price_box("c_fp", "False positive", st)
        _price_box("c_fn", "False negative", st)
        for i, g in enumerate(names if per_group else []):
            _price_box(f"c_fp_{i}", f"{group_label(g)}: false positive", st)
            _price_box(f"c_fn_{i}", f"{group_label(g)}: false negative", st)
    _seed("per_group", per_group)
    st.toggle(
        "Different prices per group",
        key="per_group",
        on_change=keep,
        args=("per_group",),
        disabled=len(names) < 2,
        help="Give each group its own pair of prices.",
    )
    st.query_params["per_group"] = str(per_group).lower()
    costs = {g: (c_fp, c_fn) for g in names}
    if per_group:
        for i, g in enumerate(names):
            a, b = st.columns(2)
            costs[g] = (
                _price_slider(f"c_fp_{i}", f"{group_label(g)}: a false positive costs", unit, a),
                _price_slider(f"c_fn_{i}", f"{group_label(g)}: a false negative costs", unit, b),
            )
    return costs


def price_caption(costs: dict, unit: str) -> str:
    """'For your prices: a false positive costs $1.00 and a false negative $3.00.' (or the prices per group)."""
    pairs = set(costs.values())
    if len(pairs) == 1:
        c_fp, c_fn = next(iter(pairs))
        return f"For your prices: a false positive costs {money(c_fp, unit)} and a false negative {money(c_fn, unit)}."
    return (
        "For your prices, which differ by group (false positive / false negative): "
        + "; ".join(f"{group_label(g)}: {money(a, unit)} / {money(b, unit)}" for g, (a, b) in list(costs.items())[:4])
        + ("…" if len(costs) > 4 else "")
        + "."
    )


def stored_costs(names: list) -> dict:
    """The price book's {group: (c_fp, c_fn)} without drawing widgets (for pages that only read it)."""
    c_fp = _remember_price("c_fp", 1.0)
    c_fn = _remember_price("c_fn", 3.0)
    ensure_setting("per_group", False, parse=lambda v: v.lower() == "true")
    if not st.session_state["_keep_per_group"] or len(names) < 2:
        return {g: (c_fp, c_fn) for g in names}
    return {g: (_remember_price(f"c_fp_{i}", c_fp), _remember_price(f"c_fn_{i}", c_fn)) for i, g in enumerate(names)}


# ---------------------------------------------------------------------------------------
# Sweeps: sorted once per data set and model, priced on every move


def group_names(ds: Dataset) -> list:
    if ds.counts_only:
        return list(next(iter(ds.sweeps.values())).groups)
    if ds.groups is None:
        return [SINGLE_GROUP]
    return list(memo("group_names", ds, (), lambda: tuple(sorted(pd.unique(ds.groups).tolist(), key=str))))


def model_sweeps(ds: Dataset) -> dict:
    """{model: decision.ModelSweeps} for every score column, fitted on train, judged on test."""
    if ds.counts_only:
        return dict(ds.sweeps)
    fit, judge = rows(ds, "fit"), rows(ds, "judge")
    return {
        m: memo(
            "model_sweeps",
            ds,
            (m,),
            lambda m=m: sweep_model(
                ds.y,
                ds.scores[m],
                ds.groups,
                fit=fit,
                judge=judge,
                sample_weight=ds.weight,
                name=m,
                probabilities=ds.probabilities,
            ),
        )
        for m in ds.scores
    }


def setup(title: str, what: str, *, needs: str | None = None):
    """What every page starts with: header, data choice (with the fallback sample), unit and
    volume, and any out-of-range setting from the link. Stops the page without data."""
    page_header(title, what)
    ds = current_dataset(needs=needs)
    if ds is None:
        st.stop()
    unit, volume = unit_and_volume()
    stored_costs(group_names(ds))  # reads the price book from the link, so its notes show here
    setting_notes()
    return ds, unit, volume
