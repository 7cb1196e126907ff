"""First-time user review 70 of Train with costs, on the offensive-language sample's precomputed result.

1. The headline said "Not clearly better ... the 95% interval of the saving over 10 seeds, −1.7% to +18.4% of
   the cost, includes zero, so it could be chance" of price regression, while the change chart marked it
   "cheaper beyond the noise" and the table read "−8.3% ... 95% interval −15.8% to −0.9%": the headline read the
   interval held for picking the cheapest of six ways, the chart and the table each way's own. Now the verdict,
   the chart and the table read one interval per way (`training_words.held_interval` of
   `training.summary.held_for_pick`), as one reading: a change in cost, negative is cheaper.
2. "costliest 88% (30% asked)", "(50% asked)", "(70% asked)": three ways that read alike, "asked" unexplained,
   and the 70% one another model. Each now says what it does and reads apart where it differs.
3. "$0.0048 per case, $47.65 a month" beside "$572 a month" and "$524 a month": amounts a month at one precision.
"""

from __future__ import annotations

import re

import pytest

from costlib import answers
from costlib.present import training_page, training_words
from costlib.training.data import tweets_precomputed

VOLUME = 10_000


@pytest.fixture(scope="module")
def answer():
    pre = tweets_precomputed()
    assert pre is not None, "the shipped precomputed result must match the shipped tweets sample"
    return answers.training_answer(
        pre.results, pre.predictability["r2"], methods=tuple(pre.settings["methods"]), price=1.0, unit="$",
        volume=VOLUME,
    )  # fmt: skip


def _change_points(answer) -> dict[str, tuple[str, float, float, float]]:
    """{way's short name: (its mark's legend name, change, low, high)} read off the change chart, in percent."""
    out = {}
    for trace in answer.change_chart.data:
        err = trace.error_x
        for i, (y, x) in enumerate(zip(trace.y, trace.x, strict=True)):
            out[y] = (trace.name, float(x), float(x) - float(err.arrayminus[i]), float(x) + float(err.array[i]))
    return out


def _percent(text: str) -> float:
    return float(text.replace("\u2212", "-").replace("+", "").rstrip("%"))


def test_the_headline_the_chart_and_the_table_give_one_verdict_on_one_interval(answer):
    head = answer.verdict.headline
    assert head.startswith("Not clearly better"), head
    # the headline: the change of the closest way and the 95% interval of that change, as the chart reads them
    mid = re.search(r"a change in cost of (\S+?%)", head).group(1)
    low, high = re.search(r"interval of that change over 10 seeds, (\S+%) to (\S+%), includes zero", head).groups()
    assert "saving over" not in head and "of the cost, includes zero" not in head  # one reading: a change in cost
    # the chart: price regression's mark is not "beyond the noise", at the headline's numbers
    name, change, c_low, c_high = _change_points(answer)["regression"]
    assert name == training_page.CHANGE_NAMES[2], name  # "not told apart from standard training"
    assert (round(change, 1), round(c_low, 1), round(c_high, 1)) == (_percent(mid), _percent(low), _percent(high))
    # the table: the same change and the same interval, in the same words but for the "+" a spreadsheet would read
    table = answer.summary_table.set_index("way of training")
    row = table.loc["price regression"]
    assert row["cost change (− cheaper)"] == mid
    assert row[training_page.CHANGE_INTERVAL_COLUMN] == f"{low} to {high.lstrip('+')}"


def test_no_mark_says_beyond_the_noise_on_an_interval_the_verdict_does_not_read(answer):
    held = training_words.held_interval(answer.summary).set_index("method")
    cheaper, costlier, apart = training_page.CHANGE_NAMES
    for short, (name, _, low, high) in _change_points(answer).items():
        method = next(m for m in held.index if training_page.method_short(m, answer.shares) == short)
        want = 100 * held.loc[method, [training_words.HELD_LOW, training_words.HELD_HIGH]]
        assert (low, high) == pytest.approx(tuple(want)), short
        assert name == (cheaper if high < 0 else costlier if low > 0 else apart), short
    # the verdict's count of ways that cost more beyond the noise is the chart's count of such marks
    marked = sum(1 for name, *_ in _change_points(answer).values() if name == costlier)
    said = next(d for d in answer.verdict.details if "cost more than standard training beyond the noise" in d)
    assert said.startswith(f"{marked} of the 6 ways"), said
    assert "widened for picking among 6" in answer.change_chart.layout.xaxis.title.text
    assert training_words.picked_sentence(6) in answer.verdict.details
    # the CSV keeps both intervals under names that say which is which
    export = answer.summary_export.columns.tolist()
    assert "change low, held for the pick" in export and "change low, this way alone" in export


def test_the_ways_of_keeping_the_costliest_cases_read_apart_and_say_what_they_do(answer):
    shorts = [training_page.method_short(m, answer.shares) for m in ("tdown30", "tdown50", "tdown70")]
    fulls = [training_page.method_label(m, answer.shares) for m in ("tdown30", "tdown50", "tdown70")]
    assert shorts == ["top 30% + ties: 88.0% kept", "top 50% + ties: 88.0% kept",
                      "top 70% + ties: 88.2% kept"]  # fmt: skip
    assert len(set(shorts)) == len(set(fulls)) == 3
    for text in (*shorts, *fulls, training_page.methods_help(list(answer.shares), answer.shares), *answer.notes):
        assert "asked" not in text, text
    # the two that are one model are said to be, once, by the names the chart gives them
    (note,) = answer.notes
    assert note.startswith(f"“{shorts[0]}” and “{shorts[1]}” keep the same rows in every seed: the same model"), note
    assert shorts[2] not in note


def test_the_headlines_amounts_a_month_read_at_one_precision(answer):
    head = answer.verdict.headline
    months = re.findall(r"(\$[\d,.]+) a month", head)
    assert months == ["$572", "$524", "$48"], head  # was $47.65 beside $572 and $524
    assert "$0.0048 per case" in head  # the per-case amounts as the table's cost per case reads them
    table = answer.summary_table.set_index("way of training")
    assert table.loc["standard training", "cost per case"] == "$0.0572"
    assert table.loc["price regression", "cost per case"] == "$0.0524"


def test_a_verdict_of_could_be_chance_leaves_no_way_cheaper_beyond_the_noise_on_the_chart_or_the_table(answer):
    """Read without the headline's words: the verdict ships nothing, so no mark on the chart says "cheaper beyond
    the noise", and the table's interval of the way it names reaches 0."""
    assert answer.verdict.kind == "warning"
    assert "cheaper beyond the noise" not in [trace.name for trace in answer.change_chart.data]
    cell = answer.summary_table.set_index("way of training").loc["price regression", "95% interval"]
    low, high = (_percent(x) for x in cell.split(" to "))
    assert low < 0 < high, cell
