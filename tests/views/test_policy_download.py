"""The Costs page's policy downloads when the policy cannot be written (issue 45): the file holds
the writer's sentence, never a download that fails without a word."""

from __future__ import annotations

import numpy as np
import pandas as pd

import costlib
from costlib.present.policy import policy_json
from views._ui.policy import written


def test_a_policy_its_reader_would_refuse_downloads_as_the_sentence_that_says_why(tmp_path):
    rng = np.random.default_rng(0)
    n = 1500
    y = rng.integers(0, 2, n)
    rows = pd.DataFrame({"y": y, "s": np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), "g": rng.integers(0, 2, n)})
    rows["g"] = np.where(rows["g"] == 1, "a" * 600, "b" * 600)  # group names past the policy's 500 characters
    rows.to_csv(tmp_path / "rows.csv", index=False)
    audit = costlib.audit(tmp_path / "rows.csv", label="y", score="s", group="g", c_fp=1, c_fn=4, n_resamples=20)
    body = written(lambda: policy_json(audit)).decode()
    assert body.startswith("This policy cannot be written") and "600 characters" in body
    assert written(lambda: '{"ok": 1}') == b'{"ok": 1}'  # a policy that can be written is handed over as it is
