"""The hand-off: from an audited policy to the model that serves it.

`cost_scorer` prices a scikit-learn model's decisions (for ``cross_val_score``,
``GridSearchCV`` and ``TunedThresholdClassifierCV``); `apply_policy` gives a policy's decision
for new cases; `policy_estimator` wraps a fitted scikit-learn classifier so that its
``predict`` is what the policy decides (`costlib.handoff.serving`). The command line's
``apply`` reads a file and writes the decisions (`costlib.cli.apply`).
"""
