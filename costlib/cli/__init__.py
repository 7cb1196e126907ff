"""The command line: audit, train, aggregate, watch, apply, sign and dashboard (`costlib.__main__` dispatches)."""
