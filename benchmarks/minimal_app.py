"""The yardstick for benchmarks/latency.py: one slider, one Plotly chart, nothing else.

Whatever this app costs from a key press to a quiet page is the floor of Streamlit plus
Plotly plus the browser on this machine; the real pages are reported as a ratio to it.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="yardstick", layout="wide")
st.title("Yardstick")
k = st.select_slider("k", options=[round(x, 2) for x in np.arange(0, 20.01, 0.25)], value=2.0, key="k")
x = np.linspace(0, 1, 2000)
fig = go.Figure(go.Scatter(x=x, y=np.sin(x * k), mode="lines"), layout={"template": {}, "height": 520})
fig.update_layout(title=f"Yardstick (k = {k:g})")
st.plotly_chart(fig, key="chart")
