"""`costlib train` answers as the Train with costs page does (review 4): a mistake that costs 0 gets
the page's sentence and no answer, and a way of keeping the costliest cases is named by the share
it kept, not the share asked."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from cli_support import run_main

from costlib.present.training_page import NO_MISTAKE_PRICE


@pytest.fixture
def tied_prices(tmp_path):
    """400 cases whose prices are 1 in 90% of rows and 3 in the rest: keeping "the costliest 30%"
    keeps every case tied at the cut, far more than 30% of them."""
    rng = np.random.default_rng(4)
    n = 400
    a, b = rng.normal(size=n), rng.normal(size=n)
    sign = np.where(a + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    price = np.where(rng.random(n) < 0.9, 1.0, 3.0)
    path = tmp_path / "tied.csv"
    pd.DataFrame({"a": a, "b": b, "delta": sign * price}).to_csv(path, index=False)
    return path


def _train(capsys, path, *extra: str):
    return run_main(
        capsys, "train", str(path), "--features", "a,b", "--delta", "delta", "--seeds", "2", "--jobs", "1", *extra
    )


@pytest.mark.parametrize("json_out", [False, True])
def test_a_free_mistake_is_the_pages_sentence_and_no_answer(capsys, tied_prices, json_out):
    """--mistake-price 0: every mistake is free, so no way of training is cheaper than another. The
    command says the page's one sentence after the flag, prints no table and no "Ship the model", and
    exits 2 (no answer, as for any argument that leaves none), without training."""
    code, out, err = _train(capsys, tied_prices, "--mistake-price", "0", *(["--json"] if json_out else []))
    assert code == 2, (out, err)
    assert out == ""
    assert err.strip() == f"--mistake-price: {NO_MISTAKE_PRICE}"
    assert "Ship the model" not in out + err


def test_a_kept_share_names_the_way_in_the_verdict(capsys, tied_prices):
    """Standard against "the costliest 30%" only: the verdict names that way (shipped or the
    closest) by the share it kept, "keeping the costliest 30% + ties (N% of rows)", as the page does."""
    code, out, err = _train(capsys, tied_prices, "--methods", "standard", "tdown30", "--json")
    assert code == 0, err
    verdict = json.loads(out)["verdict"]["headline"]
    assert re.search(r"keeping the top 30% \+ ties \([\d.]+% of rows\)", verdict), verdict
    code, text, err = _train(capsys, tied_prices, "--methods", "standard", "tdown30")
    assert code == 0 and verdict in text, (text, err)


def test_the_outcome_as_a_feature_is_refused_after_its_flag(capsys, tmp_path):
    """`--features label,score` where "label" copies the label (the price's sign): it is the answer;
    refused in one sentence after --features (exit 2), as on the page."""
    rng = np.random.default_rng(1)
    path = tmp_path / "hostile.csv"
    delta = rng.normal(size=200)
    pd.DataFrame({"label": (delta > 0).astype(int), "score": rng.random(200), "delta": delta}).to_csv(path, index=False)
    code, out, err = run_main(capsys, "train", str(path), "--features", "label,score", "--delta", "delta")
    assert code == 2 and out == ""
    assert err.startswith('--features: In "hostile.csv", the column "label" splits the rows exactly as the label')
    assert "it is the answer" in err


def test_a_column_named_like_an_outcome_is_not_refused_by_its_name(capsys, tmp_path):
    """`--features y,class,score`: in Train the label is the price's sign, so columns merely named
    like an outcome ("y", "class") whose values do not copy it are features like any other."""
    rng = np.random.default_rng(2)
    path = tmp_path / "named.csv"
    frame = {"y": rng.integers(0, 2, 200), "class": rng.integers(0, 3, 200), "score": rng.random(200)}
    pd.DataFrame({**frame, "delta": rng.normal(size=200)}).to_csv(path, index=False)
    args = ("--features", "y,class,score", "--delta", "delta", "--seeds", "2", "--jobs", "1", "--methods", "standard")
    code, out, err = run_main(capsys, "train", str(path), *args)
    assert code == 0, err
    assert "3 numeric feature columns" in out, out


def test_the_table_and_json_give_the_share_kept_and_the_same_rows_note(capsys, tied_prices):
    """The verdict says "keeping the top 30% + ties (N% of rows)" where the table said only "tdown30": the
    table names each way as the page's chips and charts do (`training_page.method_short`: "top 30% + ties:
    N% kept", the share it kept in its name), the JSON keeps the codes and each way's `share_kept`, and the
    page's note that two of them keep the very same rows is on standard error."""
    from costlib.present.training_page import method_short
    from costlib.training.kept import kept_of_seeds

    delta = pd.read_csv(tied_prices)["delta"]
    shares = kept_of_seeds(delta, 2)
    kept = {m: f"{k:.0%}" for m, (_, k) in shares.items()}
    ways = ("--methods", "standard", "tdown30", "tdown50", "tdown70")
    code, out, err = _train(capsys, tied_prices, *ways)
    assert code == 0, err
    header, *rows = out.split("\n\n")[1].splitlines()
    assert header.split()[:2] == ["method", "seeds"], header
    names = [method_short(m, shares) for m in ("standard", "tdown30", "tdown50", "tdown70")]
    assert "+ ties" in names[1] and all(row.startswith(name + " ") for row, name in zip(rows, names, strict=True))
    assert "tdown" not in out, out
    assert "keep the same rows in every seed" in err and err.count("note: ") >= 1, err
    code, out, _ = _train(capsys, tied_prices, *ways, "--json")
    doc = json.loads(out)
    assert [m["method"] for m in doc["methods"]] == ["standard", "tdown30", "tdown50", "tdown70"]  # codes stay
    assert {m["method"]: m["share_kept"] for m in doc["methods"]}["standard"] is None
    assert {m["method"]: f"{m['share_kept']:.0%}" for m in doc["methods"] if m["share_kept"] is not None} == kept
    assert any("keep the same rows in every seed" in note for note in doc["notes"])


@pytest.fixture
def dear_half(tmp_path):
    """The predictable control (`training.synthetic.synthetic_costs`, 600 rows): training with costs pays."""
    from costlib.training.synthetic import synthetic_costs

    X, delta = synthetic_costs(600, predictable=True, random_state=0)
    path = tmp_path / "dear.csv"
    pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])]).assign(delta=delta).to_csv(path, index=False)
    return path


