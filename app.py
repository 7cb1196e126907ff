"""costlib dashboard: page config and navigation only (the pages live in pages/)."""

import streamlit as st

st.set_page_config(page_title="What mistakes cost", page_icon="⚖️", layout="wide")
st.navigation(
    [
        st.Page("pages/data.py", title="Data", url_path="data", default=True),
        st.Page("pages/costs.py", title="Costs & groups", url_path="costs"),
        st.Page("pages/prices.py", title="Find my prices", url_path="prices"),
        st.Page("pages/value.py", title="Value", url_path="value"),
        st.Page("pages/matrix.py", title="Cost matrix", url_path="matrix"),
        st.Page("pages/instance.py", title="Instance costs", url_path="instance"),
        st.Page("pages/calibration.py", title="Calibration", url_path="calibration"),
        st.Page("pages/train.py", title="Train with costs", url_path="train"),
    ],
    position="top",
).run()
