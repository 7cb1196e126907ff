"""The files a path pattern or a statement names, listed under a bound.

A path pattern is listed by costlib first, counted, and refused past `MAX_LISTED` entries
(`check_listing`), before an engine lists it; then DuckDB's own glob gives its files
(`glob_files`), and a statement's string constants give the paths it names (`named_paths`),
which are all DuckDB may open to run it (`costlib.scale.access.limit_access`).
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re

from costlib.core.errors import DataError
from costlib.scale.access import NO_EXTENSIONS

#: the most files and folders the listing of one path pattern may pass (a query's patterns on
#: Spark share it): past it the pattern is refused, and the listing stops there
MAX_LISTED = 10_000
MSG_TOO_MANY_LISTED = (
    'The pattern "{pattern}" lists more than {limit:,} files and folders (under "{base}"): that is not a data '
    "set costlib reads through a pattern; name the folder that holds the files, or a narrower pattern."
)
MSG_WALKS_ALL = (
    'The pattern "{pattern}" searches every folder under "{base}" (** from the filesystem root or the home '
    "folder); start the pattern in the folder that holds the files."
)
MAGIC = re.compile(r"[*?\[{]")  # DuckDB's glob characters, and Spark's (Hadoop's) {a,b}


class Listing:
    """A count of the files and folders listed for a source's patterns, refused past `limit`.

    Parameters
    ----------
    limit : int, optional
        The most entries all listings together may pass (default `MAX_LISTED`, read when the
        count starts, so a test can lower it).
    """

    def __init__(self, limit: int | None = None):
        self.limit = MAX_LISTED if limit is None else limit
        self.listed = 0

    def scan(self, folder: str, pattern: str, base: str) -> list[os.DirEntry]:
        """The entries of `folder`, counted; DataError (`MSG_TOO_MANY_LISTED`) when the count
        passes the limit. A folder that cannot be read lists nothing."""
        try:
            with os.scandir(folder) as it:
                entries = []
                for entry in it:
                    self.listed += 1
                    if self.listed > self.limit:
                        raise DataError(MSG_TOO_MANY_LISTED.format(pattern=pattern, limit=self.limit, base=base))
                    entries.append(entry)
        except OSError:
            return []
        return entries

    def walk(self, folder: str, pattern: str, base: str) -> list[str]:
        """Every file under `folder` (folders followed through links), counted as listed."""
        files, folders = [], [folder]
        while folders:
            for entry in self.scan(folders.pop(), pattern, base):
                if _is_dir(entry):
                    folders.append(entry.path)
                else:
                    files.append(entry.path)
        return files


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def check_listing(pattern: str, listing: Listing | None = None) -> None:
    """Refuse a path pattern whose listing would be too large, before the engine lists it.

    The pattern's folders are listed as a glob lists them, counted as they go (`Listing`): from
    the folder before the first glob character, into the subfolders each part of the pattern
    matches (every subfolder under a ``**``), and the listing stops as soon as the count
    passes `MAX_LISTED` (DataError, `MSG_TOO_MANY_LISTED`). A ``**`` that starts at the
    filesystem root or the home folder is refused before anything is listed (`MSG_WALKS_ALL`).
    A text with no glob character lists nothing.

    Parameters
    ----------
    pattern : str
        The path pattern, as a source gives it (``~`` is the home folder).
    listing : Listing, optional
        The count to add to (a query's patterns share one); None: a count of its own.
    """
    path = os.path.expanduser(pattern)
    found = MAGIC.search(path)
    if found is None:
        return
    listing = listing or Listing()
    head = os.path.dirname(path[: found.start()])
    base = head or "."
    parts = [p for p in path[len(head) :].split("/") if p]
    if "**" in parts and os.path.realpath(base) in ("/", os.path.realpath(os.path.expanduser("~"))):
        raise DataError(MSG_WALKS_ALL.format(pattern=pattern, base=base))
    folders = [(base, parts)]
    while folders:
        folder, rest = folders.pop()
        part, rest = rest[0], rest[1:]
        if part == "**":  # any depth: the whole tree below is listed
            listing.walk(folder, pattern, base)
            continue
        if MAGIC.search(part) is None:
            if rest and os.path.isdir(os.path.join(folder, part)):
                folders.append((os.path.join(folder, part), rest))
            continue
        for entry in listing.scan(folder, pattern, base):
            if rest and _is_dir(entry) and ("{" in part or fnmatch.fnmatchcase(entry.name, part)):
                folders.append((entry.path, rest))


def glob_files(pattern: str, con=None) -> list[str]:
    """The files DuckDB reads for the path `pattern` (its own glob: ``**``, and hidden files,
    which Python's glob skips); the pattern itself when it matches nothing. `con`: a DuckDB
    connection to ask (None: one of its own). A pattern whose listing is too large is refused
    first (`check_listing`), before DuckDB lists anything."""
    import duckdb

    check_listing(pattern)
    own = con is None
    con = duckdb.connect(":memory:", config=NO_EXTENSIONS) if own else con
    try:
        return [row[0] for row in con.execute("SELECT file FROM glob(?)", [pattern]).fetchall()] or [pattern]
    except duckdb.Error:
        return [pattern]
    finally:
        if own:
            con.close()


def _literals(query: str) -> list[str]:
    """The string constants of `query`, as DuckDB's tokenizer finds them ('it''s' -> it's)."""
    import duckdb

    tokens = duckdb.tokenize(query)
    out = []
    for i, (start, kind) in enumerate(tokens):
        if kind.name == "string_const":
            end = tokens[i + 1][0] if i + 1 < len(tokens) else len(query)
            text = query[start:end].strip()
            if len(text) >= 2 and text[0] == text[-1] == "'":
                out.append(text[1:-1].replace("''", "'"))
    return out


def named_paths(statement: str, con=None) -> list[str]:
    """The paths `statement` (a statement `sql_gate.read_only_select` returned) names, which are
    all DuckDB may open to run it: each string constant that is a file, and each one that is a
    path pattern with every file DuckDB's glob matches for it (hidden ones included), each as
    written and as an absolute path (``~`` expanded, as DuckDB does). A path built as the query
    runs (``concat``, ``||``) is named by none of them. `con`: a DuckDB connection to glob
    with (None: one of its own)."""
    out = set()
    for literal in _literals(statement):
        if not literal or "\n" in literal or "://" in literal:
            continue
        found = [f for f in glob_files(literal, con) if os.path.isfile(f)] if glob.has_magic(literal) else []
        if found or os.path.isfile(os.path.expanduser(literal)):
            out.update([literal, *found])
    return sorted({q for p in out for q in (p, os.path.abspath(os.path.expanduser(p)))})
