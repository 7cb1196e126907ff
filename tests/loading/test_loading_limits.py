"""Hostile files at the loader's edges: memory bombs, a session's memory, files that are not
files, very wide tables, file names that would mislead when shown (issue 14) and cells, names and
categories too long to show whole."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from costlib import loading
from costlib.core import escaping
from costlib.core.dataset import ColumnMapping
from costlib.core.errors import DataError
from costlib.core.escaping import shorten
from costlib.loading import display_name, read_path, read_table
from costlib.loading.frames import frame_bytes

ROOT = Path(__file__).resolve().parents[2]
BASIC = ColumnMapping(label="label", scores=("score",))


def bomb(rows: int) -> bytes:
    """The issue's recipe: many rows of two repeated values, compressed to almost nothing."""
    buf = io.BytesIO()
    schema = pa.schema([("label", pa.int64()), ("score", pa.float64())])
    chunk = 1 << 20
    with pq.ParquetWriter(buf, schema, compression="zstd") as writer:
        for start in range(0, rows, chunk):
            k = min(chunk, rows - start)
            writer.write_table(pa.table({"label": np.zeros(k, np.int64), "score": np.full(k, 0.5)}, schema=schema))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------
# Memory bombs: refused from the Parquet footer, or while a CSV is read in chunks
# ---------------------------------------------------------------------------------------


def test_a_parquet_bomb_is_refused_from_its_footer_before_any_data_is_read(monkeypatch) -> None:
    data = bomb(100_000_000)
    assert len(data) < 2_000_000  # under 2 MB on disk, 1.6 GB in memory

    def no_data(*args, **kwargs):
        raise AssertionError("the data pages were read")

    for method in ("read", "read_row_group", "read_row_groups", "iter_batches"):
        monkeypatch.setattr(pq.ParquetFile, method, no_data)
    with pytest.raises(DataError) as info:
        read_table(data, "bomb.parquet")
    msg = info.value.message
    assert '"bomb.parquet" holds 100,000,000 rows, about 1.6 GB once read into memory' in msg
    assert "DuckDB" in msg and "big-data path" in msg


def test_the_budget_is_a_setting(monkeypatch) -> None:
    monkeypatch.delenv(loading.UPLOAD_MEMORY_ENV, raising=False)
    assert loading.upload_memory_budget() == loading.DEFAULT_UPLOAD_MEMORY_MB << 20
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "64")
    assert loading.upload_memory_budget() == 64 << 20
    assert loading.table_budget() == (64 << 20) // loading.PEAK_PER_TABLE_BYTE
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "lots")
    with pytest.warns(UserWarning, match="COSTLIB_UPLOAD_MEMORY_MB='lots' is not a number"):
        assert loading.upload_memory_budget() == loading.DEFAULT_UPLOAD_MEMORY_MB << 20


def test_a_parquet_file_over_a_smaller_budget_is_refused(monkeypatch) -> None:
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "16")  # the table may take 4 MB
    with pytest.raises(
        DataError, match=r"holds 1,000,000 rows, about 16 MB once read into memory, more than the 4.19 MB"
    ):
        read_table(bomb(1_000_000), "p.parquet")
    assert len(read_table(bomb(100_000), "p.parquet")) == 100_000


def test_a_csv_over_the_budget_is_refused_while_it_is_read(monkeypatch) -> None:
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "16")  # the table may take 4 MB
    # 2,000,000 rows of "1,0.5": 12 MB of text, 18 MB in memory (int8 label + float64 score)
    data = b"label,score\n" + b"1,0.5\n0,0.5\n" * 1_000_000
    with pytest.raises(DataError) as info:
        read_table(data, "long.csv")
    msg = info.value.message
    assert msg.startswith('The file "long.csv" is too big to read here: its first ') and "DuckDB" in msg
    rows_read = int(msg.split("its first ")[1].split(" rows")[0].replace(",", ""))
    assert 0 < rows_read < 2_000_000  # refused part way, not after reading everything


