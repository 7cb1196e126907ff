"""Train with costs: does training with each case's own price beat standard training on this data?"""

import streamlit as st

from costlib import answers
from costlib.answers.instance import mistakes_free
from costlib.answers.training import PRECOMPUTED_DATA, SYNTHETIC_DATA, TRAIN_DATA
from costlib.core import settings
from costlib.present import labels as t
from costlib.present import training_page, training_words
from costlib.present.training_page import TRAIN_WHAT
from costlib.present.training_terms import TRAIN_TERMS
from costlib.present.training_words import TRAIN_WORDS as WORDS
from costlib.training.compare import METHODS
from costlib.training.kept import kept_of_seeds
from views._ui.display import page_header, say, show_chart, show_table, show_verdict
from views._ui.page import unit_and_volume
from views._ui.state import (
    amount_input,
    ensure_setting,
    keep,
    mirror,
    remembered,
    set_setting,
    setting,
    setting_notes,
    widget_key,
)
from views._ui.training import BOX, built_in, methods_box_key, precomputed, training_results, uploaded_data

RANDOM_STATE = 0
page_header(t.PAGE_TRAIN, TRAIN_WHAT)
unit, volume = unit_and_volume()  # the sidebar's unit and cases a month, as on every other page


# kept in the link by its key; a link written by Streamlit's own binding named it by its title: read too
by_title = {title: key for key, title in TRAIN_DATA.items()}
ensure_setting("train_data", next(iter(TRAIN_DATA)), valid=lambda v: v in TRAIN_DATA or v in by_title)
set_setting("train_data", by_title.get(setting("train_data"), setting("train_data")))
data_key = remembered("train_data", next(iter(TRAIN_DATA)))
choice = st.radio(
    WORDS["data"],
    list(TRAIN_DATA),
    format_func=TRAIN_DATA.get,
    key=data_key,
    horizontal=True,
    on_change=keep,
    args=("train_data",),
)
mirror("train_data")
if choice == PRECOMPUTED_DATA:
    st.caption(training_page.TWEETS_ATTRIBUTION)
    st.caption(training_page.TWEETS_CONTENT_NOTE)
elif choice in SYNTHETIC_DATA:
    st.caption(training_page.synthetic_description(predictable=choice == "predictable"))

if choice == "upload":  # a refused second table keeps the one before in use (`uploaded_data`)
    data = uploaded_data()
else:
    data = built_in(choice)
say("caption", training_page.data_sentence(data))
for note in data.notes:
    say("caption", note)

# the seeds and the ways come from the link through their bounds (Streamlit's own binding would read
# ?train_seeds=inf raw). The form's widgets start from the setting as their default (`value`,
# `default`), never by writing their state: a box written once kept its value on the server while
# "Your own table" stopped the page before the form, and came back in the browser at its bare
# default, 1 seed, over "Trained 10 seeds" (review 61). Then they hold what was typed until it is sent.
ensure_setting("train_seeds", int(settings.SEEDS.default))
ensure_setting("train_methods", tuple(METHODS), valid=lambda v: set(v) <= set(METHODS))
setting_notes()
# "top 30%" named by the share it keeps of the seeds' training rows, one name on the whole page: the
# box is drawn before the seeds' box below, so it reads the seeds sent (the widget's state once drawn)
asked = int(st.session_state.get(widget_key("train_seeds"), setting("train_seeds")))
shares = kept_of_seeds(data.delta, asked, methods=METHODS, random_state=RANDOM_STATE)
# The box's names come from this data and these seeds. Streamlit keeps a multiselect's choices by their
# names under its key: with one key, another data's box kept the last data's names on screen ("top 30% +
# ties: 88.0% kept" over the synthetic control) and a send dropped those ways unsaid. The box is keyed by
# its names, so new names make a new box, seeded with the ways chosen in the box before (by their code).
box, before = methods_box_key([training_page.method_short(m, shares) for m in METHODS]), st.session_state.get(BOX)
chosen = setting("train_methods")
if before not in (None, box) and before in st.session_state:  # what the last box held, sent or not
    chosen = tuple(m for m in st.session_state[before] if m in METHODS)
