"""How a page shows things: sentences (escaped), tables with a CSV download, verdicts, errors."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from costlib import loading
from costlib.core.errors import DataError
from costlib.core.escaping import markdown_cells, md_escape

ROW_PX = 35  # the height of a table row (and of its header) in Streamlit's grid
TABLE_ROWS = 30


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
    # tall enough for every row up to TABLE_ROWS (Streamlit's default shows about ten and scrolls)
    height = ROW_PX * (min(len(df), TABLE_ROWS) + 1) + 3 if len(df) > 10 else "auto"
    st.dataframe(loading.safe_cells(df), hide_index=True, column_config=column_config, width="stretch", height=height)
    _csv_download(df, name, key=key, export=export)


def show_live_table(df: pd.DataFrame, name: str, *, key: str, export: pd.DataFrame | None = None) -> None:
    """A small table in a part of a page that reruns with a slider, with its CSV download: a
    plain table (``st.table``, its cells `markdown_cells`: escaped text, formatted numbers)
    rather than the interactive grid of `show_table`, whose canvas and accessibility rows keep
    redrawing for about 100 ms after each move (the Instance page's cutoff moved in 1.61x the
    yardstick's time with the grid and 0.91x without it, benchmarks/README.md)."""
    st.table(markdown_cells(df), hide_index=True)
    _csv_download(df, name, key=key, export=export)


def _csv_download(df: pd.DataFrame, name: str, *, key: str, export: pd.DataFrame | None) -> None:
    """A table's CSV download: `export` when given, else the table, neutralised (`safe_csv`)."""
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
    """A page's one answer (`words.Verdict`): the headline in its colour, the details as one
    caption of paragraphs (a page redraws its answer on every slider move, and every element
    drawn costs the browser about as much as any other), and the other rules' story folded
    away under `asides_title`."""
    say(verdict.kind, verdict.headline)
    if verdict.details:
        st.caption("\n\n".join(md_escape(line) for line in verdict.details))
    if verdict.asides:
        with st.expander(asides_title):
            for line in verdict.asides:
                say("caption", line)


def show_metrics(metrics: list[dict]) -> None:
    """A row of `st.metric`s (each a dict of its arguments), side by side in one horizontal
    container: columns would add a block per metric to what every slider move redraws."""
    with st.container(horizontal=True, gap="medium"):
        for metric in metrics:
            st.metric(**metric)


def show_error(err: DataError) -> None:
    say("error", err.message, icon=":material/warning:")


def page_header(title: str, what: str) -> None:
    st.title(title)
    st.caption(what)
