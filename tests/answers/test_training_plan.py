"""What the Train with costs page does on a run, decided in costlib (issue 40): whether the
precomputed fits are shown, which seeds are trained now, and how the finished ones are read."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from costlib.answers.training import finished_seeds, gather_seeds, training_plan

METHODS = ("standard", "weighted")
PRE = SimpleNamespace(settings={"methods": list(METHODS), "seeds": 3, "random_state": 0})


def _plan(choice="tweets", *, methods=METHODS, seeds=3, random_state=0, done=(), requested=False, stopped=False):
    loaded = []

    def load():
        loaded.append(choice)
        return PRE

    plan = training_plan(
        choice,
        methods,
        seeds,
        random_state,
        done=dict.fromkeys(done),
        requested=requested,
        stopped=stopped,
        load_precomputed=load,
    )
    return plan, loaded


def test_the_precomputed_fits_are_shown_for_their_own_settings_until_training_is_asked():
    plan, loaded = _plan()
    assert plan.precomputed is PRE and plan.todo == () and not plan.train and loaded == ["tweets"]
    asked, _ = _plan(requested=True, done=(0,))
    assert asked.precomputed is None and asked.todo == (1, 2) and asked.train
    for other in ({"seeds": 4}, {"methods": ("standard",)}, {"random_state": 1}):
        plan, _ = _plan(**other)
        assert plan.precomputed is None and not plan.train  # other settings: press Train and compare


@pytest.mark.parametrize("choice", ["predictable", "unpredictable"])
def test_the_synthetic_controls_train_without_asking_unless_stopped(choice):
    plan, loaded = _plan(choice, done=(1,))
    assert (plan.precomputed, plan.todo, plan.train) == (None, (0, 2), True)
    assert loaded == []  # only the shipped tweets have precomputed fits: nothing read
    stopped, _ = _plan(choice, stopped=True)
    assert stopped.todo == (0, 1, 2) and not stopped.train
    resumed, _ = _plan(choice, stopped=True, requested=True)
    assert resumed.train
    finished, _ = _plan(choice, done=(0, 1, 2))
    assert finished.todo == () and not finished.train  # nothing left to train


def test_an_upload_trains_only_when_asked():
    plan, loaded = _plan("upload")
    assert (plan.precomputed, plan.todo, plan.train, loaded) == (None, (0, 1, 2), False, [])
    assert _plan("upload", requested=True)[0].train


def test_the_finished_seeds_are_gathered_in_seed_order():
    def seed(s):
        return pd.DataFrame({"seed": [s, s], "method": list(METHODS)}), 0.1 * s

    done = {2: seed(2), 0: seed(0), 5: seed(5)}  # 5 is past the seeds asked now
    have = finished_seeds(done, 3)
    assert have == [0, 2]
    results, r2 = gather_seeds(done, have)
    assert results["seed"].tolist() == [0, 0, 2, 2] and list(results.index) == [0, 1, 2, 3]
    assert r2.tolist() == [0.0, 0.2]


def test_an_uploads_price_source_is_guessed_from_its_columns_votes_first():
    from costlib.answers.training import guessed_source
    from costlib.present.training_words import SOURCES

    def guess(**found):
        return SimpleNamespace(**{"votes_yes": None, "votes_no": None, "rating": None, "measurement": None, **found})

    assert guessed_source(guess(votes_yes="y", votes_no="n", rating="r")) == "annotator votes"
    assert guessed_source(guess(votes_yes="y", rating="r", measurement="z")) == "rating"  # one vote column: no
    assert guessed_source(guess(measurement="z")) == "measurement and threshold"
    assert guessed_source(guess()) == "price column"
    assert {guessed_source(guess()), guessed_source(guess(rating="r"))} <= set(SOURCES)