def test_the_verdict_says_why_its_interval_is_wider_than_the_tables(capsys, dear_half):
    """Review of 140: the command printed the table with each way's own interval, then a verdict on the wider
    interval held for the pick among the ways, without the page's sentence saying why. It now prints that
    sentence (`training_words.picked_sentence`, the page's) under the verdict, and ``--json`` gives the
    verdict's way with its held ends beside the headline, the table's own ends left as they are."""
    from costlib.answers.training import named_verdict
    from costlib.present.training_words import picked_sentence
    from costlib.training.summary import held_for_pick

    columns = ",".join(pd.read_csv(dear_half, nrows=0).columns.drop("delta"))
    ways = ("--features", columns, "--delta", "delta", "--seeds", "2", "--jobs", "1", "--methods", "standard")
    ways += ("weighted", "p_up", "regression")
    code, out, err = run_main(capsys, "train", str(dear_half), *ways, "--json")
    assert code == 0, err
    doc = json.loads(out)
    summary = pd.DataFrame(doc["methods"]).drop(columns="share_kept")
    held = held_for_pick(summary).set_index("method")
    verdict = doc["verdict"]
    assert verdict["picked"] == picked_sentence(3) and verdict["picked_among"] == 3
    assert verdict["picked"] in named_verdict(summary, {}).details
    way = verdict["method"]
    assert verdict["nec_change_high"] == pytest.approx(held.loc[way, "nec_change_held_high"])
    assert verdict["nec_change_low"] == pytest.approx(held.loc[way, "nec_change_held_low"])
    own = summary.set_index("method").loc[way]
    assert verdict["nec_change_high"] > own["nec_change_high"] and verdict["nec_change_low"] < own["nec_change_low"]
    code, text, err = run_main(capsys, "train", str(dear_half), *ways)
    assert code == 0 and text.splitlines()[-1] == picked_sentence(3), text
    assert verdict["headline"] in text


def test_the_json_methods_carry_the_verdicts_interval_beside_their_own(capsys, tied_prices):
    """A last read: `--json`'s methods gave each way's own interval only, beside a verdict that reads
    the one held for the pick; each method now carries both, by name."""
    code, out, err = _train(capsys, tied_prices, "--methods", "standard", "weighted", "tdown30", "--json")
    assert code == 0, err
    got = json.loads(out)
    for m in got["methods"]:
        assert {"nec_change_low", "nec_change_held_low", "nec_change_held_high", "picked_among"} <= set(m), m
    way = got["verdict"]["method"]
    if way is not None:
        row = next(m for m in got["methods"] if m["method"] == way)
        assert row["nec_change_held_high"] == got["verdict"]["nec_change_high"]
