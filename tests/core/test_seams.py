"""Seams: bugs at the edges of the validated boundary (issue 12), each failing before its fix."""

from __future__ import annotations

import inspect
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costlib
from costlib import DegenerateWarning
from costlib.answers import audit
from costlib.binary import decision, fairness, judged_rules, model_sweeps, sensitivity
from costlib.binary.sensitivity import cost_optimal_for_ratios
from costlib.present import policy, report, report_html, tables
from costlib.stats import bootstrap, intervals


def test_fit_temperature_without_an_interior_minimum_is_nan_with_a_reason():
    # all scores 0.5: every temperature gives the same log loss; reversed scores: the loss keeps
    # falling toward the search bound. Neither has a temperature (it used to return ~100).
    for y, p in (([0, 1, 0, 1], [0.5] * 4), ([0, 1, 0, 1, 1, 0], [0.9, 0.1, 0.8, 0.2, 0.3, 0.7])):
        with pytest.warns(DegenerateWarning, match="no temperature"):
            assert math.isnan(costlib.fit_temperature(y, p))


def test_cost_optimal_for_ratios_breaks_exact_ties_like_optimal_threshold():
    """One tie rule: on exact cost ties the larger threshold, at every price pair (the hull
    search used to compare slopes exactly and could stop one vertex late)."""
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(400):
        n = int(rng.integers(2, 40))
        y, s = rng.integers(0, 2, n), rng.integers(0, 8, n) / 7
        if y.min() == y.max():
            continue
        w = rng.integers(1, 4, n) * 0.1
        c_fp, c_fn = rng.integers(0, 5, 20) * 0.1, rng.integers(0, 5, 20) * 0.3
        got = cost_optimal_for_ratios(costlib.threshold_sweep(y, s, sample_weight=w), c_fp, c_fn)
        for a, b, t in zip(c_fp, c_fn, got, strict=True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateWarning)
                want, _ = costlib.optimal_threshold(y, s, c_fp=a, c_fn=b, sample_weight=w)
            assert t == want, (a, b)
            checked += 1
    assert checked > 1000


def test_group_costs_warns_for_a_group_of_zero_weight():
    with pytest.warns(DegenerateWarning, match="group 'b' has total weight 0"):
        t = costlib.group_costs(
            [0, 1, 0, 1],
            [0.2, 0.7, 0.4, 0.9],
            ["a", "a", "b", "b"],
            costs={"a": (1, 1), "b": (1, 1)},
            thresholds={"a": 0.5, "b": 0.5},
            sample_weight=[1, 1, 0, 0],
        )
    assert math.isnan(t.set_index("group").loc["b", "cost_per_100"])


def test_equal_opportunity_names_the_group_without_positives():
    with pytest.warns(DegenerateWarning, match=re.escape("group 'b' does not have (it has no positive cases")):
        fit = fairness.fair_thresholds(
            [0, 1, 0, 0],
            [0.2, 0.7, 0.4, 0.9],
            ["a", "a", "b", "b"],
            costs={"a": (1, 1), "b": (1, 1)},
            criterion="equal opportunity",
        )
    assert all(math.isnan(t) for t in fit.thresholds.values())


def test_net_benefit_at_t_1_and_beyond():
    sw = costlib.threshold_sweep([0, 1, 1], [0.2, 0.6, 0.9])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no raw numpy warning
        with pytest.warns(DegenerateWarning, match="undefined at t = 1"):
            nb = sensitivity.net_benefit(sw, [0.5, 1.0])
    assert nb[0] == pytest.approx((2 - 0) / 3) and math.isnan(nb[1])
    with pytest.raises(ValueError, match="thresholds has values outside"):
        sensitivity.net_benefit(sw, [0.5, 1.5])


def test_delta_sources_accept_scalars_as_numpy_does():
    assert costlib.delta_from_votes(9, 1) == pytest.approx(math.log(10 / 2))
    assert costlib.delta_from_threshold(3.0, 1) == 2.0
    assert costlib.delta_from_rating(4, 3) == 1.0
    np.testing.assert_allclose(costlib.delta_from_votes([9, 0], 1), np.log([5.0, 0.5]))


