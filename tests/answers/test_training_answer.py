"""The Train with costs page's answer object, on the precomputed tweets results: the verdict's
colour follows the intervals, the change chart needs standard training beside another way, and the
tables read the same seeds the summary does."""

from __future__ import annotations

import pandas as pd
import pytest

from costlib.answers.training import training_answer
from costlib.present import training_words
from costlib.training import data as training_data
from costlib.training.summary import HELD_HIGH, held_for_pick


@pytest.fixture(scope="module")
def pre():
    pre = training_data.tweets_precomputed()
    assert pre is not None
    return pre


def test_the_answer_summarises_the_seeds_it_was_given(pre):
    methods = tuple(pre.settings["methods"])
    answer = training_answer(pre.results, pre.predictability["r2"], methods=methods)
    assert set(answer.summary["method"]) == set(pre.results["method"])
    assert len(answer.results_table) == len(pre.results)
    held = held_for_pick(answer.summary)  # the verdict holds the pick among the ways (review 140)
    better = (held.loc[held["method"] != "standard", HELD_HIGH] < 0).any()
    own = (answer.summary.loc[answer.summary["method"] != "standard", "nec_change_high"] < 0).any()
    assert own and not better  # regression's own interval is a saving; picked among six, it is not clear
    assert answer.kind == ("success" if better else "warning")
    assert answer.change_chart is not None
    assert answer.r2 == f"{pd.Series(pre.predictability['r2']).mean():.2f}"
    assert answer.chart.layout.title.text == training_words.BARS_TITLE  # the page names the data


def test_without_standard_training_there_is_no_change_to_chart(pre):
    only = pre.results[pre.results["method"] != "standard"]
    methods = tuple(m for m in pre.settings["methods"] if m != "standard")
    answer = training_answer(only, pd.Series([float("nan")]), methods=methods)
    assert answer.change_chart is None
    assert answer.r2 == "n/a"


def test_the_precomputed_results_are_shown_only_for_their_own_settings(pre):
    from costlib.answers.training import precomputed_fits

    methods, seeds, state = tuple(pre.settings["methods"]), pre.settings["seeds"], pre.settings["random_state"]
    assert precomputed_fits(pre, methods, seeds, state)
    assert not precomputed_fits(pre, methods[:-1], seeds, state)
    assert not precomputed_fits(pre, methods, seeds + 1, state)
    assert not precomputed_fits(pre, methods, seeds, state + 1)
    assert not precomputed_fits(None, methods, seeds, state)
