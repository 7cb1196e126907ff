"""A memo for the answer objects' tests: it remembers as the page's memo does (by name and key)
and records what it had to compute, so that a test can say what a change of setting recomputes."""

from __future__ import annotations


class Store:
    """A memo that counts what it computes: ``made`` lists the names computed, in order."""

    def __init__(self):
        self.kept, self.made = {}, []

    def __call__(self, name, key, compute):
        if (name, key) not in self.kept:
            self.made.append(name)
            self.kept[(name, key)] = compute()
        return self.kept[(name, key)]
