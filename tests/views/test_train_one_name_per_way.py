"""Train with costs gives a way of keeping the costliest cases one name (review: two names).

The box of ways named "the costliest 50%" by the share it kept of every row ("costliest 69% (50%
asked)"), the charts, the table and the verdict by the share it kept of the seeds' training rows
("costliest 68% (50% asked)"): on 300 rows priced 1, 2 or 3 over 10 seeds, one way read as two. Now
every place, `costlib train` too, names it by the share of the seeds' training rows
(`training.kept.kept_of_seeds`, from the prices alone, so the box has it before training).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd

from costlib import loading
from costlib.__main__ import main as cli_main
from costlib.present.training_words import TRAIN_WORDS as WORDS
from costlib.training.compare import compare_training, training_rows
from costlib.training.kept import kept_of_results, kept_of_seeds
from tests.views.apptest_support import assert_no_exception, charts, open_app, texts

PAGE = "views/train.py"


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    code = cli_main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


SEEDS = 10


def priced_1_2_3() -> pd.DataFrame:
    """300 rows, whole prices 1, 2 or 3 of either sign, one feature that tells the sign a little."""
    rng = np.random.default_rng(22)
    delta = rng.integers(1, 4, 300) * np.where(rng.random(300) < 0.5, -1, 1)
    return pd.DataFrame({"x": delta + rng.normal(scale=2.0, size=300), "delta": delta.astype(float)})


def percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def share_of_every_row(delta, method: str = "tdown50") -> float:
    """The share `method` keeps of every row priced above 0, before a split: what named the box of
    ways before the seeds' shares did."""
    d = np.asarray(delta, dtype=np.float64)
    d = d[d != 0]
    return training_rows(method, d > 0, np.abs(d))[0].size / d.size


def test_the_share_of_the_seeds_training_rows_is_known_before_training():
    frame = priced_1_2_3()
    results = compare_training(frame[["x"]].to_numpy(), frame["delta"].to_numpy(), seeds=SEEDS, n_jobs=1)
    assert kept_of_seeds(frame["delta"], SEEDS) == kept_of_results(results)
    # the share of every row, which named the box, is another name for the same way here
    assert percent(share_of_every_row(frame["delta"])) != percent(kept_of_seeds(frame["delta"], SEEDS)["tdown50"][1])


def test_the_page_names_each_way_once(tmp_path, capsys):
    frame = priced_1_2_3()
    kept = percent(kept_of_seeds(frame["delta"], SEEDS)["tdown50"][1])
    short, full = f"top 50% + ties: {kept} kept", f"keeping the top 50% + ties ({kept} of rows)"
    at = open_app(None, PAGE, timeout=300)
    at.radio(key="train_data").set_value("upload").run()
    raw = frame.to_csv(index=False).encode()
    at.file_uploader(key="train_uploader").upload("priced.csv", raw, "text/csv").run()
    assert_no_exception(at)
    assert at.multiselect(key=f"train_features_{loading.fingerprint(raw)[:12]}").value == ["x"]
    at.number_input(key="train_seeds").set_value(SEEDS)
    next(b for b in at.button if b.label == "Train and compare").click().run(timeout=300)
    assert_no_exception(at)
    box = next(m for m in at.multiselect if m.label == WORDS["methods"])  # keyed by its names
    assert short in box.options, box.options
    page = "\n".join([*box.options, box.help or "", json.dumps(charts(at)), texts(at)])
    page += "\n".join(str(x) for df in at.dataframe for x in df.value.iloc[:, 0])
    assert full in page, page
    names = set(re.findall(r"top 50% \+ ties(?:: | \()([\d.]+%)", page))
    assert names == {kept}, names  # one name everywhere: the box, its help, the charts, the table

    path = tmp_path / "priced.csv"
    path.write_bytes(raw)
    args = ("train", str(path), "--features", "x", "--delta", "delta", "--seeds", str(SEEDS), "--jobs", "1")
    code, out, _ = run_main(capsys, *args, "--json")
    assert code == 0
    rows = {m["method"]: m for m in json.loads(out)["methods"]}
    assert percent(rows["tdown50"]["share_kept"]) == kept and rows["standard"]["share_kept"] is None
    code, out, err = run_main(capsys, *args)
    assert code == 0
    line = next(s for s in out.splitlines() if s.lstrip().startswith("top 50% + ties"))
    assert line.lstrip().startswith(short), line  # the table names the way as the page does (f54c37d)
    assert set(re.findall(r"top 50% \+ ties(?:: | \()([\d.]+%)", out + err)) <= {kept}
