"""Hostile uploads through the real file input: a Parquet memory bomb, a misleading file name,
a repeated column name and a very wide file (issue 14 items 1, 8, 11; issue 12 bug 4)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from e2e_support import alert_texts, assert_no_error, full_screenshot, goto, upload, use_these_columns

from costlib import loading

pytestmark = pytest.mark.browser


def _status(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def parquet_bomb(path: Path, rows: int = 100_000_000) -> Path:
    """Two repeated values, 100,000,000 rows: under 1 MB on disk, 1.6 GB once read."""
    schema = pa.schema([("label", pa.int64()), ("score", pa.float64())])
    buf = io.BytesIO()
    with pq.ParquetWriter(buf, schema, compression="zstd") as writer:
        for start in range(0, rows, 1 << 20):
            k = min(1 << 20, rows - start)
            writer.write_table(pa.table({"label": np.zeros(k, np.int64), "score": np.full(k, 0.5)}, schema=schema))
    path.write_bytes(buf.getvalue())
    return path


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="reads the server's peak memory from /proc")
def test_a_parquet_bomb_gets_a_sentence_and_the_server_stays_small(page, app_url, app_server, tmp_path):
    bomb = parquet_bomb(tmp_path / "tiny.parquet")
    goto(page, app_url + "/")
    pid = app_server.proc.pid
    with open(f"/proc/{pid}/clear_refs", "w") as f:  # reset the server's high-water mark
        f.write("5")
    before = _status(pid, "VmRSS:")
    upload(page, bomb)
    errors = [a for a in alert_texts(page) if "tiny.parquet" in a]
    assert errors and "100,000,000 rows" in errors[0] and "DuckDB" in errors[0], alert_texts(page)
    grew = _status(pid, "VmHWM:") - before
    # the file is refused from its footer: the server grows by far less than one table budget
    assert grew < loading.table_budget(), f"the server grew by {grew / 1e6:.0f} MB"
    assert_no_error(page)
    full_screenshot(page, "test_a_parquet_bomb_gets_a_sentence_and_the_server_stays_small")


def test_a_right_to_left_override_in_a_file_name_is_shown_as_a_question_mark(page, app_url, tmp_path):
    path = tmp_path / "scores\u202evsc.exe.csv"  # would display as "scoresexe.csv"
    path.write_bytes(b"label,score\n1,0.9\n0,0.2\n1,0.7\n0,0.4\n")
    goto(page, app_url + "/")
    upload(page, path, shown="scores?vsc.exe.csv")
    main = page.locator('[data-testid="stMainBlockContainer"]')
    use_these_columns(page)
    page.get_by_text("Loaded “scores?vsc.exe.csv”. Costs & groups").wait_for()
    # Every sentence of the app's own shows "?"; Streamlit's uploader chip shows the name as the
    # browser gives it, which no page can change.
    ours = main.locator('[data-testid="stCaptionContainer"], [data-testid="stAlert"]').all_inner_texts()
    assert any("scores?vsc.exe.csv" in t for t in ours) and not any("\u202e" in t for t in ours)
    assert_no_error(page)


def test_a_repeated_column_name_loads_and_says_so(page, app_url, tmp_path):
    path = tmp_path / "joined.csv"
    lines = ["label,score,score,group"] + [
        f"{i % 2},{(i % 10) / 10},{((i * 3) % 10) / 10},{'ab'[i % 2]}" for i in range(60)
    ]
    path.write_text("\n".join(lines) + "\n")
    goto(page, app_url + "/")
    upload(page, path)
    assert any('repeats the name "score" (columns 2 and 3)' in a for a in alert_texts(page)), alert_texts(page)
    use_these_columns(page)  # the guess maps both copies as two models
    page.get_by_text("Loaded “joined.csv”. Costs & groups").wait_for()
    assert_no_error(page)


def test_a_very_wide_file_reaches_the_mapping_form_and_says_how_wide_it_is(page, app_url, tmp_path):
    k = 20_000
    path = tmp_path / "wide.csv"
    header = ",".join(["label", "score"] + [f"c{i}" for i in range(k)])
    rows = [",".join([str(r % 2), str(r / 10)] + ["1"] * k) for r in range(5)]
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    goto(page, app_url + "/")
    upload(page, path, timeout=120)
    assert any(f"has {k + 2:,} columns" in a for a in alert_texts(page)), alert_texts(page)
    use_these_columns(page)
    page.get_by_text("Loaded “wide.csv”. Costs & groups").wait_for()
    assert_no_error(page)