AUDIT_ERRORS = {
    "mean_interval non-integer resamples": (
        lambda: bootstrap.mean_interval([1.0, 2.0], n_resamples=10.5),
        "n_resamples must be a whole number of at least 10: got 10.5",
    ),
    "mean_interval level": (
        lambda: bootstrap.mean_interval([1.0], level=True),
        "level must be a number strictly between 0 and 1: got True",
    ),
    "sensitivity_grid empty": (
        lambda: sensitivity.sensitivity_grid({}, {}, c_fp_values=[1], c_fn_values=[1]),
        "train_sweeps and test_sweeps must map the same",
    ),
    "sensitivity_grid negative": (
        lambda: sensitivity.sensitivity_grid(
            {"m": costlib.threshold_sweep([0, 1], [0.1, 0.9])},
            {"m": costlib.threshold_sweep([0, 1], [0.1, 0.9])},
            c_fp_values=[-1],
            c_fn_values=[1],
        ),
        "c_fp_values must be non-negative",
    ),
    "fair criterion": (
        lambda: fairness.fair_thresholds([0, 1], [0.1, 0.9], ["a", "a"], costs={"a": (1, 1)}, criterion="bogus"),
        "criterion must be one of",
    ),
    "recommend costs for a missing group": (
        lambda: decision.recommend(
            decision.sweep_model([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], ["a", "a", "b", "b"]), {"a": (1, 1)}
        ),
        "costs has no entry for group 'b'",
    ),
    "sweep_model mask": (lambda: decision.sweep_model([0, 1], [0.1, 0.9], fit=[True]), "fit must be a boolean mask"),
    "build_audit criterion": (
        lambda: audit.build_audit(decision.sweep_model([0, 1], [0.1, 0.9]), (1, 1), criteria=("bogus",)),
        "criterion must be one of",
    ),
    "build_audit volume": (
        lambda: audit.build_audit(decision.sweep_model([0, 1], [0.1, 0.9]), (1, 1), volume=-5),
        "volume must be non-negative",
    ),
    "build_audit huge prices": (
        lambda: audit.build_audit(decision.sweep_model([0, 1], [0.1, 0.9]), (1e308, 1e308)),
        "must be at most 1e+100 in size",
    ),
    "rate_spread criterion": (
        lambda: fairness.rate_spread({"a": costlib.threshold_sweep([0, 1], [0.1, 0.9])}, {"a": 0.5}, "bogus"),
        "criterion must be one of",
    ),
    "count_rules short cutoffs": (
        lambda: decision.count_rules(
            decision.sweep_model([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], ["a", "a", "b", "b"]).fit, {"x": np.array([0.5])}
        ),
        "cutoffs['x'] must hold one cutoff per group (2)",
    ),
    "cell_bootstrap resamples": (
        lambda: bootstrap.cell_bootstrap(
            decision.sweep_model([0, 1], [0.1, 0.9]).fit, {"x": np.array([0.5])}, n_resamples=10.5
        ),
        "n_resamples must be a whole number of at least 1: got 10.5",
    ),
    "ratio_range negative": (
        lambda: sensitivity.ratio_range(
            {"m": costlib.threshold_sweep([0, 1], [0.1, 0.9])},
            {"m": costlib.threshold_sweep([0, 1], [0.1, 0.9])},
            c_fp=-1,
            c_fn=1,
        ),
        "c_fp must be non-negative",
    ),
    "price_scale nan": (lambda: sensitivity.price_scale(1.0, float("nan")), "c_fn must be a finite number"),
}


@pytest.mark.parametrize("case", list(AUDIT_ERRORS))
def test_audit_decision_and_report_functions_raise_value_errors_naming_the_argument(case):
    fn, message = AUDIT_ERRORS[case]
    with pytest.raises(ValueError, match=re.escape(message)):
        fn()


