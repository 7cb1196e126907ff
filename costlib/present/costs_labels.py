"""What the Costs & groups page says around its answer: the audit files' buttons and the names
they are saved under (Watch offers the same files), and the audit record's notes.

A page imports these names and makes no sentence of its own (`tests/present/test_sentences_home.py`);
`costlib.answers.costs` and `costlib.answers.audit` compute, and define no words.
"""

from __future__ import annotations

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
    "The scores are not all in [0, 1], so the 0.5 and formula cutoffs and net benefit (which read "
    "a score as a probability) are not shown."
)
