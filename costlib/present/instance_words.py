"""What the Instance costs page says around its answer (`page_answers.nec_verdict` words the
answer itself): here, the answer for a built-in sample when the data chosen has no instance costs."""

from __future__ import annotations

from dataclasses import replace

from costlib.present.words import Verdict


def on_sample(verdict: Verdict, sample: str | None) -> Verdict:
    """`verdict` answered for the built-in sample titled `sample` (None: for the data chosen, as
    it is): the sample is named in the answer's first sentence, right after the verdict's words
    every page shares. A note above the answer alone let a reader credit the sample's saving to
    their own model (review 58).

    >>> on_sample(Verdict("success", "Ship the model: flag a case when s is at least 0.5."), "Tweets").headline
    'Ship the model: on the built-in sample “Tweets”, not your data, flag a case when s is at least 0.5.'
    """
    if not sample:
        return verdict
    head, rest = verdict.headline.split(": ", 1)
    return replace(verdict, headline=f"{head}: on the built-in sample “{sample}”, not your data, {rest}")