def test_every_public_function_of_audit_decision_and_report_is_checked_here_or_elsewhere():
    """The public functions outside costlib's top level are in the validated boundary too:
    each one has an error case above or is exercised with bad input by another test file."""
    elsewhere = {  # function: the test that feeds it bad input
        "ratio_interval": "test_audit.py::test_bad_arguments_are_value_errors",
        "paired_difference_interval": "test_audit.py::test_bad_arguments_are_value_errors",
        "value_interval": "test_audit.py::test_bad_arguments_are_value_errors",
        "nec_interval": "test_audit.py::test_bad_arguments_are_value_errors",
        "cost_optimal_for_ratios": "test_seams.py::test_cost_optimal_for_ratios_breaks_exact_ties",
        "net_benefit": "test_seams.py::test_net_benefit_at_t_1_and_beyond",
        "net_benefit_curves": "test_seams.py::test_net_benefit_at_t_1_and_beyond (same checks)",
        "model_from_sweeps": "test_decision.py::test_model_from_sweeps_equals_sweep_model_on_the_rows",
        "pool": "test_decision.py::test_model_from_sweeps_equals_sweep_model_on_the_rows (pooled sweeps equal)",
        "fair_thresholds": "test_audit.py::test_bad_arguments_are_value_errors (criterion)",
        "fair_cutoffs": "test_seams.py::test_equal_opportunity_names_the_group_without_positives",
        "no_model_baseline": "test_decision.py::test_no_model_baseline_ties_go_to_flag_nobody_and_weights_count",
        "prices_for": "test_decision.py::test_bad_arguments_name_the_argument",
        "evaluate_rules": "reads prices_for and count_rules",
        "judge_fitted": "reads a RuleResults and honest.judge (tests/binary/test_honest.py)",
        "result_columns": "reads a RuleResults (tests/binary/test_result_columns.py)",
        "group_rates": "tests/binary/test_fairness_rates.py (against the rows; the gap's coverage)",
        "spread_interval": "reads RuleResults resamples (the fairness summary in test_report.py)",
        "centred_interval": "reads resamples of a checked estimate (tests/binary/test_honest_simulation.py)",
        "centred_intervals": "the same per column (refits.price_refits; tests/binary/test_honest_simulation.py)",
        "group_rates_table": "words (tests/binary/test_fairness_rates.py)",
        "group_rates_numbers": "numbers of group_rates (tests/present/test_table_downloads.py)",
        "json_number": "formats a checked number (tests/cli/test_cli.py reads the JSON)",
        "json_cut": "formats a checked cutoff (tests/cli/test_cli.py reads the JSON)",
        "group_index_at": "reads validated sweeps only (ModelSweeps.pooled_index, fair_judged.folds_of)",
        "randomised_rules": "reads a built Audit (tests/handoff/test_randomised_policy_file.py)",
        "randomised_rule": "reads a built Audit (tests/handoff/test_randomised_policy_file.py)",
        "cross_fitted_drift": "reads judged fairness rules (tests/binary/test_fair_rows_review_crossfit.py)",
        "fair_cross_fitted_notes": "words of cross_fitted_drift (tests/binary/test_fair_rows_review_crossfit.py)",
        "cheaper_rules": "reads a RuleResults (tests/binary/test_decision.py, the asides' tests in tests/present)",
        "group_alone": "reads the rules table's columns (deciding by group alone; tests/binary/test_group_alone.py)",
        "baseline_rule": "reads judged costs only (the cheaper no-model rule; tests/binary/test_decision.py)",
        "over_capacity": "reads judged rules only (tests/binary/test_capacity.py::test_capped_recommendation)",
        "rule_verdict": "reads a Recommendation (test_report.py::test_policy_round_trip)",
        "answer_at": "recommend again at another cap, which checks it (v.as_share); "
        "tests/binary/test_capacity_steps.py holds it against brute force",
        "data_columns": "reads a ColumnMapping (test_cli.py::test_json_is_the_decision_summary_and_nothing_else)",
        "rule_cutoffs": "reads prices_for",
        "model_rule_cutoffs": "reads prices_for (the same rules per group of one model's sweeps)",
        "cost_curves": "reads validated sweeps only",
        "audit_html": "reads an Audit",
        "no_model_alike": "words for a rule (tests/present/test_report_what_is_recommended.py: every no-model choice)",
        "audit_figures": "reads an Audit",
        "audit_figure": "reads an Audit (tests/present/test_notebook.py: an unknown name is a ValueError)",
        "shipped_row": "reads a Recommendation",
        "table_html": "escapes every cell (test_report.py; tests/present/test_notebook.py)",
        "paragraphs": "escapes each text (table_html's escaping; test_report.py's hostile names)",
        "default_rule": "reads an Audit (its Recommendation's shipped_rule)",
        "pooled_cutoff": "reads an Audit's cutoffs (tests/handoff/test_handoff.py::test_pooled_and_unseen_groups_"
        "get_the_pooled_cutoff)",
        "json_cutoff": "formats a cutoff policy_dict checked (NaN refused first; inf and -inf in test_report.py)",
        "dataset_models": "reads a validated Dataset",
        "audit_criteria": "reads a link.Settings (tests/answers/test_page_inputs.py)",
        "fairness_rules": "reads fair_cutoffs",
        "fairness_results": "reads fairness_rules and recommend (test_audit.py::test_fairness_results_are_the_audits)",
        "fairness_tables": "reads validated sweeps only",
        "price_maps": "reads sensitivity_grid",
        "data_summary": "reads validated sweeps only",
        "mean_prices": "reads validated sweeps only",
        "sensitivity_sentence": "price_words",
        "break_even_words": "price_words (test_report.py::test_the_break_even_range_is_exact_and_said_in_the_report)",
        "rules_overall_table": "words",
        "fairness_cutoffs_table": "words (test_report.py::test_fairness_overview_says_whether_the_test_gap_holds)",
        "fairness_overview_table": "test_report.py::test_fairness_overview_says_whether_the_test_gap_holds",
        "rules_numbers": "test_report.py::test_rules_numbers_export_plain_numbers_that_agree_with_the_results",
        "rules_by_group_table": "words",
        "rules_overall_columns": "words (headers of a checked RuleResults; tests/views/test_table_widths.py)",
        "fairness_overview_columns": "words (headers for a checked tolerance; tests/views/test_table_widths.py)",
        "group_rates_columns": "words (headers; tests/views/test_table_widths.py)",
        "small_group_note": "words (a table cell)",
        "count_cell": "words (a table cell)",
        "cutoff_cell": "words (a table cell)",
        "money_cell": "words (a table cell)",
        "share_cell": "words (a table cell)",
        "fair_prices": "words (test_report.py::test_under_a_review_limit_the_report_gives_no_saving_or_price_of_"
        "fairness_to_a_rule_over_it)",
        "feasible_cells": "words (tests/present/test_report_not_searched.py)",
        "disparities_record": "formats a checked Disparities (tests/answers/test_audit_record_counts.py)",
        "row_counts": "reads validated sweeps only (tests/answers/test_audit_record_counts.py)",
        "within_cells": "words (test_report.py::test_fairness_overview_says_whether_the_test_gap_holds)",
        "policy_dict": "test_report.py::test_policy_refuses_unknown_or_nan_rules",
        "policy_json": "test_report.py::test_policy_refuses_unknown_or_nan_rules",
        "load_policy": "test_report.py::test_load_policy_rejects_bad_fields",
        "check_level": "test_audit.py::test_bad_arguments_are_value_errors (level, resamples)",
        "as_level": "test_audit.py::test_bad_arguments_are_value_errors (level)",
        "check_resamples": "the 'cell_bootstrap resamples' case above",
        "check_cutoffs": "the 'count_rules' case above",
        "percentile_interval": "reads bootstrap draws only",
        "percentile_intervals": "reads bootstrap draws only",
        "draw_counts": "reads validated counts only (cell_bootstrap, ratio_interval)",
        "draw_cells": "reads validated sweeps only (cell_bootstrap)",
        "split_cells": "reads validated sweeps only (cell_bootstrap)",
        "categories": "reads validated arrays only (ratio_interval)",
        "resampled_sums": "reads validated arrays only (ratio_interval)",
    }
    covered = {name for case in AUDIT_ERRORS for name in re.findall(r"\w+", case)}
    public = set()
    for module in (
        audit,
        decision,
        judged_rules,
        model_sweeps,
        fairness,
        sensitivity,
        report,
        report_html,
        policy,
        tables,
        bootstrap,
        intervals,
    ):
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if not name.startswith("_") and fn.__module__ == module.__name__:
                public.add(name)
    missing = sorted(public - covered - set(elsewhere) - {"recommend", "sweep_model", "build_audit"})
    assert not missing, missing


