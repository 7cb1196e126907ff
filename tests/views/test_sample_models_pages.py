"""Costs & groups on a built-in sample names its models as the sample's ("the cheaper of the
sample's 2 models"), never "your 2 models": the person chose the sample, they did not bring its
models. The same rows uploaded as a file of one's own say "your 2 models"."""

from costlib.loading.samples import SAMPLES
from tests.views.apptest_support import SAMPLE_DIR, load_file, open_app, verdict_box


def test_costs_names_the_samples_models_and_an_uploads_as_yours():
    at = open_app("screening", "views/costs.py")
    said = verdict_box(at)
    assert "the sample's 2 models" in said and "your 2 models" not in said, said

    data = (SAMPLE_DIR / SAMPLES["screening"].filename).read_bytes() + b"\n"  # another file: not the sample's
    at = open_app("screening")
    load_file(at, "mine.csv", data)
    at.switch_page("views/costs.py").run()
    said = verdict_box(at)
    assert "your 2 models" in said and "the sample's" not in said, said
