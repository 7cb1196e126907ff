"""What every page starts with: its header, the data, the unit and volume, the link's notes."""

from __future__ import annotations

import contextlib
import functools
import threading

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from costlib.answers.roles import unweighted_note
from costlib.core import link, settings
from costlib.loading.ledger import settle
from costlib.present import labels as t
from views._ui.data import current_dataset, group_names
from views._ui.display import page_header, say
from views._ui.prices import carry_prices, read_costs
from views._ui.state import ensure_setting, in_link, keep, link_read, mirror, peek, remembered, setting_notes


def unit_and_volume() -> tuple[str, float]:
    """The money unit ("$", "minutes") and monthly volume, mirrored in the URL, bounded."""
    unit_key = remembered("unit", link.Settings.unit)
    volume_key = remembered("volume", link.Settings.volume)
    with st.sidebar:
        unit = st.text_input(
            t.UNIT_LABEL,
            key=unit_key,
            on_change=keep,
            args=("unit",),
            max_chars=settings.UNIT_MAX_CHARS,
            help=t.UNIT_HELP,
        )
        volume = st.number_input(
            t.VOLUME_LABEL,
            min_value=0,
            max_value=int(settings.VOLUME_MAX),
            step=1_000,
            key=volume_key,
            on_change=keep,
            args=("volume",),
            help=t.VOLUME_HELP,
        )
    mirror("unit")
    mirror("volume")
    unit, _ = settings.check_unit(unit)
    return unit, float(volume)


HANDOFF = "_handoff"  # a sentence a page leaves for the page it opens (what it brought there)
# Watch's refit hand-over: (fingerprint of the data it hands over, its shipped cutoffs {group: cutoff},
# its sentence); Costs & groups marks those cutoffs and says the sentence while it shows that data
REFIT_SHIPPED = "_refit_shipped"


def refit_handed(ds) -> tuple[dict, str] | None:
    """(shipped cutoffs, sentence) of Watch's refit hand-over when `ds` is the data it handed
    over (the same fingerprint), else None."""
    handed = st.session_state.get(REFIT_SHIPPED)
    if handed is None or handed[0] != ds.fingerprint:
        return None
    return handed[1], handed[2]


#: the settings of one page that another page's answer reads too (Calibration: Value's worth of a right
#: answer and its k, Costs & groups' resamples and review limit; Find my prices: the resamples)
SHARED = ("worth", "k", "resamples", "review_limit_on", "review_limit")


def read_shared() -> None:
    """Read the `SHARED` settings from the link once, whichever page opens first: a page reads a
    setting of another page's widget, and a fresh browser opening its copied link must read the
    value the link carries, not that setting's default (`state.setting` writes what a page reads
    into its link; the page that draws the widget bounds it alike)."""
    for name in SHARED:
        ensure_setting(name, getattr(link.Settings, name))


def carry_link() -> None:
    """What a page that does not call `setup` (the Data page, where a shared link lands) does with
    the settings every page's answer reads: the prices (`carry_prices`), the unit and volume and
    the `SHARED` settings the link holds are read into the session as `setup` reads them, and
    those the session holds are kept in the page's address (a `SHARED` one only when set away
    from its default, which a link without it gives alike). A move within the app drops the
    address's query: a link's ?unit=€ or ?c_fp=5 that this page did not read was lost."""
    carry_prices()
    for name in ("unit", "volume", *SHARED):
        default = getattr(link.Settings, name)
        if in_link(name):
            ensure_setting(name, default)
        if name not in SHARED or peek(name, default) != default:
            link_read(name)


def setup(title: str, what: str, *, needs: str | None = None):
    """What every page starts with: header, what the page before brought here, data choice
    (with the fallback sample), unit and volume, and any out-of-range setting from the link.
    Stops the page without data."""
    settle()  # what the last runs imported or kept leaves the collector's walk after this run
    page_header(title, what)
    if HANDOFF in st.session_state:
        say("info", st.session_state.pop(HANDOFF))
    ds = current_dataset(needs=needs)
    if ds is None:
        st.stop()
    if (note := unweighted_note(ds, needs)) is not None:
        say("info", note)
    unit, volume = unit_and_volume()
    read_costs(group_names(ds))  # reads the price book from the link, so its notes show here
    read_shared()
    setting_notes()
    return ds, unit, volume


_ONE_MOVE = threading.Lock()  # held by the one price move answering now (`one_move_at_a_time`)
MOVE_WAIT_S = 0.5  # the longest a move waits for the one before it; then it runs beside it


@contextlib.contextmanager
def one_move_at_a_time(alone: bool, wait_s: float = MOVE_WAIT_S):
    """Price moves (a fragment's rerun alone, `alone`) of every session answer one at a time (the
    lock wakes one waiting move, not strictly the first to arrive), each waiting at most `wait_s`;
    a page's whole run does not wait.

    A move is Python holding the interpreter's lock most of its time: moves that run together
    share one core and all finish late, each in about the time of all of them (twenty reviewers
    at a reviewer's pace, 200,000-row uploads: runs of 1.2 to 1.8 s came in bursts, the server
    at 1.2 cores, nothing else running: `benchmarks/load_test.py`'s machine record). Taken in
    turn, the first finishes in its own time and only the last waits for all (p95 254 and 438 ms
    against 519 and 444 in two pairs of runs; benchmarks/README.md, "The machine's record during
    the runs, and one price move at a time"). The wait is
    bounded so that a move that happens to be long (a first answer at a new setting on a large
    file) holds the others back by `wait_s` at most."""
    taken = alone and _ONE_MOVE.acquire(timeout=wait_s)
    try:
        yield taken
    finally:
        if taken:
            _ONE_MOVE.release()


def _alone() -> bool:
    """Whether this run is a fragment's rerun alone (a widget in it moved), not a page's run."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "fragment_ids_this_run", None))


def live(part):
    """`st.fragment`: the part of a page that reruns alone when one of its widgets moves. Each of
    its runs starts as a page's does (`costlib.loading.ledger.settle`), so that the collection
    Streamlit makes after it does not walk what runs before imported or kept; its reruns alone
    take their turn with every session's (`one_move_at_a_time`)."""

    @functools.wraps(part)
    def run(*args, **kwargs):
        with one_move_at_a_time(_alone()):
            settle()
            return part(*args, **kwargs)

    return st.fragment(run)
