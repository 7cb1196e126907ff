"""Watch gives one cutoff to ship: the refit on the latest periods with outcomes when, judged on
cases it was not fitted on, it saves beyond the noise; else the shipped cutoff moved to the base
rate the latest period's scores suggest; else the shipped cutoff. The other candidate is said as
the alternative not chosen, and each amount says what it compares, per case and a month."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from costlib.answers.watch import (
    SAMPLE_COLUMNS,
    refit_inputs,
    sample_inputs,
    ship_choice,
    watch_answer,
    what_to_ship,
)
from costlib.present.watch_words import CHOICE_KEEP, CHOICE_REFIT, CHOICE_SHIFT, refit_saving, watch_verdict
from costlib.present.words import cutoffs_text

SHIPPED = 0.25


def _period(name, *, alert, measured, best=0.4, assumption="holds"):
    """A period of a watch report, as `watch_report` writes it, with what the rule reads."""
    p = {
        "period": name,
        "n": 1000,
        "labelled": 1000 if measured else 0,
        "alert": alert,
        "measured": measured,
        "regret_per_case": 0.05,
        "regret_interval": [0.02, 0.08] if alert else [-0.01, 0.03],
        "best_threshold": {"everyone": best},
    }
    if not measured:
        p |= {
            "assumption": assumption,
            "assumption_p_value": 0.5,
            "outcomes_to_tell": 120,
            "readings": {
                "label_shift": {"base_rate": 0.1, "refit_cutoffs": {"everyone": best}},
                "calibrated": {"base_rate": 0.3, "cost_per_case": 0.3},
            },
        }
    return p


def _report(*periods):
    return {"freq": "M", "policy": {"cutoffs": {"everyone": SHIPPED}}, "periods": list(periods)}


def _refit(*, alert, best=0.45, regret=0.04):
    """A stand-in for `answers.watch.Refit`: its rows (3,000) and its honest judgement."""
    low, high = (0.01, 0.07) if alert else (-0.02, 0.1)
    judged = SimpleNamespace(regret=regret, low=low, high=high, best={"everyone": best}, alert=alert, no_model=None)
    return SimpleNamespace(judged=judged, frame=range(3000), span="2026-01 to 2026-03")


def test_nothing_alerts_keep_the_shipped_cutoff_and_say_nothing_to_ship():
    report = _report(_period("2026-01", alert=False, measured=True))
    choice = ship_choice(report, None)
    assert choice.kind == CHOICE_KEEP and choice.cutoffs == {"everyone": SHIPPED} and choice.alternative is None
    assert what_to_ship(report, {}) == ()


def test_a_refit_beyond_the_noise_is_shipped_and_the_base_rate_shift_is_the_alternative_not_chosen():
    report = _report(_period("2026-03", alert=True, measured=True), _period("2026-04", alert=True, measured=False))
    refit = _refit(alert=True)
    choice = ship_choice(report, refit)
    assert (choice.kind, choice.cutoffs) == (CHOICE_REFIT, {"everyone": 0.45})
    assert (choice.alternative, choice.alternative_cutoffs) == (CHOICE_SHIFT, {"everyone": 0.4})
    ship, other = what_to_ship(report, {"volume": 2000}, refit, unit="$")
    # 0.040 per case x 2,000 cases a month = $80 a month: whole dollars, a step of $0.001 a case is $2 a month
    assert ship.startswith("What to ship instead: flag a case when its score is at least 0.45, the refit on the 3,000")
    assert "Refitting on them saves $0.040 per case ($80 a month) over keeping the shipped cutoff" in ship
    assert refit_saving(refit.judged, unit="$", volume=2000) in ship
    assert other.startswith("Not chosen: flag a case when its score is at least 0.4, the shipped cutoff moved to")
    assert "rests on the scores alone" in other and "0.45" not in other


def test_a_refit_within_the_noise_gives_way_to_the_shift_and_is_said_as_not_chosen():
    report = _report(_period("2026-03", alert=True, measured=True), _period("2026-04", alert=True, measured=False))
    choice = ship_choice(report, _refit(alert=False))
    assert (choice.kind, choice.cutoffs, choice.alternative) == (CHOICE_SHIFT, {"everyone": 0.4}, CHOICE_REFIT)
    ship, other = what_to_ship(report, {}, _refit(alert=False), unit="$", volume=1000)
    # the shift's estimated saving: 0.050 per case x 1,000 cases a month, to the dollar ($0.001 a case is $1)
    assert ship.startswith("What to ship instead: flag a case when its score is at least 0.4, the shipped cutoff")
    assert "it saves $0.050 per case ($50 a month) over keeping the shipped cutoff" in ship
    assert "if the cases changed and the scores still match how often cases turn out positive (about 30.0%" in ship
    assert other.startswith("Not chosen: flag a case when its score is at least 0.45, the refit on the 3,000 cases")
    assert "within the noise (95% interval of the saving −$0.02 to $0.10 per case)" in other


def test_without_outcomes_the_shift_is_shipped_alone():
    report = _report(_period("2026-04", alert=True, measured=False))
    choice = ship_choice(report, None)
    assert (choice.kind, choice.alternative) == (CHOICE_SHIFT, None)
    (ship,) = what_to_ship(report, {}, unit="$")
    assert "Label a sample of 2026-04: the outcomes of 120 of its cases" in ship


def test_a_refit_within_the_noise_and_no_shift_keeps_the_cutoff_and_says_why():
    report = _report(_period("2026-03", alert=True, measured=True))  # measured: no shift to read from scores
    choice = ship_choice(report, _refit(alert=False))
    assert (choice.kind, choice.cutoffs, choice.alternative) == (CHOICE_KEEP, {"everyone": SHIPPED}, CHOICE_REFIT)
    (said,) = what_to_ship(report, {}, _refit(alert=False), unit="$")
    assert said.startswith("Nothing to ship instead yet: the refit on the 3,000 cases with outcomes of 2026-01 to")
    assert "within the noise" in said


def test_a_refit_within_the_noise_makes_the_headline_say_keep_not_refit():
    report = _report(_period("2026-03", alert=True, measured=True))
    before = watch_verdict(report, unit="$")  # the refit not weighed yet
    assert before.headline.startswith("Refit: since 2026-03") and before.kind == "error"
    keep = watch_verdict(report, unit="$", choice=ship_choice(report, _refit(alert=False)))
    assert keep.headline.startswith("Keep the cutoff until more outcomes are in: since 2026-03 the shipped cutoff")
    assert "a cutoff refitted on the cases with outcomes does not yet save more than chance explains" in keep.headline
    assert keep.kind == "warning" and not keep.headline.lower().startswith("refit")
    shipping = watch_verdict(report, unit="$", choice=ship_choice(report, _refit(alert=True)))
    assert shipping.headline.startswith("Refit: since 2026-03") and shipping.kind == "error"


def test_scores_that_fit_no_change_of_the_base_rate_offer_no_shift():
    report = _report(_period("2026-04", alert=True, measured=False, assumption="fails"))
    assert ship_choice(report, None).kind == CHOICE_KEEP and what_to_ship(report, {}) == ()


@pytest.fixture(scope="module")
def sample():
    policy, df = sample_inputs()
    answer = watch_answer(
        policy, df, name="the built-in year", columns=dict(SAMPLE_COLUMNS), freq="M", n_resamples=200, unit="$"
    )
    return policy, df, answer, answer.refit(None)


def test_the_built_in_year_ships_the_refit_and_says_the_shift_once_as_not_chosen(sample):
    policy, df, answer, refit = sample
    choice = answer.ship(refit)
    assert choice.kind == CHOICE_REFIT and choice.cutoffs == refit.judged.best
    ship, other = answer.ship_words(refit)
    rule, shift = cutoffs_text(refit.judged.best, grouped=True), cutoffs_text(choice.alternative_cutoffs, grouped=True)
    assert rule != shift  # two candidates: one shipped, one not chosen
    assert ship.startswith(f"What to ship instead: {rule}, the refit on the") and shift not in ship
    assert other.startswith(f"Not chosen: {shift}, the shipped cutoff moved to the share of positive cases")
    assert rule not in other
    said = " ".join(answer.verdict.details)  # the details name no other cutoff to ship
    assert "What to ship" not in said and shift not in said and rule not in said
    # the refit's chart labels its star as the cutoff to ship
    star = [t for t in answer.refit_figure(refit).data if t.name and "refit" in t.name]
    assert star and all(text.startswith("refit, to ship ≥ ") for t in star for text in t.text)


def test_the_built_in_years_amounts_say_per_case_beside_the_month_once_for_each_idea(sample):
    policy, df, answer, refit = sample
    report = answer.report
    since = [p for p in report["periods"] if p["period"] >= "2026-07"]
    assert all(p["alert"] for p in since)
    # what the shipped cutoff has cost since 2026-07 against each month's own best, per case and a month
    per_case = sum(p["regret_per_case"] * p["n"] for p in since) / sum(p["n"] for p in since)
    from costlib.present.amounts import money, month_money

    headline = watch_verdict(report, unit="$").headline
    # no sidebar: a month is the policy's cases a month, the volume its what-to-ship line is at too
    month = policy["volume"]
    said = f"about {money(per_case, '$')} per case more ({month_money(per_case * month, '$')} a month at the policy's"
    assert said in headline
    # the page: one volume, the sidebar's, named in the headline (review 140)
    mine = answer.verdict_for(refit, 10000).headline
    shown = float(money(per_case, "$").lstrip("$"))  # a month is the amount as shown times the cases (review 74)
    assert f"{money(per_case, '$')} per case more ({month_money(shown * 10000, '$')} a month at your 10,000" in mine
    # the estimated months are inside that run: their saving is not said a second time, a month apart
    assert not any("estimated to save about" in d for d in answer.verdict.details)
    again = refit_inputs(
        policy, df, name="the built-in year", columns=dict(SAMPLE_COLUMNS), report=report, n_resamples=200
    )
    assert what_to_ship(report, policy, again, unit="$") == answer.ship_words(refit)
