"""costlib dashboard: page config and navigation only.

The pages live in views/, not pages/: Streamlit treats a folder named pages/ beside the main
script as its legacy multipage app and lists the files in it until the first st.navigation
runs, which broke deep links on a fresh server.

The Data page is listed twice: Streamlit serves the default page at "/" and nowhere else (its
url_path only reserves a name), so a link to /data said "Page not found". The second entry,
hidden from the navigation, is the same page at /data. The first entry is the one that
st.page_link and st.switch_page find for "views/data.py", so in-app links still go to "/". A
redirect from one address to the other would add a history entry that the Back button
returns to and that redirects again.

Every run first makes sure the pages' shared modules are imported, once per server and by one
thread (`costlib.cli.dashboard.warm_once`): two first visitors importing them at the same time
could deadlock on Python's import locks.

Before the page runs, `views._ui.state.keep_link` writes back to the address the settings it has
held this session: a move within the app drops the address's query, and a page writes only its own.
"""

import streamlit as st

from costlib.cli.dashboard import warm_once

warm_once()  # the pages' modules, imported once before any page's run imports them (see warm_once)

from costlib.present import labels as t  # noqa: E402  (after the pages' modules are in)
from views._ui.state import keep_link  # noqa: E402

st.set_page_config(page_title=t.APP_TITLE, page_icon="⚖️", layout="wide")
page = st.navigation(
    [
        st.Page("views/data.py", title=t.PAGE_DATA, url_path="home", default=True),  # served at "/" only
        st.Page("views/data.py", title=t.PAGE_DATA, url_path="data", visibility="hidden"),  # and at /data
        st.Page("views/costs.py", title=t.PAGE_COSTS, url_path="costs"),
        st.Page("views/prices.py", title=t.PAGE_PRICES, url_path="prices"),
        st.Page("views/value.py", title=t.PAGE_VALUE, url_path="value"),
        st.Page("views/matrix.py", title=t.PAGE_MATRIX, url_path="matrix"),
        st.Page("views/instance.py", title=t.PAGE_INSTANCE, url_path="instance"),
        st.Page("views/calibration.py", title=t.PAGE_CALIBRATION, url_path="calibration"),
        st.Page("views/train.py", title=t.PAGE_TRAIN, url_path="train"),
        st.Page("views/watch.py", title=t.PAGE_WATCH, url_path="watch"),
    ],
    position="top",
)
keep_link()  # the settings the address has held stay in it on every page (a move within the app drops them)
page.run()
