"""Binary decisions: the contract's cost functions, the decision (sweep once, price many), fairness, Find my prices."""
