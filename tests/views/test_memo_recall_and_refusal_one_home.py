""" "Keep the earlier upload" has one home.

Review: the error box of a refused upload whose earlier file stays in use (the refusal, then
`labels.not_loaded_sentence`: "… is still loaded") was put together in three places (the Data
page's mapping, Train with costs, Watch's inputs), and Watch read a kept upload back by repeating
`memo.remember`'s lookup and reaching into its OrderedDict. Now the box is
`refused.say_not_loaded` and the lookup `memo.recall`; the pages' words are unchanged (the
AppTest tests of the Data page's refusals and Watch's kept uploads say so).
"""

from __future__ import annotations

import ast
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.views.apptest_support import unescape

ROOT = Path(__file__).resolve().parents[2]
#: files that still put the box together themselves: Train with costs (another engineer's now); it
#: may only shrink (take a file off once it calls `refused.say_not_loaded`)
KNOWN_SENTENCE: set[str] = set()
#: files that still read a session store's OrderedDict themselves instead of `memo.recall`
KNOWN_LOOKUP: set[str] = set()


def _calls(name: str) -> set[str]:
    """The files of views/ (and app.py) that call or name an attribute `name`, `views/_ui/memo.py`
    and `views/_ui/refused.py` aside."""
    found = set()
    for path in [*(ROOT / "views").rglob("*.py"), ROOT / "app.py"]:
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("views/_ui/memo.py", "views/_ui/refused.py") or not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr == name) or (
                isinstance(node, ast.Name) and node.id == name
            ):
                found.add(rel)
    return found


def test_the_still_loaded_sentence_is_put_in_its_box_in_one_place():
    assert _calls("not_loaded_sentence") <= KNOWN_SENTENCE, _calls("not_loaded_sentence") - KNOWN_SENTENCE


def test_a_kept_value_is_read_back_through_memo_recall_alone():
    assert _calls("move_to_end") <= KNOWN_LOOKUP, _calls("move_to_end") - KNOWN_LOOKUP


def _recall_script():
    import streamlit as st

    from views._ui.memo import recall, remember

    remember(("a",), lambda: 1, store="_t")
    remember(("b",), lambda: 2, store="_t")
    st.session_state["got"] = (
        recall(("a",), "_t"),
        recall(("gone",), "_t"),
        recall(("gone",), "_t", default="none kept"),
        recall(("a",), "_never_made"),
    )
    st.session_state["order"] = list(st.session_state["_t"])
    st.session_state["made"] = "_never_made" in st.session_state
    st.session_state["again"] = remember(("a",), lambda: 99, store="_t")  # recalled, not made again


def test_recall_reads_what_remember_keeps_and_marks_it_recently_used():
    at = AppTest.from_function(_recall_script).run()
    assert not at.exception, at.exception
    assert at.session_state["got"] == (1, None, "none kept", None)
    assert at.session_state["order"] == [("b",), ("a",)]  # "a" read last: the last to leave
    assert at.session_state["made"] is False  # reading makes no store
    assert at.session_state["again"] == 1


def _refused_script():
    from views._ui.refused import say_not_loaded

    say_not_loaded("The file has no rows.", "new\u202ecsv.csv", previous="good.csv", stage="file")
    say_not_loaded("No score column.", "cases.csv", sample="COMPAS", fix=True)
    say_not_loaded("No score column.", "cases.csv")


def test_the_box_says_the_refusal_then_what_is_still_loaded_under_the_warning_sign():
    at = AppTest.from_function(_refused_script).run()
    assert not at.exception, at.exception
    said = [unescape(e.value) for e in at.error]
    assert said[0] == (
        "The file has no rows. “new?csv.csv” was not loaded. Your previous file, “good.csv”, is still loaded. "
        "Correct the file and upload it again."
    )
    assert said[1].startswith(
        "No score column. “cases.csv” was not loaded. The built-in sample “COMPAS” is still in use."
    )
    assert "Tick the fix above the button" in said[1]
    assert said[2].startswith("No score column. “cases.csv” was not loaded. Choose other columns above")
    assert [e.icon for e in at.error] == ["⚠️"] * 3
