"""What the headless AppTest tests of the pages share: the app opened on a page (a sample and
link parameters in its address), what a page shows as a reader sees it (its Markdown escapes
and word joiners removed), its charts and metrics, and a file uploaded as a user uploads it."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib.binary import decision as D
from costlib.loading.samples import SAMPLES
from costlib.present import words

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SAMPLE_DIR = ROOT / "costlib" / "samples"
USE_COLUMNS = "Use these columns"  # the Data page's button that maps an uploaded file


def open_app(sample: str | None, page: str | None = None, *, timeout: float = 120, **params) -> AppTest:
    """The app run on `sample` (None: no ``data`` in the link) with the link parameters `params`,
    switched to `page` (a path such as ``views/costs.py``); no exception on the way."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    if sample is not None:
        at.query_params["data"] = sample
    for key, raw in params.items():
        at.query_params[key] = str(raw)
    at.run()
    if page:
        at.switch_page(page).run()
    assert_no_exception(at)
    return at


def assert_no_exception(at: AppTest) -> None:
    messages = [e.message[:2000] for e in at.exception]
    assert not messages, messages


def unescape(markdown: str) -> str:
    """What a reader sees of Markdown source whose user text was backslash-escaped (the
    invisible word joiners that keep links from being auto-linked read as nothing)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace(words.WORD_JOINER, "")


def texts(at: AppTest) -> str:
    """Every sentence the page shows (Markdown, captions and alert boxes), unescaped."""
    parts = [x.value for x in (*at.markdown, *at.success, *at.error, *at.info, *at.warning, *at.caption)]
    return unescape("\n".join(parts))


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def chart_keys(at: AppTest) -> set[str]:
    return {c.key for c in at.get("plotly_chart")}


def figure(at: AppTest, i: int) -> SimpleNamespace:
    """Chart i as a Plotly figure, its typed arrays ({"dtype", "bdata"}) decoded to numpy."""

    def decode(x):
        if isinstance(x, dict) and "bdata" in x:
            return np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
        return x

    spec = json.loads(at.get("plotly_chart")[i].proto.spec)
    traces = [SimpleNamespace(**{k: decode(v) for k, v in t.items()}) for t in spec["data"]]
    return SimpleNamespace(data=traces, layout=spec["layout"])


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}: {[m.label for m in at.metric]}")


def mk(at: AppTest, role: str) -> str:
    """The mapping widget's key for the file currently uploaded (see views/data.py)."""
    return f"map_{role}_{at.session_state['_mapping_for'][:12]}"


def upload(at: AppTest, name: str, data: bytes) -> None:
    """Upload `data` as the CSV file `name` on the Data page, without using its columns yet."""
    at.file_uploader(key="uploader").upload(name, data, "text/csv").run()
    assert_no_exception(at)


def submit(at: AppTest) -> None:
    """Press the Data page's "Use these columns"."""
    [b for b in at.button if b.label == USE_COLUMNS][0].click().run()
    assert_no_exception(at)


def load_file(at: AppTest, name: str, data: bytes, mime: str = "text/csv") -> None:
    """Upload `data` as the file `name` on the Data page and use the columns it guesses."""
    at.file_uploader(key="uploader").upload(name, data, mime).run()
    buttons = [b for b in at.button if b.label == USE_COLUMNS]
    if buttons:
        buttons[0].click().run()
    assert_no_exception(at)


def sample_frame(key: str) -> pd.DataFrame:
    return pd.read_csv(SAMPLE_DIR / SAMPLES[key].filename)


def screening_value(k: float):
    """(the screening sample, what the Value page recommends on it at `k`): its two models'
    thresholds fitted on the train rows and judged on the test rows, a right answer worth 1."""
    from costlib import value

    df = sample_frame("screening")
    tr, te = df[df["split"] == "train"], df[df["split"] == "test"]
    models = ("score_calibrated", "score_overconfident")
    rec = value.recommend_value(
        {m: value.value_sweep(te["label"], te[m]) for m in models},
        k=k,
        fit_sweeps={m: value.value_sweep(tr["label"], tr[m]) for m in models},
    )
    return df, rec


def compas_model(split: bool = True):
    """(the COMPAS sample, its model's sweeps): what the Costs page judges on that sample."""
    df = sample_frame("compas")
    fit = (df["split"] == "train").to_numpy() if split else None
    judge = (df["split"] == "test").to_numpy() if split else None
    return df, D.sweep_model(df["two_year_recid"], df["p_recid"], df["race"], fit=fit, judge=judge, name="p_recid")


def verdict_box(at: AppTest) -> str:
    """The one answer box on a page (the alert that states a cost per case), unescaped."""
    boxes = [x.value for x in (*at.success, *at.warning, *at.error) if "per case" in unescape(x.value)]
    assert len(boxes) == 1, boxes  # exactly one answer on the page
    return unescape(boxes[0])


def keep_downloads(monkeypatch) -> dict:
    """{file id: (file name, bytes)} of every file the app hands the browser (download buttons),
    as AppTest keeps them in its in-memory media store."""
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    kept, load = {}, MemoryMediaFileStorage.load_and_get_id

    def keep(self, data, mimetype, kind, filename=None):
        file_id = load(self, data, mimetype, kind, filename)
        kept[file_id] = (filename, self.get_file(file_id).content)
        return file_id

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    return kept


def downloads(at: AppTest, kept: dict) -> dict:
    """{download button's key: (file name, bytes)} of the buttons on the page (`keep_downloads`)."""
    return {
        b.proto.id.rsplit("-", 1)[-1]: kept[b.proto.url.rsplit("/", 1)[-1].split(".")[0]]
        for b in at.get("download_button")
        if b.proto.url
    }
