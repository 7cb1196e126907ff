"""What the Costs & groups page says around its answer: its intro, headers, labels and help
(`COSTS_WORDS`), the captions of its sections, the audit files' buttons and the names they are
saved under (Watch offers the same files), and the audit record's notes.

A page imports these names and makes no sentence of its own (`tests/present/test_sentences_home.py`);
`costlib.answers.costs` and `costlib.answers.audit` compute, and define no words.
"""

from __future__ import annotations

from costlib.core import rules as R

# the audit's files as the pages offer them (Costs & groups, Watch): the buttons' words, and
# the name each download is saved under
AUDIT_FILE_WORDS = {
    "restore": "Restore a saved policy",
    "policy_upload": "Policy file (JSON) downloaded from this page",
    "fair_rule": "Policy for a fairness rule",
    "fair_download": "Download its policy (JSON)",
    "fair_file": "cost_policy_fair.json",
    "report_download": "Download the audit report (HTML)",
    "report_file": "cost_audit.html",
    "policy_download": "Download the policy (JSON)",
    "policy_file": "cost_policy.json",
}

# the audit record's notes (`answers.audit.build_audit`), read on the page and in the report
NO_CUTOFF_NOTE = "The rule “{rule}” has no cutoff for some group, so its overall cost is not shown."
SCORES_NOT_PROBABILITIES_NOTE = (
    f"The scores are not all in [0, 1], so “{R.rule_words(R.THRESHOLD_05)}”, “{R.rule_words(R.ELKAN)}” and "
    "net benefit (which read a score as a probability) are not shown."
)

# ---------------------------------------------------------------------------------------
# Costs & groups (views/costs.py, its sections views/_ui/costs_sections.py, views/_ui/policy.py)

MODEL_COST = "Cost per case with the model"  # the first tile of Costs & groups, under every verdict

REPORT_AND_POLICY = (
    "The report is one HTML file that opens offline: the recommendation first, then the prices and the data "
    "per group it was judged on, the settings and record, every rule with intervals, fairness-constrained "
    "cutoffs, the sensitivity map and the limitations. The "
    "policy is a JSON file with the prices, what to ship (the recommended cutoffs, or the choice without a "
    "model when the answer says the model should not decide) and the data fingerprint, for the system that "
    "applies the decisions."
)

INTERVAL_MEANING = (
    "**95% interval**: a range built so that, in 95 of 100 samples of rows like these, it holds the true cost "
    "(or saving). "
    "For the cutoffs fitted on data (the best single cutoff, the best cutoff per group) every resample fits the "
    "cutoff again and judges it on rows the fit did not see, so the luck of picking it is inside the interval; "
    "for the other rules the cutoffs are held and the judged rows are resampled within each group. A saving "
    "whose interval includes zero could be chance."
)

COSTS_PAGE_WHAT = (
    "Set what a false positive and a false negative cost. The page answers which cutoff to ship and what it "
    "saves against the cheaper choice without a model (flag nobody, or flag everyone), live as you move the prices."
)

# the page's headers, labels and help, in the order it draws them
COSTS_WORDS = {
    "your_prices": "Your prices",
    "ask_prices": "Not sure about your prices? Answer a few questions",
    "what_to_ship": "What to ship",
    "curve_model": "Curve of the model",
    "curve_model_help": "The recommendation compares every model; pick whose cost curve to draw.",
    "update_below": "Update them for these prices",
    "report_and_policy": "Report and policy",
    "every_rule": "Every rule, all groups together",
    "rules_by_group": "By group: each rule's cutoff, flagged share and cost",
    "rules_meaning": "What the rules and the intervals mean",
    "group_rates": "Rates per group",
    "fair_cutoffs": "Fairness-constrained cutoffs",
    "fairness_toggle": "Fairness rules",
    "tolerance": "Tolerance: largest gap in the rate (0.05 is 5%)",  # the table says "fitted within 5%"
    "criteria": "Criteria",
    "fair_by_group": "Each fairness rule's cutoff in each group",
    "prices_matter": "How much do the prices matter?",
    "interval_settings": "Interval settings",
    "resamples": "Bootstrap resamples for the 95% intervals (each one refits the fitted cutoffs)",
}

ALL_PRICES_ZERO = "Every price is 0: no decision costs anything, so there is nothing to choose."

SECTIONS_FOR_OLD_PRICES = (
    "The rules table, the rates per group, the fairness and the sensitivity sections below are still for the "
    "previous prices (the report and policy downloads under the answer follow the prices above)."
)

RULES_JUDGED = {  # where the rules table's fitted rules are judged, by `words.judged_kind` (`rules_judged`)
    "test": " Judged on the test rows; the same intervals as above.",
    "cross-fitted": " Fitted rules cross-fitted on all rows (each row judged by cutoffs fitted without it); the same "
    "intervals as above.",
    "same": " Judged on the rows they were fitted on; the same intervals as above.",
}


def rules_judged(rec) -> str:
    """The rules table's caption on where its fitted rules are judged (a `decision.Recommendation`)."""
    from costlib.present.words import judged_kind

    return RULES_JUDGED[judged_kind(rec)]


FAIRNESS_WHAT = (
    " Each constrained rule is the cheapest set of per-group cutoffs on the rows it is fitted on that "
    "keeps every group's rate within the tolerance of every other group's; its price is what it costs beyond the "
    "best cutoff per group."
)

GROUP_RATES_WHAT = (
    " What the model's best cutoffs do to each group on the judged rows, with 95% intervals (the same resampling as "
    "the costs, widened to what the group's own counts allow), and the largest gap between groups. A group with few "
    "positives or negatives has wide intervals: read its rates as a guess."
)

FAIR_POLICY_HELP = (
    "A policy file that records the chosen fairness rule's cutoffs instead of the recommended ones; its verdict "
    "describes that rule (what it saves against the best choice without a model, with its interval)."
)

DISPARITIES_TITLE = "Disparities against a reference group"

REFERENCE_LABEL = "Compare every group with"

LARGEST_GROUP = "the largest group (on the judged rows)"

FAIRNESS_ONE_GROUP = "This data has one group: there is nothing to equalise. Map a group column on the Data page."

FAIRNESS_PRICE = (
    "The price of fairness is the extra cost per case over the best cutoff per group. Per-group "
    "cutoffs treat groups differently by design; these rules choose the differences that equalise one "
    "rate. Both are judged on rows their cutoffs were not fitted on, so a gap can reopen there, and a negative "
    "price means the "
    "constrained rule happened to cost less there (by chance: on the rows it is fitted on it costs at least as "
    "much). “Trivially equal”: flagging everyone (or nobody) in every group makes the rates equal without "
    "using the model."
)

NET_BENEFIT_NEEDS_PROBABILITIES = "Net benefit reads a score as a probability; these scores are not probabilities."