st.session_state[BOX] = box
with st.form("train_settings"):
    # the box at the page's whole width: beside the seeds, with the sidebar, it cut the last ways off
    methods = st.multiselect(  # by their short names, as the charts name them: the long ones ran off the box
        WORDS["methods"],
        list(METHODS),
        format_func=lambda m: training_page.method_short(m, shares),
        default=list(chosen),  # where a widget is made: what the link, the last send or the last box chose
        key=box,
        help=training_page.methods_help(METHODS, shares),
    )
    seeds = int(
        st.columns([1, 3])[0].number_input(
            training_page.SEEDS_LABEL,
            min_value=int(settings.SEEDS.low),
            max_value=int(settings.SEEDS.high),
            value=int(setting("train_seeds")),  # where a widget is made: what the link or the last send chose
            step=1,
            key=widget_key("train_seeds"),
            help=training_page.SEEDS_HELP,
        )
    )
    submitted = st.form_submit_button(WORDS["submit"], type="primary")
set_setting("train_seeds", seeds)
mirror("train_seeds")
set_setting("train_methods", tuple(methods))
mirror("train_methods")

methods = tuple(m for m in METHODS if m in methods)  # the page's order, whatever the click order
if not methods:
    st.info(training_page.CHOOSE_A_METHOD)
    st.stop()
results, r2 = training_results(data, choice, methods, seeds, submitted=submitted, random_state=RANDOM_STATE)
if seeds != asked:  # not met in use (the box reads the seeds sent); then the seeds trained name the ways
    shares = kept_of_seeds(data.delta, seeds, methods=METHODS, random_state=RANDOM_STATE)

# the price of a mistake on a typical case, shared with Instance costs (in the link, as every price is)
price = amount_input(
    st.columns([1, 2])[0], "mistake_price", settings.MISTAKE_PRICE, t.in_unit(t.TYPICAL_MISTAKE, unit),
    t.TYPICAL_MISTAKE_HELP,
)  # fmt: skip
answer = answers.training_answer(
    results, r2, methods=methods, price=price, unit=unit, volume=volume, typical=data.typical, shares=shares
)  # fmt: skip
show_verdict(answer.verdict)
if mistakes_free(
    price
):  # every mistake free: the verdict said there is nothing to choose (as Costs does at prices all 0)
    st.stop()
with st.expander(t.INSTANCE_TERMS):  # the same box as on Instance costs
    for term in TRAIN_TERMS:
        say("markdown", term)
    say("markdown", training_page.data_terms(data))  # this data's features and prices, technically

# the bars at the page's width (beside the sidebar a column tilted their names into the legend)
show_chart(answer.chart, key="train_chart")
st.caption(training_page.BARS_NOTE)
c1, c2 = st.columns([2, 3])
below = st.container()  # the change chart's words and numbers at the page's width (a narrow column cut the table)
with c1:
    st.metric(training_page.PREDICTABILITY_LABEL, answer.r2, help=training_page.PREDICTABILITY_HELP)
    say("markdown", answer.r2_sentence)
if answer.change_chart is not None:
    show_chart(answer.change_chart, key="train_change", where=c2, words_where=below)
for note in answer.notes:
    say("caption", note)


st.subheader(WORDS["by_method"])
st.caption(training_words.TABLE_MEANING)
# the downloads named for this page's data (`display.download_name`), as the Data page's pages name theirs
summary_table = answer.summary_table
show_table(summary_table, "training_summary", key="train_summary", export=answer.summary_export, data=data.name)
pre = precomputed() if choice == PRECOMPUTED_DATA else None
with st.expander(WORDS["every_seed"]):
    results_table, export = answer.results_table, answer.results_export
    show_table(results_table, "training_results", key="train_results", export=export, data=data.name)
    if answer.split_sentence:
        say("caption", answer.split_sentence)
    if pre is not None and results is pre.results:  # the estimators and versions, for the record
        say("caption", training_page.precomputed_technical(pre.settings, pre.versions))
