"""The dashboard's settings as one value (`costlib.core.link.Settings`): a link read and written
back gives the same settings, old links still open to theirs, a refused value gets the sentence
the pages have always said, and the link's key names are spelled in one table only."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from costlib.core import settings
from costlib.core.link import Settings, link_key, link_text
from costlib.core.settings import LINK_KEYS, MAX_GROUPS, RESAMPLE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def typed(low: float, high: float, smallest: float = 0.0):
    """A number a person types: at most 15 significant digits (what the link keeps), within
    [low, high], 0 or at least `smallest` in size."""
    return (
        st.floats(low, high, allow_nan=False)
        .map(lambda x: float(f"{x:.15g}"))
        .filter(lambda x: low <= x <= high and (x == 0 or abs(x) >= smallest))
    )


def bounded(bound: settings.Bound):
    if bound.integer:
        return st.integers(int(bound.low), int(bound.high))
    return typed(bound.low, bound.high, bound.smallest)


PRICE = bounded(settings.PRICE)
TEXT = st.text(max_size=30)
UNIT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2000), max_size=settings.UNIT_MAX_CHARS)


def trimmed(pairs: list) -> tuple:
    while pairs and pairs[-1] == (None, None):
        pairs.pop()
    return tuple(pairs)


LINKED = st.builds(
    Settings,
    c_fp=PRICE,
    c_fn=PRICE,
    per_group=st.booleans(),
    group_prices=st.lists(st.tuples(st.none() | PRICE, st.none() | PRICE), max_size=MAX_GROUPS).map(trimmed),
    unit=UNIT,
    volume=bounded(settings.VOLUME),
    review_limit_on=st.booleans(),
    review_limit=bounded(settings.CAPACITY),
    handover_limit_on=st.booleans(),
    handover_limit=bounded(settings.CAPACITY),
    resamples=st.sampled_from(RESAMPLE_OPTIONS),
    fairness=st.none() | st.booleans(),
    tolerance=bounded(settings.TOLERANCE),
    reference_group=st.none() | TEXT,
    k=st.none() | typed(settings.K.low, settings.K.high),
    worth=bounded(settings.GAIN),
    handover_worth=bounded(settings.REJECT_WORTH),
    details=st.booleans(),
    data=st.none() | TEXT,
    model=st.none() | TEXT,
    bins=bounded(settings.BINS),
    cutoff=st.none() | typed(-1e6, 1e6),
    matrix=st.none() | TEXT,
    handover_allowed=st.booleans(),
    handover_price=PRICE,
    train_data=st.none() | TEXT,
    train_methods=st.none() | st.lists(st.text(min_size=1, max_size=10), max_size=7).map(tuple),
    train_seeds=bounded(settings.SEEDS),
)


@hyp_settings(max_examples=300, deadline=None)
@given(LINKED)
def test_a_link_read_back_gives_the_same_settings(s):
    link = s.to_link()
    back, notes = Settings.from_link(link)
    assert notes == []
    assert back == s and back.key() == s.key()
    # the link's text is what Streamlit's query parameters hold: the same settings read from there
    assert all(isinstance(v, str) or all(isinstance(x, str) for x in v) for v in link.values())


def test_the_settings_outside_the_link_are_left_out_of_it():
    s = Settings(criteria=("parity",), price_questions={"ratio_low": 2.0})
    back, _ = Settings.from_link(s.to_link())
    assert back == dataclasses.replace(s, criteria=None, price_questions=None)
    assert s.key() != back.key() and hash(s.key())  # the questions are in the memo key, hashable


def test_old_links_still_open_to_their_settings():
    # the keys pages, the goldens (tests/golden_harness.py) and the browser tests (tests/e2e) put in links
    old = {
        "data": "compas",
        "per_group": "true",
        "c_fp": "1",
        "c_fn": "3",
        "c_fp_0": "4",
        "c_fn_1": "6",
        "details": "true",
        "cap_on": "true",
        "cap": "400",
        "value_cap_on": "true",
        "value_cap": "250",
        "fair": "false",
        "fair_tol": "0.12",
        "disparity_reference": "Caucasian",
        "resamples": "500",
        "k": "8",
        "gain": "2.5",
        "reject_worth": "-1",
        "unit": "€",
        "volume": "2500",
        "abstain_on": "false",
        "abstain": "2.5",
        "C": "0,4,1;1,0,1;1,1,0",
        "bins": "15",
        "threshold": "0.8",
        "model": "score_overconfident",
        "train_data": "tweets",
        "train_methods": ["standard", "weighted"],
        "train_seeds": "3",
    }
    s, notes = Settings.from_link(old)
    assert notes == []
    assert (s.data, s.per_group, s.c_fp, s.c_fn, s.group_prices) == (
        "compas",
        True,
        1.0,
        3.0,
        ((4.0, None), (None, 6.0)),
    )
    assert (s.details, s.review_limit_on, s.review_limit, s.handover_limit_on, s.handover_limit) == (
        True,
        True,
        400,
        True,
        250,
    )
    assert (s.fairness, s.tolerance, s.reference_group, s.resamples) == (False, 0.12, "Caucasian", 500)
    assert (s.k, s.worth, s.handover_worth, s.unit, s.volume) == (8.0, 2.5, -1.0, "€", 2500)
    assert (s.handover_allowed, s.handover_price, s.matrix) == (False, 2.5, "0,4,1;1,0,1;1,1,0")
    assert (s.bins, s.cutoff, s.model) == (15, 0.8, "score_overconfident")
    assert (s.train_data, s.train_methods, s.train_seeds) == ("tweets", ("standard", "weighted"), 3)
    written = s.to_link()
    assert set(old) <= set(written)  # written back under the same keys...
    assert {k: written[k] for k in ("cap", "fair_tol", "C", "c_fp_0", "train_methods")} == {
        "cap": "400",
        "fair_tol": "0.12",
        "C": "0,4,1;1,0,1;1,1,0",
        "c_fp_0": "4",
        "train_methods": ["standard", "weighted"],
    }  # ...in the same text


def test_a_refused_value_gets_the_sentence_pages_have_always_said():
    _, notes = Settings.from_link(
        {"bins": "1000", "cap_on": "yes", "resamples": "12", "c_fp": "2", "c_fp_0": "-1", "k": "nan", "per_group": "1"}
    )
    assert notes == [
        # each setting named as the pages name it, not by its key (review 72: "The link's c_fn: ...")
        "The link's different prices per group “1” is not one this page can use, so one price for every group is "
        "used instead.",
        "The link's limit on what your team can review “yes” is not one this page can use, so no limit is used "
        "instead.",
        "The link's number of bootstrap resamples “12” is not one this page can use, so 1000 is used instead.",
        "The link's k “nan” is not one this page can use, so the k that follows from your prices is used instead.",
        "The link's number of score bands was not used. The number of score bands must be a number from 5 to 30: "
        "got 1000; using 10 instead.",
        # a group's price falls back to the price of every group, as the page's does
        "The link's price of a false positive for group 1 was not used. A price must be a number from 0 to "
        "1,000,000,000: got -1; using 2 instead.",
    ]
    s, _ = Settings.from_link({"fair_tol": "inf", "unit": "a\u202eb"})
    assert (s.tolerance, s.unit) == (settings.TOLERANCE.default, "$")


def test_every_field_kept_in_the_link_has_a_key_and_a_reader():
    from costlib.core.link import READERS

    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(LINK_KEYS) == set(READERS) == fields - {"group_prices", "criteria", "price_questions"}
    assert len(set(LINK_KEYS.values())) == len(LINK_KEYS)  # no two settings share a key
    assert link_key("c_fn_3") == "c_fn_3" and link_key("review_limit") == "cap"


# ---------------------------------------------------------------------------------------
# The link's keys are spelled in one table: the pages name settings by their fields

#: views/_ui/state.py's functions (and the pages' helpers over them) that take a setting's name first
STATE_API = {
    "remembered",
    "ensure_setting",
    "setting",
    "set_setting",
    "keep",
    "mirror",
    "write_link",
    "widget_key",
    "limit_setting",
    "remember_price",
    "price_slider",
    "price_box",
}
SESSION_ONLY = {"criteria", "price_questions"}
#: the link keys that are not also a field's name: a page spelling one spells the link
KEYS_ONLY = {key for key in LINK_KEYS.values() if key not in LINK_KEYS}


def _view_files() -> list[Path]:
    return sorted((ROOT / "views").rglob("*.py"))


def test_pages_name_settings_by_their_fields_never_by_a_link_key():
    fields = {f.name for f in dataclasses.fields(Settings)} | SESSION_ONLY
    wrong = []
    for path in _view_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0] if node.args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if (
                name in STATE_API
                and literal
                and first.value not in fields
                and not re.fullmatch(r"c_f[pn]_\d+", first.value)
            ):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}({first.value!r})")
            for kw in node.keywords:
                values = kw.value.elts if isinstance(kw.value, ast.Tuple) else [kw.value]
                for v in values:
                    if kw.arg in ("key", "args", "name") and isinstance(v, ast.Constant) and v.value in KEYS_ONLY:
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {kw.arg}={v.value!r}")
    assert wrong == []


def test_only_the_state_module_touches_the_link():
    touching = []
    for path in _view_files():
        if path.name == "state.py":
            continue
        text = path.read_text(encoding="utf-8")
        for word in ("query_params", 'bind="query-params"', "_keep_"):
            if word in text:
                touching.append(f"{path.relative_to(ROOT)}: {word}")
    for path in sorted((ROOT / "costlib").rglob("*.py")):
        if path != ROOT / "costlib" / "core" / "link.py" and "query_params" in path.read_text(encoding="utf-8"):
            touching.append(f"{path.relative_to(ROOT)}: query_params")
    assert touching == []


# ---------------------------------------------------------------------------------------
# A restored policy and the command line give one `Settings`


def test_a_restored_policy_gives_the_settings_it_sets_and_leaves_the_rest():
    from costlib.present.policy_restore import policy_settings, restored_fields

    base = Settings(unit="€", tolerance=0.2, volume=2000, k=4.0)
    # its groups: 1 (an int, as JSON may write it) and "b"; the data's: "1" and "b"; a limit of 10% of 5,000 a month
    saved = {
        "prices": {1: (2.0, 3.0), "b": (1.0, 5.0)},
        "unit": "",
        "unit_given": False,
        "volume": 5000,
        "capacity": {"cases_per_month": None, "max_flagged": 0.1},
        "price_questions": {"ratio_low": 2.0, "in_force": True},
    }
    s = policy_settings(saved, ["1", "b"], base)
    assert (s.c_fp, s.c_fn, s.per_group, s.group_prices) == (2.0, 3.0, True, ((2.0, 3.0), (1.0, 5.0)))
    assert (s.unit, s.tolerance, s.volume, s.k) == ("€", 0.2, 5000, 4.0)  # no unit of its own: the session's stays
    assert (s.review_limit_on, s.review_limit) == (True, 500)  # 10% of 5,000
    assert s.price_questions == {"ratio_low": 2.0}  # what the questions said, not whether they are in force
    assert "unit" not in restored_fields(saved, base) and "tolerance" not in restored_fields(saved, base)


def test_the_command_line_gives_the_settings_of_its_flags():
    from costlib.__main__ import build_parser
    from costlib.cli.audit import audit_settings

    args = build_parser().parse_args(
        [
            "audit",
            "x.csv",
            "--label",
            "y",
            "--score",
            "s",
            "--c-fp",
            "1",
            "--c-fn",
            "3",
            "--c-fn-group",
            "b=6",
            "--unit",
            "€",
        ]
        + ["--volume", "2000", "--max-flagged", "300", "--tolerance", "0.1", "--resamples", "500"]
    )
    s = audit_settings(args, ["a", "b"], ["g"])
    assert (s.c_fp, s.c_fn, s.per_group, s.group_prices) == (1.0, 3.0, True, ((1.0, 3.0), (1.0, 6.0)))
    assert (s.unit, s.volume, s.review_limit_on, s.review_limit, s.tolerance, s.resamples) == (
        "€",
        2000,
        True,
        300,
        0.1,
        500,
    )
    link = s.to_link()
    assert (link["c_fn_1"], link["cap"], link["fair_tol"]) == ("6", "300", "0.1")  # a link that opens the same settings


def test_find_my_prices_gives_the_settings_its_answers_set():
    import numpy as np

    from costlib.answers.prices import prices_from_answers, settings_from_answers
    from costlib.binary import elicit
    from costlib.binary.model_sweeps import sweep_model

    rng = np.random.default_rng(3)
    y = rng.random(2000) < 0.3
    sweep = sweep_model(y, np.clip(rng.normal(0.35 + 0.3 * y, 0.15), 0, 1), None).fit_pooled
    bracket = elicit.answer(elicit.Bracket(), 4.0, elicit.MISS)
    asked = {"money": 2.0, "unit": "EUR", "names": ["a", "b"], "multipliers": {"b": 2.0}}
    base = Settings(unit="EUR", tolerance=0.2)
    s = settings_from_answers(bracket, sweep, base=base, **asked)
    miss = 2.0 * bracket.middle  # a false alarm at the price asked, a miss at the bracket's middle times it
    assert (s.c_fp, s.c_fn, s.per_group) == (2.0, miss, True)
    assert s.group_prices == ((2.0, miss), (2.0, 2 * miss))  # b's miss costs twice one elsewhere
    assert s.price_questions["group_multipliers"] == {"b": 2.0} and (s.unit, s.tolerance) == ("EUR", 0.2)
    plan = prices_from_answers(bracket, sweep, **asked)  # the same settings under the link's keys
    book = {k: v for k, v in plan.items() if k != "price_questions"}
    written = s.to_link()
    assert {k: written[k] for k in book} == {k: link_text(v) for k, v in book.items()}
    assert plan["price_questions"] == s.price_questions