def test_nec_table_keeps_the_total_apart_from_a_group_named_all():
    from costlib.instance import nec_table

    rng = np.random.default_rng(4)
    n = 300
    d = rng.normal(0, 1, n)
    d[d == 0] = 0.1
    s = rng.random(n)
    g = rng.choice(["all", "overall", "b"], n)
    overall, by_group = nec_table({"m": s}, d, threshold=0.5, groups=g)
    assert list(overall["option"]) == ["m", "flag nobody", "flag everyone"]  # one total row per option
    assert set(by_group["group"]) == {"all", "overall", "b"}
    for option, pred in (("m", s >= 0.5), ("flag nobody", np.zeros(n, bool)), ("flag everyone", np.ones(n, bool))):
        wrong = pred != (d > 0)
        row = overall.set_index("option").loc[option]
        assert row["NEC"] == pytest.approx(np.abs(d)[wrong].sum() / np.abs(d).sum())
        assert row["error rate"] == pytest.approx(wrong.mean())
        part = by_group[(by_group["option"] == option) & (by_group["group"] == "all")].iloc[0]
        sel = g == "all"
        assert part["NEC"] == pytest.approx(np.abs(d[sel])[wrong[sel]].sum() / np.abs(d[sel]).sum())
        assert part["n"] == sel.sum()


