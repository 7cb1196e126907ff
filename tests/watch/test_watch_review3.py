"""Watch as a product manager first reads it (review 3 of the Watch page): the alert drawn around
a period's point so that measured (filled) and estimated (hollow) still read, the periods' table
saying each cell in its own direction under a heading that fits both, plain words first (the
expert's term in brackets, command lines in details), and the refit's saving named apart from the
headline's amount."""

from __future__ import annotations

import re

import pytest

from costlib.answers.watch import SAMPLE_COLUMNS, sample_inputs, watch_answer
from costlib.present import watch_labels as w
from costlib.present.watch_words import NO_HELP, SAVES, WATCH_WHAT, honest, watch_table

#: words a first-time reader meets before any detail, allowed only inside brackets (the expert's term)
JARGON = (
    "beyond the noise",
    "cross-fitted",
    "base rate",
    "calibrated",
    "audit --policy",
    "costlib sign",
    "costlib apply",
    "--allow-unsigned",
)


def _outside_brackets(text: str) -> str:
    """`text` without what stands in brackets (nested too): there an expert's term may stay."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", text)
        if shorter == text:
            return text
        text = shorter


@pytest.fixture(scope="module")
def year():
    """The built-in year as the page answers it (fewer resamples than the page: marks and words are read)."""
    policy, df = sample_inputs()
    answer = watch_answer(
        policy, df, name="the built-in year", columns=SAMPLE_COLUMNS, freq="M", n_resamples=100, unit="$"
    )
    return answer


# ---------------------------------------------------------------------------------------
# Item 2: an alert drawn around the point, never over it


def test_an_alert_rings_the_point_so_measured_and_estimated_still_read(year):
    fig = year.figure
    shipped, *_ = fig.data
    (alert,) = [t for t in fig.data if t.name.startswith("alert")]
    periods = year.report["periods"]
    # the point: filled where measured, hollow where estimated
    assert list(shipped.marker.symbol) == ["circle" if p["measured"] else "circle-open" for p in periods]
    estimated_alerts = [p for p in periods if p["alert"] and not p["measured"]]
    assert estimated_alerts  # the built-in year: September to December alert on their estimates
    # the alert: an open ring (a shape of its own, not only red), wider than the point, at the point itself
    assert alert.marker.symbol.endswith("-open") and alert.marker.symbol != "x"
    assert alert.marker.size >= shipped.marker.size + 10
    at = dict(zip(shipped.x, shipped.y, strict=True))
    assert [at[x] for x in alert.x] == list(alert.y)
    assert list(alert.x) == [p["period"] for p in periods if p["alert"]]
    assert "ring" in alert.name  # the legend says the shape, not only the colour


# ---------------------------------------------------------------------------------------
# Item 3: one reading of the periods' saving column


def test_every_saving_cell_says_its_own_direction_under_a_heading_that_fits_both(year):
    table = watch_table(year.report, "$")
    assert SAVES.startswith("refitting saves")  # the heading says what the cells weigh: refitting (review 140)
    cells = table[SAVES].tolist()
    assert any(c.startswith("saves ") for c in cells) and any(c.startswith(NO_HELP) for c in cells)
    for cell in cells:
        if cell.startswith(NO_HELP):  # refitting costs more: said in plain words, never "its own best costs more"
            assert re.fullmatch(re.escape(NO_HELP) + r" \(\$[0-9.]+ more\)", cell), cell
            continue
        assert cell.startswith("saves $"), cell  # never a bare amount
        amount, low, high = (float(x.replace("−", "-").replace("$", "")) for x in re.findall(r"−?\$[0-9.]+", cell))
        assert low <= amount <= high, cell  # the interval of the cell's own direction holds its amount


# ---------------------------------------------------------------------------------------
# Item 4: plain words first


def test_what_is_read_first_says_no_jargon_outside_brackets(year):
    refit = year.refit(10000)
    verdict = year.verdict_for(refit)
    first = {
        "intro": WATCH_WHAT,
        "policy upload": w.POLICY_LABEL,
        "unsigned": w.UNSIGNED_ON_PAGE,
        "cases wanted": w.NEEDS_CASES_NOW,
        "watching now": getattr(w, "WATCHING_NOW", ""),  # new with this review: absent before
        "sample hidden": getattr(w, "SAMPLE_HIDDEN", ""),
        "headline": verdict.headline,
        "what to ship": year.ship_words(refit, 10000)[0],
        **{f"legend {i}": t.name for i, t in enumerate(year.figure.data)},
    }
    said = [(where, word) for where, text in first.items() for word in JARGON if word in _outside_brackets(text)]
    assert said == []
    assert "beyond the noise" not in verdict.headline  # the plain words say it: "by more than chance explains"
    # the details say what the table says when refitting costs more, with no expert's term (review 140)
    assert "cross-fitted" not in honest("month") and "would not have helped" in honest("month")


# ---------------------------------------------------------------------------------------
# Item 5: two amounts, each named


def test_the_refits_saving_is_named_apart_from_the_headlines_amount(year):
    refit = year.refit(10000)
    headline = year.verdict_for(refit).headline
    line = year.ship_words(refit, 10000)[0]
    assert "than each month's own best cutoff would have" in headline  # each month against its own best
    # the refit: one cutoff for all its months, said to differ from each month's own best
    assert f"the saving of one cutoff kept for all of {refit.span}; the amount in the answer above is another" in line
    assert "what each month would have saved with its own best cutoff" in line


# ---------------------------------------------------------------------------------------
# Item 1: which cutoff "What Costs & groups recommends now" watches


def test_the_recommended_cutoff_is_said_with_its_data_model_and_rule():
    policy = {"data": {"name": "Recidivism risk (COMPAS)"}, "model": "p_recid", "thresholds": {"everyone": 0.3}}
    shipped = w.current_watched({**policy, "verdict": "ship the model"}, "Data")
    assert shipped.startswith('The cutoff to watch: what Costs & groups recommends now for "Recidivism risk (COMPAS)"')
    assert "the data chosen in the sidebar's Data list (or uploaded on the Data page)" in shipped
    assert shipped.endswith('at your prices: model "p_recid", flag a case when its score is at least 0.3.')
    # no model shipped: the choice without it, and the model's verdict
    kept = w.current_watched(
        {**policy, "thresholds": {"everyone": float("-inf")}, "verdict": "not clearly better"}, "Data"
    )
    assert kept.endswith('at your prices: flag everyone, without the model (model "p_recid": not clearly better).')
    randomly = w.current_watched({**policy, "random_share": 0.1, "verdict": "ship the model"}, "Data")
    assert randomly.endswith("at your prices: flag a random 10.0% of the cases, without the model.")


def test_the_recommended_cutoff_on_a_fallback_sample_is_not_called_the_sidebars_choice():
    """Review 72: with "Support tickets (3 classes)" in the sidebar, Costs & groups answers for the
    COMPAS sample, and Watch called that sample "the data chosen in the sidebar's Data list"."""
    policy = {"data": {"name": "Recidivism risk (COMPAS)"}, "model": "p", "thresholds": {"everyone": 0.3}}
    policy["verdict"] = "ship the model"
    said = w.current_watched(policy, "Data", chosen="Support tickets (3 classes)", answerable=False)
    assert "the data chosen in the sidebar's Data list (or" not in said
    assert '"Recidivism risk (COMPAS)" is not the data chosen in the sidebar\'s Data list, "Support tickets' in said
    assert "Costs & groups cannot answer for that data (it needs a label with two values" in said
    assert said.endswith("so it answers for this built-in sample instead.")
    earlier = w.current_watched(policy, "Data", chosen="Screening", answerable=True)
    assert earlier.endswith(": this is the cutoff of your last inputs, as Costs & groups recommended it then.")
    same = w.current_watched(policy, "Data", chosen="Recidivism risk (COMPAS)")
    assert "the data chosen in the sidebar's Data list (or uploaded on the Data page)" in same
