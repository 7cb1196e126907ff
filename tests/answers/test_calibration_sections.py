"""The Calibration page's answer, read as a product manager and a fairness auditor read it:
each group's calibration where the data has groups (and none where it has not), a group too
small read as too few cases, the bins too small to read drawn apart with every bin's case count,
the worth in the user's unit per case and a month, and the answer in plain words first."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest

from costlib.answers.calibration import calibration_answer
from costlib.binary.folds import MIN_CLASS_ROWS
from costlib.calibration import MIN_BIN_CASES, expected_calibration_error
from costlib.loading.preparing import prepare
from costlib.loading.samples import SAMPLES, sample_bytes
from costlib.present import calibration_group_words as gw
from costlib.present import calibration_words as cw
from costlib.present.chart_text import chart_text


def _frame(key: str) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(sample_bytes(key)))


def _answer(key: str, df: pd.DataFrame | None = None, mapping=None, *, model=None, volume=10_000.0):
    s = SAMPLES[key]
    ds = prepare(_frame(key) if df is None else df, mapping or s.mapping, name=s.filename, fingerprint=key)
    model = model or next(iter(ds.scores))
    names = sorted({str(g) for g in ds.groups}) if ds.groups is not None else [""]
    costs = {g: (1.0, 2.0) for g in names}
    return calibration_answer(ds, model, names=names, costs=costs, unit="$", volume=volume)


@pytest.fixture(scope="module")
def compas():
    return _answer("compas").at(10)


def test_compas_shows_each_race_groups_calibration_as_computed_on_its_test_rows(compas):
    df = _frame("compas")
    test = df[df["split"] == "test"]
    groups = compas.groups
    assert groups is not None
    table = groups.table.set_index(gw.GROUP_TABLE["group"])
    assert sorted(table.index) == sorted(test["race"].unique())
    for race, rows in test.groupby("race"):
        want = expected_calibration_error(rows["two_year_recid"], rows["p_recid"], n_bins=10)
        assert table.loc[race, gw.GROUP_TABLE["error"]] == cw.error(want)
        assert table.loc[race, gw.GROUP_TABLE["cases"]] == f"{len(rows):,}"
        low, high = (float(x.replace("\u2212", "-")) for x in table.loc[race, gw.GROUP_TABLE["interval"]].split(" to "))
        assert 0.0 <= low <= high
    errors = {race: float(table.loc[race, gw.GROUP_TABLE["error"]]) for race in table.index}
    worst = max(errors, key=errors.get)
    assert groups.sentence.startswith(f"The scores are least calibrated for {worst}")
    assert "noise" in groups.sentence
    assert "1,000 times" in groups.method and "seeded" in groups.method
    # one line per group, told apart by marker shape and dash as well as colour
    lines = [t for t in groups.figure.data if t.name in errors]
    assert len(lines) == len(errors)
    assert len({t.marker.symbol for t in lines}) == len(lines) and len({t.line.dash for t in lines}) == len(lines)


def test_data_without_groups_has_no_group_section():
    assert _answer("offensive").at(10).groups is None


def test_a_tiny_group_reads_too_few_cases_not_a_number():
    df = _frame("compas")
    tiny = df[(df["split"] == "test")].head(MIN_CLASS_ROWS + 5).copy()
    tiny["race"] = "Tiny"
    shown = _answer("compas", pd.concat([df, tiny], ignore_index=True)).at(10)
    row = shown.groups.table.set_index(gw.GROUP_TABLE["group"]).loc["Tiny"]
    assert row[gw.GROUP_TABLE["error"]] == gw.TOO_FEW
    assert not re.search(r"\d", "".join(row[[gw.GROUP_TABLE["interval"], gw.GROUP_TABLE["chance"]]]))
    assert "Too few test cases to read: Tiny" in shown.groups.sentence
    assert "Tiny" not in [t.name for t in shown.groups.figure.data]


def test_a_bin_of_a_handful_of_cases_is_drawn_apart_and_every_bin_says_its_count():
    """Screening's calibrated model: its last bin of 10 holds a handful of cases, all negative;
    on the line it read as a fall to 0 (severe miscalibration)."""
    shown = _answer("screening", model="score_calibrated").at(10)
    df = _frame("screening")
    test = df[df["split"] == "test"]
    p = test["score_calibrated"].to_numpy()
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], p, side="left"), minlength=10)
    counts = counts[counts > 0]
    assert counts.min() < MIN_BIN_CASES  # the sample has such a bin
    line, small = shown.figure.data[1], shown.figure.data[2]
    assert line.name == "score_calibrated, as given" and "under" in small.name
    assert len(line.x) == int((counts >= MIN_BIN_CASES).sum()) and len(small.x) == int((counts < MIN_BIN_CASES).sum())
    assert small.marker.symbol.endswith("-open") and small.mode == "markers"
    table = chart_text(shown.figure).table
    said = table[table["series"] == "score_calibrated, as given"]["label"].tolist()
    assert said == [f"{n:,} cases" for n in counts[counts >= MIN_BIN_CASES]]
    # each point names its line: the chart's words list the small bands of every line together (review 56)
    assert all(x.startswith("score_calibrated, as given: ") and x.endswith("too few to read")
               for x in table[table["series"] == small.name]["label"])  # fmt: skip
    assert shown.note is not None and f"fewer than {MIN_BIN_CASES} cases" in shown.note


def test_the_worth_reads_in_the_users_unit_per_case_and_a_month():
    shown = _answer("screening", volume=10_000.0).at(10)
    assert "Handing every case over is worth $0.00 per case ($0.00 a month)." in shown.caption
    for column in shown.table.columns[[1, 3]]:
        assert all(re.fullmatch(r"−?\$[\d.,]+ per case \(−?\$[\d.,]+ a month\)", x) for x in shown.table[column])


JARGON = ("temperature", "T =", "ECE", "Brier", "bins", "judged rows", "τ*", "log-odds", "squared")


@pytest.mark.parametrize("model", ["score_calibrated", "score_overconfident"])
def test_what_a_product_manager_reads_first_is_plain_and_each_term_is_explained_once(model):
    shown = _answer("screening", model=model).at(10)
    first = [shown.verdict.headline, *(m["label"] for m in shown.metrics)]
    for term in JARGON:
        assert not any(term.lower() in x.lower() for x in first), (term, first)
    later = " ".join(
        [*shown.verdict.details, *shown.verdict.asides, *(m.get("help") or "" for m in shown.metrics), shown.caption]
    )
    later += cw.BINS_HELP
    # τ* is no longer named at all: the cutoff is said in words (review 71)
    for term in ("temperature scaling", "T ", "ECE", "Brier", "bins", "judged rows"):
        assert term.lower() in later.lower(), term


def _groups(off_by: float, sizes=(3000, 3000), seed=0):
    """Two groups, "a" calibrated and "b" with scores `off_by` too low everywhere."""
    from costlib.calibration import group_calibration

    rng = np.random.default_rng(seed)
    p = rng.uniform(0.1, 0.8, sum(sizes))
    g = np.repeat(["a", "b"], sizes)
    truth = np.where(g == "b", p + off_by, p)
    return group_calibration((rng.random(p.size) < truth).astype(int), p, g, n_bins=10, n_resamples=300)


def test_the_group_sentence_says_beyond_the_noise_only_when_it_is():
    beyond = gw.group_sentence(_groups(0.15), MIN_CLASS_ROWS)
    assert beyond.startswith("The scores are least calibrated for b: calibration error 0.1")
    assert "that gap of 0.1" in beyond and "is beyond the noise" in beyond
    within = gw.group_sentence(_groups(0.0), MIN_CLASS_ROWS)
    assert "is within the noise" in within and "beyond" not in within
    assert within.count(".") >= 1 and "; that gap" in within  # one sentence: the group and the verdict on its gap


def test_the_group_sentence_with_one_or_no_group_large_enough():
    one = gw.group_sentence(_groups(0.0, sizes=(3000, 30)), MIN_CLASS_ROWS)
    assert one.startswith("Only a has enough test cases to read") and "too few" in one
    none = gw.group_sentence(_groups(0.0, sizes=(30, 30)), MIN_CLASS_ROWS)
    assert none == gw.NO_GROUP_READ.format(least=MIN_CLASS_ROWS, cases="test cases")


def test_the_plain_verdict_calls_a_calibrated_model_so_and_a_miscalibrated_one_so():
    """tests/present/test_words.py's two verdict tests, on the page's plain verdict: a calibrated
    sample of 300 rows is rarely called miscalibrated; scores 0.15 too high everywhere are."""
    from costlib.calibration import calibration_advice, ece_by_chance

    rng = np.random.default_rng(0)
    runs, warned = 200, 0
    for _ in range(runs):
        p = rng.random(300)
        y = (rng.random(300) < p).astype(int)
        ece, chance = expected_calibration_error(y, p, n_bins=10), ece_by_chance(p, n_bins=10)
        v = cw.calibration_verdict("m", calibration_advice(1.0, ece, ece, chance), 1.0, "validation", ece, ece, chance)
        warned += v.kind == "warning"
    assert warned / runs < 0.1
    p = rng.random(2000)
    y = (rng.random(2000) < np.clip(p - 0.15, 0, 1)).astype(int)
    ece, chance = expected_calibration_error(y, p), ece_by_chance(p)
    v = cw.calibration_verdict("m", calibration_advice(1.0, ece, ece, chance), 1.0, "validation", ece, ece, chance)
    assert ece > chance and v.kind == "warning" and "not calibrated" in v.headline
    assert f"up to {cw.error(chance)} on these cases by chance" in v.headline


#: the rescaling's precise name and symbol: a first-time reader meets "rescaling" and "rescaling number";
#: "temperature scaling" and T are named only in a metric's help and in the box of technical terms
RESCALING_JARGON = ("temperature", "T =", "T)")


def _said_outside_the_help(ds, model: str) -> list[str]:
    """Every text of the Calibration page and the Value page's calibration section that is not a
    metric's help or the box of technical terms: the answer, the warning, the captions, the tables'
    headers and cells, the diagram's titles and legend, and the advice line Value and Costs show."""
    from costlib.answers.calibration import calibration_advice_line
    from costlib.answers.value_sections import calibrated_sweeps, value_calibration_table, value_sweeps
    from costlib.present import value_words as vw
    from costlib.present.labels import NO_SPLIT_TO_CALIBRATE

    names = sorted({str(g) for g in ds.groups}) if ds.groups is not None else [""]
    answer = calibration_answer(ds, model, names=names, costs={g: (1.0, 2.0) for g in names}, unit="$", volume=1e4)
    shown = answer.at(10)
    fig = shown.figure
    said = [cw.TERMS_TITLE, answer.warning or "", answer.money, answer.picked or "", shown.caption, shown.note or ""]
    said += [shown.verdict.headline, *shown.verdict.details, *(m["label"] for m in shown.metrics)]
    said += [*map(str, shown.table.columns), *map(str, shown.table.to_numpy().ravel())]
    said += [fig.layout.title.text, *(tr.name or "" for tr in fig.data)]
    said += [cw.same_rows_warning(split=s, test_rows=t) for s, t in ((False, False), (True, False), (True, True))]
    said += [NO_SPLIT_TO_CALIBRATE, calibration_advice_line(ds, model) or "", vw.CALIBRATION_VALUE_NOTE]
    said += [vw.no_calibration_note(split=s, test_rows=t) for s, t in ((False, False), (True, False), (True, True))]
    table = value_calibration_table(calibrated_sweeps(ds), value_sweeps(ds), k=2.0, reject_value=0.0, worth=1.0)
    return said + [str(c) for c in table.columns]


@pytest.mark.parametrize("split", [True, False])
def test_the_rescaling_is_said_in_plain_words_outside_the_help_and_the_terms_box(split):
    """Review (a first-time product manager): "temperature" read on the Calibration page's
    warnings, the diagram's legend ("rescaled (T = 0.85)"), the Value page's calibration note and
    its table's header, and the advice line on Value and Costs. Now "the rescaling" and "rescaling
    number", fitted on held-out rows; the precise term stays in the help and the terms box."""
    from dataclasses import replace

    s = SAMPLES["screening"]
    mapping = s.mapping if split else replace(s.mapping, split=None)
    ds = prepare(_frame("screening"), mapping, name=s.filename, fingerprint=f"screening-{split}")
    said = _said_outside_the_help(ds, "score_overconfident")
    found = [(term, x) for x in said for term in RESCALING_JARGON if term.lower() in x.lower()]
    assert not found, found
    assert any("rescaling number" in x.lower() for x in said)
