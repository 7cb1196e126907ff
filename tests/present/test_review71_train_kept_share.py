"""Review 71, item 10: a way of training named "costliest 30% + ties: 88.0%" read as its accuracy
(88% is the share of the training rows it keeps). The name says what the number is."""

from costlib.present.training_page import method_label, method_short, methods_help


def test_the_kept_share_is_named_as_the_rows_kept():
    shares = {"tdown30": (0.3, 0.88), "tdown50": (0.5, 0.88), "tdown70": (0.7, 0.8822)}
    assert method_short("tdown30", shares) == "top 30% + ties: 88.0% kept"
    assert method_short("tdown70", shares) == "top 70% + ties: 88.2% kept"
    assert not method_short("tdown30", shares).endswith(": 88.0%")  # a bare percent reads as accuracy
    assert method_short("tdown30", {"tdown30": (0.3, 0.302)}) == "top 30%"  # kept what it asked: no share
    assert method_label("tdown30", shares) == "keeping the top 30% + ties (88.0% of rows)"
    helped = methods_help(["tdown30"], shares).replace("\\", "")
    assert helped.startswith("top 30% + ties: 88.0% kept — ")
