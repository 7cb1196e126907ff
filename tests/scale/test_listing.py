"""A path pattern's listing is bounded: past `listing.MAX_LISTED` files and folders, or a ``**``
from the filesystem root or the home folder, it is refused with a sentence, and the listing
stops at the bound (`listing.check_listing`, which `glob_files` asks first)."""

from __future__ import annotations

import os

import pytest

from costlib.core.errors import DataError
from costlib.scale import listing
from costlib.scale.listing import glob_files
from costlib.scale.query_files import query_files

BOUND = 40  # the tree's top folder alone lists 30


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """30 folders of one CSV file each (90 entries in all, over a bound of 40)."""
    monkeypatch.setattr(listing, "MAX_LISTED", BOUND)
    for i in range(30):
        (tmp_path / f"d{i:02d}").mkdir()
        (tmp_path / f"d{i:02d}" / "x.csv").write_text("y,s\n1,0.5\n")
    return tmp_path


def test_a_pattern_whose_listing_passes_the_bound_is_refused_and_a_narrow_one_reads(tree):
    too_many = listing.MSG_TOO_MANY_LISTED.split("{limit:,}")[0].split("}")[-1]
    for pattern in (f"{tree}/**/*.csv", f"{tree}/d*/*.csv", f"{tree}/*/*.csv"):
        with pytest.raises(DataError, match=f"more than {BOUND} files and folders") as err:
            glob_files(pattern)
        assert too_many in str(err.value) and pattern in str(err.value)
        with pytest.raises(DataError, match=f"more than {BOUND} files and folders"):
            query_files(f"SELECT * FROM '{pattern}'")
    assert glob_files(f"{tree}/d0*/*.csv") == [f"{tree}/d{i:02d}/x.csv" for i in range(10)]  # 30 + 10 entries
    assert glob_files(f"{tree}/d07/**/*.csv") == [f"{tree}/d07/x.csv"]


def test_the_listing_stops_at_the_bound(tree, monkeypatch):
    """One folder of 30 entries passes a bound of 20: no folder below it is listed."""
    listed = []
    scandir = os.scandir

    def counting(path="."):
        listed.append(os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(listing, "MAX_LISTED", 20)
    monkeypatch.setattr(os, "scandir", counting)
    with pytest.raises(DataError, match="more than 20"):
        glob_files(f"{tree}/**/*.csv")
    assert listed == [str(tree)]


@pytest.mark.parametrize("pattern", ["/**", "/**/*.csv", "~/**/*.parquet", "/../**/x.csv"])
def test_a_double_star_from_the_root_or_the_home_folder_is_refused_before_any_listing(pattern, monkeypatch):
    monkeypatch.setattr(os, "scandir", lambda *a: pytest.fail("listed a folder"))
    with pytest.raises(DataError, match=r"searches every folder under .*\(\*\* from the filesystem root"):
        glob_files(pattern)
