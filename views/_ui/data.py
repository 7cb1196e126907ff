"""Which dataset the pages use: the sidebar's choice (mirrored in the URL as ?data=...), the
upload, the fallback sample of a page whose needs the data lacks, and its groups and sweeps."""

from __future__ import annotations

import streamlit as st

from costlib.answers import roles
from costlib.answers.audit import dataset_models
from costlib.answers.roles import has_role
from costlib.core.dataset import Dataset
from costlib.core.escaping import md_escape, option_names
from costlib.loading.budget import table_budget
from costlib.loading.ledger import LEDGER
from costlib.loading.messages import WHAT_OPENING
from costlib.loading.samples import SAMPLES
from costlib.present import labels
from costlib.present.labels import DATA_WORDS, NEEDS, fallback_sentence
from costlib.present.words import SampleInstead
from costlib.scale.engines import duckdb_memory_bytes
from views._ui.display import ANSWERED_FOR, say
from views._ui.loading import dataset_weight, load_sample
from views._ui.memo import forget, memo_of, share
from views._ui.memory import account
from views._ui.state import ensure_setting, keep, mirror, remembered, set_setting, setting, setting_notes

UPLOAD = "upload"
DEFAULT_SAMPLE = "compas"
#: what a refused ?data=... says is used instead: the sample by its title, not its key "compas" (review 72)
DEFAULT_WORDS = labels.sample_words(SAMPLES[DEFAULT_SAMPLE].title)
DATA_PAGE = "views/data.py"
COSTS_PAGE = "views/costs.py"
PRICES_PAGE = "views/prices.py"
OPENED = ("upload", "opened")  # the ledger key of an upload made outside the prepared store


def data_choice_label(key: str) -> str:
    # Labels are fixed strings: a label that changed with the upload would make a new widget.
    return DATA_WORDS["upload"] if key == UPLOAD else SAMPLES[key].title


def choose_data(key: str) -> None:
    """Make `key` (a sample key or UPLOAD) the data every page uses: chosen, so a sample in use is
    no longer one the pages fell back on after a refused upload (`note_refused`)."""
    set_setting("data", key)
    st.session_state.pop(REFUSED, None)


def _data_chosen(key: str) -> None:
    """The sidebar's data box moved: kept across pages (`keep`), and chosen (`choose_data`'s note):
    a user who picks a sample after a refused upload is not told on every page it is not their data."""
    keep(key)
    st.session_state.pop(REFUSED, None)


def replace_upload(ds: Dataset, *, opened: bool = False) -> None:
    """Make `ds` this session's uploaded data and forget what was memoised for the old one.

    `opened`: `ds` was made by `open_counted` (a folder file, an aggregate), not in the
    prepared store, so it is held on the ledger as the session's upload until replaced."""
    old = st.session_state.get("upload_dataset")
    st.session_state["upload_dataset"] = ds
    st.session_state.pop(REFUSED, None)  # the last upload was not refused
    if old is not None and old.fingerprint != ds.fingerprint:
        forget(old)
    if opened:
        LEDGER.hold(account(), OPENED, dataset_weight(ds))
    else:
        LEDGER.release(account(), OPENED)
    choose_data(UPLOAD)


def data_in_use() -> tuple[str | None, str | None]:
    """(the name of the upload in use, the title of the built-in sample in use): one of them, or
    neither (a link to an upload this session does not have)."""
    key = setting("data")
    if key == UPLOAD:
        ds = st.session_state.get("upload_dataset")
        return (ds.name if ds is not None else None), None
    return None, (SAMPLES[key].title if key in SAMPLES else None)


def open_counted(compute, *, name: str) -> Dataset:
    """`compute()` (a dataset read where it lies: a data-folder file or an aggregate), admitted
    on the server's memory ledger for its peak first: DuckDB's memory limit and the counts'
    budget. Refused with a sentence when the server has not that much free."""
    need = duckdb_memory_bytes() + table_budget()
    with LEDGER.reserved(account(), ("opening",), need, what=WHAT_OPENING.format(name=name)):
        return compute()


def upload_gone() -> bool:
    """Whether the data chosen is an upload this session does not have (a reload or a shared
    link starts a new session, which has no file yet: ?data=upload with nothing uploaded)."""
    ensure_setting("data", DEFAULT_SAMPLE, valid=lambda v: v in [*SAMPLES, UPLOAD], default_words=DEFAULT_WORDS)
    return setting("data") == UPLOAD and st.session_state.get("upload_dataset") is None


