"""Watching a shipped policy: is the cutoff we shipped still the right one?

- `shift`: costs before the outcomes are in (`expected_cost_unlabelled`, `estimate_prior`: a
  new base rate by Saerens, Latinne and Decaestecker's EM);
- `periods`: the cost of the shipped cutoff per calendar period beside each period's own best
  (`cost_by_period`).
"""
