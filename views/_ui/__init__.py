"""What every page shares, one module per job.

- `state`: the settings pages share, remembered across pages and mirrored in the URL;
- `display`: how a page shows sentences, tables, verdicts and errors;
- `loading`: parsing an upload or a sample once per session, keyed by content;
- `memo`: the per-session, bounded memo of results per dataset;
- `data`: which dataset the pages use (the sidebar's choice, with a fallback sample), its
  groups and sweeps;
- `prices`: the price book (c_fp and c_fn, per group when asked);
- `page`: what every page starts with (`setup`).

Pages stay thin: they read widgets, call costlib through `memo`, and hand figures to
`st.plotly_chart`. Nothing here computes a formula.

A full garbage collection walks every object the imports made (Streamlit's after every run,
`runner.postScriptGC` in .streamlit/config.toml, and the interpreter's own of its oldest generation).
Those objects live as long as the server, so they leave the collector's walk
(`costlib.loading.ledger.freeze_long_lived`) when this package is first imported, and at the
start of every run (`page.setup`, `page.live`) `costlib.loading.ledger.settle` freezes them
again after more modules are loaded, and every few runs what the sessions keep (their data
sets, folds and answers), so that the walk after each run sees only what the last runs made.

`costlib dashboard` serves its connections without Nagle's delay from the start
(`costlib.cli.dashboard.send_without_delay`); a server started as ``streamlit run app.py`` gets
the same for every connection it accepts after this package is first imported.
"""

from __future__ import annotations

from costlib.cli.dashboard import send_without_delay
from costlib.loading.ledger import freeze_long_lived
from views._ui import data, display, loading, memo, page, prices, state  # noqa: F401  (frozen below)

send_without_delay()
freeze_long_lived()