def test_a_large_table_is_stored_compactly_and_reads_back_exactly() -> None:
    rng = np.random.default_rng(3)
    n = 50_000
    y, s, g = rng.integers(0, 2, n), rng.random(n), rng.choice(["north", "south", "east"], n)
    body = "".join(f"{a},{b!r},{c}\n" for a, b, c in zip(y.tolist(), s.tolist(), g.tolist(), strict=True))
    df = read_table(("label,score,group\n" + body).encode(), "big.csv")
    assert df["label"].dtype == np.int8 and df["score"].dtype == np.float64
    assert str(df["group"].dtype) == "category"
    ds = loading.prepare(
        df, ColumnMapping(label="label", scores=("score",), group="group"), name="big.csv", fingerprint=""
    )
    assert ds.y.tolist() == y.tolist() and ds.scores["score"].tolist() == s.tolist()
    assert ds.groups.tolist() == g.tolist()


MEMORY_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from benchmarks.loading import child_memory
print(json.dumps(child_memory({rows})))
"""


def test_peak_memory_of_a_ten_million_row_upload_is_about_four_times_what_the_session_keeps() -> None:
    # A fresh process: VmHWM (the kernel's peak of resident memory) is reset after the CSV's
    # bytes are made, then read_table and prepare run. The session needs labels as int8, scores
    # as float64 and groups as 1-byte codes: 10 bytes a row.
    code = MEMORY_CHILD.format(root=str(ROOT), rows=10_000_000)
    # the pages' work on ten million rows passes the default upload budget: this measures the read
    env = {**os.environ, loading.UPLOAD_MEMORY_ENV: "16384"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["n_rows"] == 10_000_000
    assert result["peak_bytes"] <= 4.0 * result["needed_bytes"], result


# ---------------------------------------------------------------------------------------
# read_path: regular files only, with a size check
# ---------------------------------------------------------------------------------------


def test_read_path_reads_a_regular_file(tmp_path) -> None:
    path = tmp_path / "preds.csv"
    path.write_bytes(b"label,score\n1,0.5\n")
    assert read_path(path) == (b"label,score\n1,0.5\n", "preds.csv")
    assert read_path(str(path)) == (b"label,score\n1,0.5\n", "preds.csv")


def test_read_path_refuses_a_device_without_reading_it(monkeypatch) -> None:
    def no_open(*args, **kwargs):
        raise AssertionError("the device was opened")

    monkeypatch.setattr(os, "open", no_open)
    with pytest.raises(DataError, match=r'^"/dev/zero" is a device, not a regular file; give the path'):
        read_path("/dev/zero")


def test_read_path_refuses_a_pipe_and_does_not_hang(tmp_path) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    outcome: list = []

    def attempt():
        try:
            read_path(fifo)
            outcome.append("read")
        except DataError as err:
            outcome.append(err.message)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=10)
    if worker.is_alive():  # unblock the stuck open() so the test run can go on
        with open(fifo, "wb"):
            pass
        pytest.fail("read_path blocked on a FIFO")
    assert "is a pipe (FIFO), not a regular file" in outcome[0]


def test_read_path_refuses_folders_missing_files_and_files_over_the_limit(tmp_path) -> None:
    with pytest.raises(DataError, match="is a folder, not a regular file"):
        read_path(tmp_path)
    with pytest.raises(DataError, match=r"cannot be read: No such file or directory\.$"):
        read_path(tmp_path / "nope.csv")
    big = tmp_path / "big.csv"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(DataError) as info:
        read_path(big, max_bytes=1000)
    assert "is 2 kB, more than the 1 kB that a file read into memory may take here" in info.value.message
    assert "DuckDB" in info.value.message


def _sparse(path: Path, size: int, head: bytes = b"") -> Path:
    """A file of `size` bytes of which only `head` is written: the rest is a hole (no disk space)."""
    path.write_bytes(head)
    os.truncate(path, size)
    st = os.stat(path)
    if st.st_blocks * 512 >= size // 2:
        pytest.skip("this filesystem does not keep sparse files")
    return path


def _count_reads(monkeypatch) -> list[int]:
    """The sizes of the blocks os.read returns from now on."""
    got: list[int] = []
    real = os.read

    def counting(fd, n):
        block = real(fd, n)
        got.append(len(block))
        return block

    monkeypatch.setattr(os, "read", counting)
    return got


def test_read_path_refuses_a_sparse_file_after_reading_its_first_block_only(tmp_path, monkeypatch) -> None:
    # a real CSV head, then 64 MiB of hole: the head alone looks like a table
    path = _sparse(tmp_path / "holes.csv", 64 << 20, b"label,score\n1,0.5\n0,0.2\n")
    reads = _count_reads(monkeypatch)
    with pytest.raises(DataError) as info:
        read_path(path)
    stored = loading.messages.size(os.stat(path).st_blocks * 512)
    assert info.value.message == loading.MSG_SPARSE.format(name=display_name(str(path)), size="67.1 MB", stored=stored)
    assert sum(reads) <= loading.sniffing.SAMPLE_BYTES
    with pytest.raises(DataError, match="the rest is holes"):  # not a table either: a policy file is not read whole
        read_path(path, table=False)


def test_read_path_refuses_a_binary_file_from_its_first_block_with_read_tables_sentence(tmp_path, monkeypatch) -> None:
    path = tmp_path / "photo.csv"
    data = b"\x89PNG\r\n\x1a\n" + os.urandom(8 << 20)
    path.write_bytes(data)
    with pytest.raises(DataError) as from_table:
        read_table(data, str(path))
    reads = _count_reads(monkeypatch)
    with pytest.raises(DataError) as from_path:
        read_path(path)
    assert from_path.value.message == from_table.value.message  # the sentence read_table says, earlier
    assert sum(reads) <= loading.sniffing.SAMPLE_BYTES
    assert read_path(path, table=False)[0] == data  # a file that is not a table is left to its reader


def test_read_path_reads_a_sparse_parquet_file_and_a_file_that_is_only_stored_compressed(tmp_path, monkeypatch) -> None:
    # zeros in a Parquet file's pages are data (cp --sparse and rsync -S store them as holes)
    parquet = _sparse(tmp_path / "zeros.parquet", 4 << 20, b"PAR1")
    assert len(read_path(parquet)[0]) == 4 << 20
    # a filesystem that compresses counts fewer blocks than the size, but finds no hole: the file is read
    dense = tmp_path / "dense.csv"
    dense.write_bytes(b"label,score\n" + b"1,0.5\n" * 500_000)
    real = os.fstat

    def few_blocks(fd):
        st = real(fd)
        return os.stat_result(tuple(st)[:10], {"st_blocks": 8, "st_blksize": st.st_blksize})

    monkeypatch.setattr(os, "fstat", few_blocks)
    assert read_path(dense)[0] == dense.read_bytes()
    monkeypatch.delattr(os, "SEEK_HOLE")  # no way to ask for holes: the stat alone decides
    with pytest.raises(DataError, match="the rest is holes"):
        read_path(dense)


def test_read_path_holds_the_bytes_once_not_twice(tmp_path) -> None:
    import tracemalloc

    path = tmp_path / "big.csv"
    path.write_bytes(b"label,score\n" + b"1,0.5\n0,0.2\n" * (3 << 20))  # 36 MiB
    tracemalloc.start()
    try:
        data, _ = read_path(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(data) == path.stat().st_size
    assert peak < 1.1 * len(data), f"peak {peak / 2**20:.0f} MiB for {len(data) / 2**20:.0f} MiB"  # joined blocks: 2x


def test_the_default_limit_leaves_the_budget_room_for_the_table(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "4")  # 4 MiB: a file may take 1 MiB, its table the rest
    path = tmp_path / "t.csv"
    path.write_bytes(b"label,score\n" + b"1,0.5\n" * 200_000)  # 1.2 MB
    with pytest.raises(DataError, match=r"is 1.2 MB, more than the 1.05 MB that a file read into memory may take"):
        read_path(path)
    assert read_path(path, max_bytes=2 << 20)[0] == path.read_bytes()


def _limit_memory() -> None:  # in the child: a reader that slurps /dev/zero fails fast, not the machine
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "costlib", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_limit_memory,
    )


PEAK_CHILD = """
import atexit, sys
def peak():
    with open("/proc/self/status") as f:
        sys.stderr.write("".join(line for line in f if line.startswith("VmHWM:")))
