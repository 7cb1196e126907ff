"""costlib dashboard: page config and navigation only (the pages live in pages/)."""

import streamlit as st

st.set_page_config(page_title="What mistakes cost", page_icon="⚖️", layout="wide")
st.navigation(
    [
        st.Page("pages/data.py", title="Data", icon="📂", url_path="data", default=True),
        st.Page("pages/costs.py", title="Costs & groups", icon="⚖️", url_path="costs"),
        st.Page("pages/prices.py", title="Find my prices", icon="❓", url_path="prices"),
        st.Page("pages/value.py", title="Value", icon="💰", url_path="value"),
        st.Page("pages/matrix.py", title="Cost matrix", icon="🧮", url_path="matrix"),
        st.Page("pages/instance.py", title="Instance costs", icon="🗳️", url_path="instance"),
        st.Page("pages/calibration.py", title="Calibration", icon="🎯", url_path="calibration"),
        st.Page("pages/train.py", title="Train with costs", icon="🏋️", url_path="train"),
    ],
    position="top",
).run()
