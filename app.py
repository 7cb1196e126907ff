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
"""

import streamlit as st

st.set_page_config(page_title="What mistakes cost", page_icon="⚖️", layout="wide")
st.navigation(
    [
        st.Page("views/data.py", title="Data", url_path="home", default=True),  # served at "/" only
        st.Page("views/data.py", title="Data", url_path="data", visibility="hidden"),  # and at /data
        st.Page("views/costs.py", title="Costs & groups", url_path="costs"),
        st.Page("views/prices.py", title="Find my prices", url_path="prices"),
        st.Page("views/value.py", title="Value", url_path="value"),
        st.Page("views/matrix.py", title="Cost matrix", url_path="matrix"),
        st.Page("views/instance.py", title="Instance costs", url_path="instance"),
        st.Page("views/calibration.py", title="Calibration", url_path="calibration"),
        st.Page("views/train.py", title="Train with costs", url_path="train"),
        st.Page("views/watch.py", title="Watch", url_path="watch"),
    ],
    position="top",
).run()
