"""The rulebook's clause list and what the engine leaves out of it, loaded strictly.

* ``clauses.toml``: one ``[[clause]]`` a Dinky Dau clause of the chapters the engine builds, copied from
  the rules index by ``tools/clauses.py`` (id, chapter, a short title, the index's note), and one
  ``[[chapter]]`` a chapter (id, title). Ids are the index's own and each sits in its chapter.
* ``out_of_scope.toml``: one ``[[out_of_scope]]`` a clause the engine deliberately does not implement:
  the clause, the index's note for it (it must be the one ``clauses.toml`` records), the reason and,
  where another issue builds it, that issue's number.

Both are read by ``tools/rules_coverage.py`` (``make rules-coverage``, docs/rules-coverage.md). Like
:mod:`game.tables`, this imports nothing of the rules, the world or above. It cites no clause itself:
the coverage report does not scan it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from game.tables import DATA_DIR, DataError, check_refs, load_rows, read_toml, refers

CLAUSE_ID = re.compile(r"DD-(\d+[AB]?)\.(\d+)|(TUN|TET|OBC)-(\d+)")
"""A clause id: ``DD-<chapter>.<n>`` of Dinky Dau, or ``<DOC>-<n>`` of a rule document of its own (the
Tunnel Warfare module ``TUN``), whose chapter id is the document's prefix."""
DOCUMENTS = ("TUN", "TET", "OBC")


def chapter_of(m: re.Match) -> str:
    """The chapter of a :data:`CLAUSE_ID` match."""
    return m.group(1) or m.group(3)


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str

    @property
    def clause(self) -> str:
        """What the strict loader asks every record to cite: the chapter's own prefix."""
        return f"{self.id}-" if self.id in DOCUMENTS else f"DD-{self.id}"


@dataclass(frozen=True)
class Clause:
    id: str
    chapter: str = field(metadata=refers("chapters"))
    title: str
    note: str

    @property
    def clause(self) -> str:
        return self.id

    @property
    def number(self) -> int:
        return int(re.split(r"[.-]", self.id)[-1])


@dataclass(frozen=True)
class OutOfScope:
    clause: str = field(metadata=refers("clauses"))
    note: str
    reason: str
    issue: int = 0

    @property
    def id(self) -> str:
        return self.clause


@dataclass(frozen=True)
class Clauses:
    chapters: dict[str, Chapter]
    clauses: dict[str, Clause]

    def of(self, chapter: str) -> list[Clause]:
        """A chapter's clauses, by number."""
        return sorted((c for c in self.clauses.values() if c.chapter == chapter), key=lambda c: c.number)


def chapter_key(chapter: str) -> tuple[int, str]:
    """Chapters in the rulebook's order: 1, 2, … 9A, 9B, 10."""
    m = re.fullmatch(r"(\d+)([AB]?)", chapter)
    return (int(m.group(1)), m.group(2)) if m else (10**6 + DOCUMENTS.index(chapter) if chapter in DOCUMENTS
                                                    else 10**7, chapter)


def _only(name: str, doc: dict, keys: set[str]) -> None:
    extra = sorted(set(doc) - keys)
    if extra:
        raise DataError(name, "(file)", f"unknown top-level key(s) {', '.join(extra)}")


def load_clauses(directory: Path = DATA_DIR) -> Clauses:
    """Load ``clauses.toml`` strictly: known keys, every id of the form DD-<chapter>.<n> and in the
    chapter it names, every chapter defined."""
    name = "clauses.toml"
    doc = read_toml(name, directory)
    _only(name, doc, {"chapter", "clause"})
    chapters = load_rows(name, "chapter", Chapter, doc)
    clauses = load_rows(name, "clause", Clause, doc)
    known = {"chapters": (name, chapters.keys())}
    for i, c in enumerate(clauses.values()):
        record = f"clause[{i}] '{c.id}'"
        check_refs(c, name, record, known)
        m = CLAUSE_ID.fullmatch(c.id)
        if not m:
            raise DataError(name, record, "id must be DD-<chapter>.<n> or TUN-<n>")
        if chapter_of(m) != c.chapter:
            raise DataError(name, record, f"id is of chapter {chapter_of(m)}, the record says {c.chapter}")
        if not c.title.strip():
            raise DataError(name, record, "field 'title' is empty")
    return Clauses(chapters, clauses)


def load_out_of_scope(directory: Path = DATA_DIR, clauses: Clauses | None = None) -> dict[str, OutOfScope]:
    """Load ``out_of_scope.toml`` strictly, against the clause list of the same folder (or ``clauses``):
    every row names a clause there, repeats that clause's note and gives a reason."""
    name = "out_of_scope.toml"
    book = clauses or load_clauses(directory)
    doc = read_toml(name, directory)
    _only(name, doc, {"out_of_scope"})
    rows = load_rows(name, "out_of_scope", OutOfScope, doc)
    known = {"clauses": ("clauses.toml", book.clauses.keys())}
    for i, row in enumerate(rows.values()):
        record = f"out_of_scope[{i}] '{row.clause}'"
        check_refs(row, name, record, known)
        if row.note != book.clauses[row.clause].note:
            raise DataError(name, record, f"note {row.note!r} is not the index's note for the clause "
                                          f"({book.clauses[row.clause].note!r})")
        if not row.reason.strip():
            raise DataError(name, record, "field 'reason' must say why the clause is left out")
        if row.issue < 0:
            raise DataError(name, record, "field 'issue' must be an issue number")
    return rows