def test_brier_score_is_the_mean_squared_gap():
    from costlib.calibration import brier_score

    rng = np.random.default_rng(6)
    p = rng.random(500)
    y = (rng.random(500) < p).astype(int)
    assert brier_score(y, p) == pytest.approx(np.mean((p - y) ** 2), abs=1e-15)
    from sklearn.metrics import brier_score_loss

    assert brier_score(y, p) == pytest.approx(brier_score_loss(y, p), abs=1e-15)
    with pytest.raises(ValueError, match="y_prob"):
        brier_score([0, 1], [0.2, 1.5])


@given(
    st.lists(st.tuples(st.booleans(), st.floats(0, 1), st.floats(0, 1)), min_size=0, max_size=40),
)
@settings(max_examples=200, deadline=None)
def test_classification_table_counts_what_scikit_learn_does(rows):
    """Accuracy and F1 at p >= 0.5 are counted, not imported (the Value page's first visit paid
    1.4 s for sklearn.metrics): they must stay scikit-learn's, with its zero_division=0."""
    from sklearn.metrics import accuracy_score, f1_score

    from costlib.value.cost_sensitive import classification_table

    y = np.array([r[0] for r in rows], dtype=bool)
    models = {"a": np.array([r[1] for r in rows]), "b": np.array([r[2] for r in rows])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateWarning)
        table = classification_table(y, models, k_fp=1.0, k_fn=2.0)
    for row in table.to_dict("records"):
        pred = models[row["model"]] >= 0.5
        if y.size:
            assert row["accuracy"] == pytest.approx(accuracy_score(y, pred), abs=1e-15)
            assert row["F1"] == pytest.approx(f1_score(y, pred, zero_division=0.0), abs=1e-15)
        else:  # scikit-learn refuses no cases; here they are degenerate: NaN
            assert math.isnan(row["accuracy"]) and math.isnan(row["F1"])


@given(st.integers(1, 5), st.data())
@settings(max_examples=200, deadline=None)
def test_confusion_counts_what_scikit_learn_does(k, data):
    """The multiclass confusion is a bincount (no scikit-learn import on the Cost matrix page):
    abstentions (-1) are left out and weights add up, as a loop over the rows counts them; and
    it equals scikit-learn's confusion_matrix wherever that accepts the input (it refuses no
    kept cases and weights that are all zero, which here give zero counts)."""
    from sklearn.metrics import confusion_matrix

    from costlib.multiclass import confusion

    n = data.draw(st.integers(0, 30))
    y = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    pred = np.array(data.draw(st.lists(st.integers(-1, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    w = np.array(data.draw(st.lists(st.floats(0, 5), min_size=n, max_size=n)))
    keep = pred >= 0
    for weight in (None, w):
        got = confusion(y, pred, k, sample_weight=weight)
        want = np.zeros((k, k))
        for i, (truth, decided) in enumerate(zip(y, pred, strict=True)):
            if decided >= 0:
                want[truth, decided] += 1.0 if weight is None else weight[i]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        if keep.any() and (weight is None or weight[keep].any()):
            kept = None if weight is None else weight[keep]
            np.testing.assert_allclose(
                got, confusion_matrix(y[keep], pred[keep], labels=np.arange(k), sample_weight=kept)
            )


def test_confusion_refuses_a_decision_that_is_no_class():
    from costlib.multiclass import confusion

    with pytest.raises(ValueError, match=r"y_pred must hold class indices 0 to 1 or -1 \(abstain\): got 2"):
        confusion([0, 1], [0, 2], 2)
    for bad in (float("nan"), -2, 0.5):  # not an abstention either: said, not dropped
        with pytest.raises(ValueError, match=f"got {bad!r}"):
            confusion([0, 1], [0, bad], 2)