def current_dataset(*, needs: str | None = None, data_page: bool = False) -> Dataset | None:
    """The dataset chosen in the sidebar (the setting ``data``, mirrored in the URL).

    A fresh session given ?data=upload has no file yet: the page says so and returns None
    (the Data page itself, `data_page`, says it in its own words: `upload_gone`).
    `needs` names a role ("binary", "probabilities", "multiclass", "delta") the page
    requires. A dataset without it does not leave the page empty: the page shows its charts
    on a built-in sample that has the role (`labels.NEEDS`: one sample for every two-class
    page, so that they all answer for the same), says why and which page answers for the data
    chosen above them, and offers one click to make that sample the data of the whole app.
    A sample in use after the Data page refused the user's last upload (`note_refused`) is named in
    the page's answer too, as not their data: the page would otherwise show the sample's figures
    without a word, as if the file had loaded.
    """
    options = [*SAMPLES, UPLOAD]
    # Remembered across pages and mirrored in the URL by hand (a bound selectbox would put the
    # display label in the URL).
    data_key = remembered("data", DEFAULT_SAMPLE, valid=lambda v: v in options, default_words=DEFAULT_WORDS)
    choice = st.sidebar.selectbox(
        DATA_WORDS["data"],
        options,
        key=data_key,
        format_func=data_choice_label,
        on_change=_data_chosen,
        args=("data",),
        help=DATA_WORDS["data_help"],
    )
    mirror("data")
    if choice == UPLOAD:
        ds = st.session_state.get("upload_dataset")
        if ds is not None:
            st.sidebar.caption(md_escape(labels.your_data_sentence(ds.name, ds.n_rows)))
        else:
            st.sidebar.caption(DATA_WORDS["upload_gone"])
            if not data_page:
                st.info(DATA_WORDS["no_upload"])
                st.page_link(DATA_PAGE, label=DATA_WORDS["to_data_page"], icon="📂")
            st.session_state.pop(ANSWERED_FOR, None)
            return None
    else:
        ds = share(load_sample(choice))
        st.sidebar.caption(SAMPLES[choice].description)
    st.session_state.pop(FALLBACK, None)
    if choice != UPLOAD and not data_page and st.session_state.get(REFUSED):
        st.session_state[FALLBACK] = SAMPLES[choice].title  # the answer says "not your data"
    st.session_state[ANSWERED_FOR] = ds.name if choice == UPLOAD else SAMPLES[choice].title  # downloads' names
    if needs and not has_role(ds, needs):
        sample = NEEDS[needs][1]
        title = SAMPLES[sample].title  # the page's answer names it (`fallback_title`): not "your data" for a sample
        st.session_state[FALLBACK] = title if choice == UPLOAD else SampleInstead(title)
        st.session_state[ANSWERED_FOR] = title
        c1, c2 = st.columns([3, 1], vertical_alignment="center")
        say("info", fallback_sentence(ds, needs, SAMPLES[sample].title), where=c1)
        c2.button(
            DATA_WORDS["use_sample"],
            key="fallback_switch",
            on_click=choose_data,
            args=(sample,),
            help=labels.use_sample_help(SAMPLES[sample].title),
            width="stretch",
        )
        return share(load_sample(sample))
    return ds


FALLBACK = "_fallback_sample"  # the title of the sample this run's page answers for instead of the data chosen
REFUSED = "_refused_upload"  # the name of the last upload, when the Data page refused it


def fallback_title() -> str | None:
    """The title of the built-in sample this page answers for because the data chosen lacks what
    it needs, or because the user's upload was refused (`current_dataset`), else None: the page's
    verdict names it (`words.on_sample`; a `words.SampleInstead` when the data chosen was a sample
    that lacks what the page needs)."""
    return st.session_state.get(FALLBACK)


def note_refused(name: str) -> None:
    """Keep for the other pages that the Data page refused the upload `name`, until an upload is
    loaded (`replace_upload`): while a sample is in use, their answers say it is not the user's data."""
    st.session_state[REFUSED] = name


def group_names(ds: Dataset) -> list:
    """`answers.roles.group_names` of `ds`, sorted once per data set (the page's memo)."""
    return roles.group_names(ds, remember=memo_of(ds))


def model_sweeps(ds: Dataset) -> dict:
    """`answers.audit.dataset_models` of every score column, each sorted once per data set and
    model (the page's memo)."""
    return dataset_models(ds, remember=memo_of(ds))


def model_picker(ds: Dataset, label: str = DATA_WORDS["model"]) -> str:
    """The score column to show (no widget when there is one), the setting ``model``: kept in
    the link, read from it once (a link written by Streamlit's own binding names the model by
    its shown name: read too); a model this data lacks is refused with the page's sentence."""
    models = list(ds.scores)
    if len(models) == 1:
        return models[0]
    shown = option_names(models)
    by_shown = {shown(m): m for m in models}
    ensure_setting("model", models[0], valid=lambda v: v in models or v in by_shown)
    chosen = setting("model")
    if chosen not in models:  # a shown name from an old link, or the model of other data
        set_setting("model", by_shown.get(chosen, models[0]))
    key = remembered("model", models[0])
    choice = st.selectbox(label, models, key=key, format_func=shown, on_change=keep, args=("model",))
    mirror("model")
    setting_notes()
    return choice
