"""A product manager whose team can review 2,000 cases a month sets that limit on Costs, reads the
answer within it and the price of capacity, reads the chart against cases flagged a month, and
shares the link; on Value, people can take only so many hand-overs."""

from __future__ import annotations

import pytest
from e2e_support import alert_texts, chart_titles, full_screenshot, goto, nav, set_number, step, wait_for_url
from test_journeys_costs import VOLUME, answer, sample_model

from costlib import answers
from costlib.binary import decision
from costlib.binary.capacity import limit_facts, price_of_capacity
from costlib.present import capacity_words

pytestmark = pytest.mark.browser


def _expected(cap: int):
    ms = sample_model("compas", "p_recid")
    share = cap / VOLUME
    rec = decision.recommend(ms, (1.0, 3.0), n_resamples=1000, capacity=share)
    free = decision.recommend(ms, (1.0, 3.0), n_resamples=1000)
    price = price_of_capacity(ms, rec.prices, share)
    limit = limit_facts({"p_recid": ms}, rec, free)
    return (
        answers.costs_verdict(rec, ms, unit="$", volume=VOLUME).headline,
        *capacity_words.limit_sentences(rec, free, limit, price, volume=VOLUME, unit="$"),
    )


def test_a_team_of_a_known_size_gets_one_answer_within_it_and_the_price_of_capacity(page, app_url):
    goto(page, app_url + "/")
    nav(page, "Costs & groups")
    page.get_by_text(capacity_words.CAP_TOGGLE, exact=True).click()
    step(page, "after turning the review limit on")
    set_number(page, capacity_words.CAP_LABEL, 2000)
    headline, within, price = _expected(2000)
    assert answer(page) == headline
    shown = "\n".join(alert_texts(page)) + page.locator('[data-testid="stMarkdown"]').all_inner_texts().__str__()
    assert within in shown
    assert price in "\n".join(page.locator('[data-testid="stMarkdown"]').all_inner_texts())
    assert any(t.startswith("Cost against review capacity") for t in chart_titles(page))
    full_screenshot(page, "capacity_costs")
    page.get_by_text(capacity_words.X_AS_FLAGGED, exact=True).click()
    step(page, "after reading the x axis as cases flagged a month")
    assert page.locator(".xtitle", has_text="cases flagged a month").count() == 1
    full_screenshot(page, "capacity_costs_flagged_axis")
    url = wait_for_url(page, r"cap=2000")
    assert "cap_on=true" in url

    # the link, opened by someone else, gives the same answer within the same limit
    other = page.context.new_page()
    other.set_viewport_size({"width": 1400, "height": 1000})
    goto(other, url)
    step(other, "the shared link")
    assert answer(other) == headline
    assert within in "\n".join(alert_texts(other))
    other.close()


def test_on_value_people_can_take_only_so_many_hand_overs(page, app_url):
    goto(page, app_url + "/")
    nav(page, "Value")
    page.get_by_text(answers.VALUE_CAP_LABEL, exact=True).first.click()
    step(page, "after turning the hand-over limit on")
    full_screenshot(page, "capacity_value")
    texts = "\n".join(alert_texts(page))
    assert "cases a month" in texts, texts
