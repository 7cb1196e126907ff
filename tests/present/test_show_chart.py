"""`views._ui.display.show_chart`: a page's chart, drawn as ``st.plotly_chart`` draws it, with its
text alternative under it on request (issue 38, item 3), run headless in AppTest."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from costlib.present.chart_text import chart_text
from tests.present.test_figures import HOSTILE
from tests.views.apptest_support import unescape


def _script():
    import numpy as np
    import streamlit as st

    from costlib.binary import decision
    from costlib.present import figures
    from tests.present.test_figures import HOSTILE
    from views._ui.display import show_chart

    rng = np.random.default_rng(3)
    n = 300
    g = np.where(rng.random(n) < 0.5, HOSTILE, "**plain** :red[x]")
    s = rng.random(n)
    y = (rng.random(n) < s).astype(int)
    ms = decision.sweep_model(y, s, g)
    rec = decision.recommend(ms, (1, 2), n_resamples=10)
    fig = figures.cost_curve_figure(decision.cost_curves(ms, rec.prices), figures.markers_frame(rec), title=HOSTILE)
    st.session_state["figure"] = fig
    show_chart(fig, key="cost_chart", config={"displaylogo": False})
    left, _ = st.columns(2)
    show_chart(
        figures.heatmap_figure([[1, 2], [3, 4]], ["no", "yes"], title="Counts", colorbar="cases"), key="m", where=left
    )


def test_a_chart_is_drawn_as_plotly_chart_draws_it_with_its_words_and_numbers_folded_under_it():
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    fig = at.session_state["figure"]
    alt = chart_text(fig)
    charts = at.get("plotly_chart")
    assert [c.proto.id != "" for c in charts] == [True, True]
    # the same spec and arguments as st.plotly_chart(fig, key=..., config=...) would send
    assert json.loads(charts[0].proto.spec)["data"][0]["name"] == fig.data[0].name
    assert json.loads(charts[0].proto.config)["displaylogo"] is False
    # an accessible name for the chart: its title as typed, and where its text is
    assert charts[0].proto.alt.startswith(HOSTILE + ": a chart;")
    # folded under it: the sentence, escaped (shown as typed, never as Markdown or HTML) ...
    expanders = at.expander
    assert len(expanders) == 2 and unescape(expanders[0].label).endswith(HOSTILE)
    sentence = expanders[0].markdown[0].value
    assert unescape(sentence) == alt.sentence and "\\<a href" in sentence and "\\*\\*plain\\*\\*" in sentence
    # ... and the numbers, as data (a grid, cells never rendered)
    table = expanders[0].dataframe[0].value
    assert list(table.columns) == list(alt.table.columns) and len(table) == len(alt.table)
    assert set(table["series"]) >= {f"group {HOSTILE}", "group **plain** :red[x]"}
    # drawn where it is asked: in a column
    assert expanders[1].dataframe[0].value["cases"].tolist() == [1.0, 2.0, 3.0, 4.0]
