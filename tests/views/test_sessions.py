"""Many users: sessions never see each other's data, and a session's memory stays bounded."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from costlib.core.escaping import md_escape
from costlib.present import labels
from tests.views.apptest_support import APP, load_file


def upload(at: AppTest, name: str, frame: pd.DataFrame) -> None:
    load_file(at, name, frame.to_csv(index=False).encode())


def frame(seed: int, n: int = 300, same_name_for_everyone: str = "score") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = rng.random(n).round(4)
    return pd.DataFrame({"label": (rng.random(n) < p).astype(int), same_name_for_everyone: p})


def shown_rows(at: AppTest) -> int:
    for m in at.metric:
        if m.label == "Rows":
            return int(m.value.replace(",", ""))
    raise AssertionError("no Rows metric")


def test_two_sessions_uploading_same_named_files_each_see_only_their_own():
    a = AppTest.from_file(APP, default_timeout=60)
    b = AppTest.from_file(APP, default_timeout=60)
    a.run()
    b.run()
    # same file name, different content and size: a cache keyed by name would leak one into the other
    upload(a, "predictions.csv", frame(1, n=300))
    upload(b, "predictions.csv", frame(2, n=500))
    a.run()
    assert shown_rows(a) == 300
    assert shown_rows(b) == 500
    assert a.session_state["upload_dataset"].fingerprint != b.session_state["upload_dataset"].fingerprint
    # a third session that uploads nothing has no uploaded data at all
    c = AppTest.from_file(APP, default_timeout=60)
    c.query_params["data"] = "upload"
    c.run()
    assert "upload_dataset" not in c.session_state
    assert any(md_escape(labels.UPLOAD_GONE) in w.value for w in c.warning)  # the Data page: upload it again


def test_replacing_uploads_keeps_memory_bounded():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    for i in range(10):
        upload(at, f"file{i}.csv", frame(10 + i, n=200 + i))
        at.switch_page("views/costs.py").run()
        at.switch_page("views/value.py").run()
        at.switch_page("views/data.py").run()
    from views._ui.memo import MEMO_SIZE

    assert len(at.session_state["_memo"]) <= MEMO_SIZE
    assert len(at.session_state["_digests"]) == 1  # only the current upload's digest is kept
    # memoised results belong to the current upload or the samples, never to replaced files
    current = at.session_state["upload_dataset"].fingerprint
    samples = {ds.fingerprint for ds in at.session_state["_samples"].values()}
    for key in at.session_state["_memo"]:
        assert key[1][0] in samples | {current}
    assert shown_rows(at) == 209
    assert re.search(r"file9\\?\.csv", " ".join(c.value for c in at.sidebar.caption))


def test_the_full_collection_after_each_run_skips_what_the_imports_made():
    # Streamlit runs gc.collect(2) after every script run; without the freeze it walks every object
    # the imports made (~170,000), which cost more than the rest of a price move (benchmarks/README.md)
    import subprocess
    import sys

    code = (
        "import gc, views._ui as c, costlib.present.figures, costlib.present.report; gc.collect(2); "
        "print(gc.get_freeze_count(), len(gc.get_objects()))"
    )
    root = Path(APP).parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    frozen, walked = map(int, out.stdout.split()[-2:])
    assert frozen > 50_000, out.stdout
    assert walked < frozen / 10, out.stdout
