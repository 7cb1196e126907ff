"""Review: `answers.instance` patched the Instance costs page's caption and terms with
`str.replace` for a price column read beside a label column, so a change of their wording would
have left the patch doing nothing. `page_answers` now builds both from a `beside_label` flag."""

from __future__ import annotations

from costlib.core.dataset import ColumnMapping
from costlib.present.page_answers import delta_source, instance_caption, instance_terms

PRICED = ColumnMapping(label="label", scores=("score",), delta="price")
NAMED = ColumnMapping(label="label", scores=("score",), delta="price", positive="yes")


def test_beside_a_label_the_label_column_decides_which_cases_are_positive():
    caption = instance_caption(PRICED, 3, 10, "test", beside_label=True)
    assert caption == (
        'How costly a mistake on each case is comes from your price column "price": its size is how costly a '
        'mistake on the case is, and column "label" says which cases are positive. 3 of the 10 test cases are '
        "positive."
    ), caption
    (delta,) = [x for x in instance_terms(PRICED, 1.0, beside_label=True) if x.startswith("Instance cost δ")]
    assert delta.endswith("Here δ is the price column, below 0 on the cases whose label is the other value."), delta
    assert delta_source(NAMED, beside_label=True)[1].endswith('whose label is not "yes"')


def test_without_a_label_the_sign_of_the_price_column_is_the_label():
    assert "its sign is the label" in instance_caption(PRICED, 3, 10, "test")
    assert "says which cases are positive" not in instance_caption(PRICED, 3, 10, "test")
    assert "Here δ is the column itself." in instance_terms(PRICED, 1.0)[0]