atexit.register(peak)
from costlib.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def _cli_peak(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, int]:
    """A command run in a fresh process (address space capped at 3 GiB) and its peak resident memory."""
    r = subprocess.run(
        [sys.executable, "-c", PEAK_CHILD, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit_memory,
        env={**os.environ, **(env or {})},
    )
    line = [x for x in r.stderr.splitlines() if x.startswith("VmHWM:")]
    assert line, r.stderr[-2000:]
    return r, int(line[-1].split()[1]) * 1024


@pytest.mark.parametrize("command", ["audit", "train"])
def test_the_command_line_refuses_huge_sparse_files_without_reading_them(tmp_path, command) -> None:
    # the files: made with truncate, all holes; 2 GiB passes the default limit, 3.9 GB passes it
    # under a budget large enough to let it through the size check (before: read whole, 4.4 and 8.2 GB resident)
    args = ["--label", "label", "--score", "score", "--c-fp", "1", "--c-fn", "1"]
    if command == "train":
        args = ["--features", "a,b", "--delta", "d"]
    two = _sparse(tmp_path / "two.csv", 2 << 30)
    r, peak = _cli_peak(command, str(two), *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert 'The file "' in r.stderr and "is 2.15 GB, more than the 1.07 GB that a file read into memory" in r.stderr
    assert peak < 400 << 20, f"{peak / 2**20:.0f} MiB resident"
    big = _sparse(tmp_path / "big.csv", 3_900_000_000)
    r, peak = _cli_peak(command, str(big), *args, env={loading.UPLOAD_MEMORY_ENV: "20000"})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "is 3.9 GB long, but the disk holds only 0 bytes of it: the rest is holes" in r.stderr
    assert peak < 400 << 20, f"{peak / 2**20:.0f} MiB resident"


def test_the_command_line_refuses_dev_zero_and_a_pipe_with_a_sentence(tmp_path) -> None:
    args = ["--label", "label", "--score", "score", "--c-fp", "1", "--c-fn", "1"]
    r = _cli("audit", "/dev/zero", *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert '"/dev/zero" is a device, not a regular file' in r.stderr
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    r = _cli("audit", str(fifo), *args, timeout=30)  # a hang is a TimeoutExpired failure
    assert r.returncode == 2 and "is a pipe (FIFO), not a regular file" in r.stderr


# ---------------------------------------------------------------------------------------
# Very wide tables
# ---------------------------------------------------------------------------------------


def wide_csv(k: int) -> bytes:
    header = ",".join(f"c{i}" for i in range(k))
    return (header + "\n" + ",".join(str(i % 7) for i in range(k)) + "\n").encode()


def test_a_header_longer_than_the_sample_is_not_cut_in_the_middle_of_a_name() -> None:
    data = wide_csv(15_000)
    assert data.index(b"\n") > 1 << 16  # the header alone is longer than 64 KiB
    df = read_table(data, "wide.csv")
    assert list(df.columns) == [f"c{i}" for i in range(15_000)]


def test_one_hundred_thousand_columns_are_not_a_false_duplicate() -> None:
    df = read_table(wide_csv(100_000), "wide.csv")
    assert df.shape == (1, 100_000) and df.columns[-1] == "c99999"


def test_a_header_over_the_limit_is_a_sentence(monkeypatch) -> None:
    monkeypatch.setattr(loading.sniffing, "MAX_HEADER_BYTES", 1000)
    with pytest.raises(DataError, match=r'The first line of "w.csv" \(the column names\) is longer than 1 kB'):
        read_table(wide_csv(1000), "w.csv")


def test_a_wide_table_offers_the_guessed_columns_and_then_its_first_ones() -> None:
    columns = [f"c{i}" for i in range(2000)] + ["label", "score"]
    guess = ColumnMapping(label="label", scores=("score",), group="c1500")
    offered = loading.offered_columns(columns, guess, limit=10)
    assert offered == ["label", "score", "c1500", "c0", "c1", "c2", "c3", "c4", "c5", "c6"]
    assert loading.offered_columns(columns[:5], guess, limit=10) == columns[:5]
    msg = loading.NOTE_WIDE.format(name="w.csv", count=100_000, shown=500)
    assert "has 100,000 columns; each list below offers 500 of them" in msg


# ---------------------------------------------------------------------------------------
# File names shown in sentences
# ---------------------------------------------------------------------------------------


def test_display_name_shows_control_and_bidi_characters_as_question_marks() -> None:
    assert display_name("invoice\u202efdp.csv") == "invoice?fdp.csv"  # would show as "invoicevsc.pdf"
    assert display_name("a\u2066b\u200fc\u061cd.csv") == "a?b?c?d.csv"
    assert display_name("two\nlines\r.csv") == "two?lines?.csv"
    assert display_name("tab\tand   spaces.csv") == "tab and spaces.csv"
    assert display_name("Zürich 日本.csv") == "Zürich 日本.csv"
    assert display_name("") == "?"


def test_display_name_shortens_a_long_name_keeping_its_end() -> None:
    shown = display_name("x" * 5000 + "_final.csv")
    assert len(shown) == loading.messages.MAX_NAME_CHARS
    assert shown.startswith("xxx") and shown.endswith("…" + ("x" * 14) + "_final.csv")


def test_every_sentence_names_the_file_safely() -> None:
    for name in ("evil\u202evsc.csv", "y" * 5000 + ".csv"):
        shown = display_name(name)
        with pytest.raises(DataError) as info:
            read_table(b"", name)
        assert info.value.message == loading.MSG_EMPTY.format(name=shown)
        df = read_table(b"label,score\n1,2\n0,3\n", name)
        with pytest.raises(DataError) as info:
            loading.prepare(df, BASIC, name=name, fingerprint="")
        assert f'In "{shown}", column "score"' in info.value.message
        assert "\u202e" not in info.value.message and len(info.value.message) < 400
    ds = loading.prepare(
        read_table(b"label,score\n1,0.2\n0,0.3\n", "a\u202eb.csv"), BASIC, name="a\u202eb.csv", fingerprint=""
    )
    assert ds.name == "a?b.csv"


def test_a_text_bomb_reads_as_a_category_not_a_string_per_row() -> None:
    # 2,000,000 rows of one 100-character string: 40 KB of Parquet, 200 MB as a string per row
    rows = 2_000_000
    buf = io.BytesIO()
    pq.write_table(
        pa.table({"label": np.zeros(rows, np.int8), "note": pa.array(["x" * 100] * rows)}), buf, compression="zstd"
    )
    assert len(buf.getvalue()) < 100_000
    df = read_table(buf.getvalue(), "notes.parquet")
    assert len(df) == rows and str(df["note"].dtype) == "category"
    assert frame_bytes(df) < 20_000_000


def test_text_that_decodes_past_the_budget_is_refused_while_it_is_read(monkeypatch) -> None:
    monkeypatch.setenv(loading.UPLOAD_MEMORY_ENV, "64")  # the table may take 16 MB
    # 500,000 different 100-character strings that share their prefixes: a small file whose
    # footer promises 12 MB (16 bytes a text cell), 50 MB once decoded
    rows = 500_000
    buf = io.BytesIO()
    table = pa.table({"label": np.zeros(rows, np.int8), "id": pa.array([f"{i:0100d}" for i in range(rows)])})
    pq.write_table(table, buf, use_dictionary=False, column_encoding={"id": "DELTA_BYTE_ARRAY", "label": "PLAIN"})
    assert len(buf.getvalue()) < 5_000_000
    with pytest.raises(DataError) as info:
        read_table(buf.getvalue(), "ids.parquet")
    msg = info.value.message
    assert msg.startswith('The file "ids.parquet" holds 500,000 rows whose first ') and "DuckDB" in msg


# ---------------------------------------------------------------------------------------
# Long values on screen (issue "Bounded under load"): a cell, a column name or a category
# may be as long as the file allows; what a page shows of one is MAX_CELL_CHARS characters.

LIMIT = escaping.MAX_CELL_CHARS


def arrow_bytes(df) -> int:
    """What st.dataframe sends the browser for `df`: its Arrow IPC stream."""
    from streamlit.dataframe_util import convert_pandas_df_to_arrow_bytes

    return len(convert_pandas_df_to_arrow_bytes(df))


def text_cells(df) -> list:
    return [x for c in range(df.shape[1]) for x in df.iloc[:, c] if isinstance(x, str)]


def test_the_preview_cuts_a_huge_cell_and_a_long_column_name_and_says_so() -> None:
    name = "n" * 5000
    data = f"label,score,{name}\n1,0.9,{'x' * 5_000_000}\n0,0.2,short\n".encode()
    head, caption = loading.preview(read_table(data, "big.csv"), "big.csv")
    cells = text_cells(head)
    assert cells[0] == "x" * (LIMIT - 1) + "…" and "short" in cells  # cut at the end, short cells untouched
    assert max(len(c) for c in cells) <= LIMIT and max(len(str(c)) for c in head.columns) <= LIMIT
    assert list(head.columns[:2]) == ["label", "score"] and head.columns[2] == "n" * (LIMIT - 1) + "…"
    assert 'with 2 cells longer than 200 characters cut short at "…", 1 of them a column name' in caption
    assert arrow_bytes(head) < 20_000  # 5 MB before
    short_head, short_caption = loading.preview(read_table(b"label,score\n1,0.9\n", "ok.csv"), "ok.csv")
    assert "cut" not in short_caption


def test_the_preview_of_a_categorical_sends_plain_strings_not_the_whole_dictionary() -> None:
    # one 50 MB string repeated: Parquet keeps one copy, pandas a category; 20,000 more
    # categories of 150 characters that the first rows do not show (a 3 MB dictionary)
    rows = 20_000
    codes = np.r_[np.zeros(5, np.int32), np.arange(1, rows + 1, dtype=np.int32)]
    values = pa.DictionaryArray.from_arrays(
        pa.array(codes), pa.array(["y" * 50_000_000] + [f"{i:0150d}" for i in range(rows)])
    )
    buf = io.BytesIO()
    pq.write_table(pa.table({"label": np.arange(rows + 5) % 2, "text": values}), buf)
    df = read_table(buf.getvalue(), "long.parquet")
    assert str(df["text"].dtype) == "category"
    head, caption = loading.preview(df, "long.parquet")
    assert (
        not isinstance(head["text"].dtype, pd.CategoricalDtype)
        and head["text"].tolist() == ["y" * (LIMIT - 1) + "…"] * 5
    )
    assert "with 5 cells longer than 200 characters" in caption
    assert arrow_bytes(head) < 20_000


def test_bytes_cells_are_shown_as_cut_text() -> None:
    df = pd.DataFrame({"blob": [b"\xff" + b"b" * 10_000, b"ok"], "n": [1, 2]})
    shown = loading.safe_cells(df)
    assert shown["blob"].tolist() == ["\ufffd" + "b" * (LIMIT - 2) + "…", "ok"]
    assert escaping.cut_cells(df) == 1


def test_names_that_would_read_the_same_once_shown_are_told_apart() -> None:
    long_a, long_b = "p" * 300 + "_a", "p" * 300 + "_b"
    # "=x" neutralised is "'=x", the name of another column: st.dataframe refused the table
    df = pd.DataFrame([[1, 2, 3, 4]], columns=["=x", "'=x", long_a, long_b])
    columns = list(loading.safe_cells(df).columns)
    assert len(set(columns)) == 4 and max(len(c) for c in columns) <= LIMIT
    assert columns[1] == "'=x" and columns[0] == "'=x (2)"  # a name shown as it is keeps its form
    assert columns[2] == "p" * (LIMIT - 1) + "…" and columns[3].endswith("… (2)") and len(columns[3]) == LIMIT
    arrow_bytes(loading.safe_cells(df))  # no "Duplicate column names found"


def test_a_download_keeps_every_character() -> None:
    df = pd.DataFrame({"group": ["=" + "g" * 1000, "h"], "n": [1, 2]})
    back = loading.safe_csv(df).decode()
    assert "'=" + "g" * 1000 + "," in back


def test_widget_options_are_cut_and_stay_distinct() -> None:
    options = ["(none)", "q" * 10_000 + "1", "q" * 10_000 + "2", "q" * (LIMIT - 1) + "…", "score"]
    name = escaping.option_names(options)
    shown = [name(o) for o in options]
    assert len(set(shown)) == len(options) and max(len(s) for s in shown) <= LIMIT
    assert shown[0] == "(none)" and shown[3] == options[3] and shown[4] == "score"  # short options as they are
    assert name("typed " + "t" * 500) == shorten("typed " + "t" * 500)  # a value typed in, not offered


def test_one_cut_for_every_surface() -> None:
    text = "<b>" + "w" * 5000
    assert escaping.plain(text) == "&lt;b&gt;" + "w" * (LIMIT - 4) + "…"  # cut before it is escaped
    assert len(escaping.label(text)) == 40 and escaping.label(text).endswith("…")
    assert loading.messages.q(text) == '"' + shorten(text, 40) + '"'
    assert shorten(text, 10, keep_end=3) == "<b>www…www" and shorten("short", 10, keep_end=3) == "short"
