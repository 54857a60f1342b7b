"""The rules coverage report: which clauses (Dinky Dau's, and the TUN, TET and OBC documents') the code
cites, which the tests cite, which are declared out of scope, and which are missing. ``make rules-coverage`` runs it.

    .venv/bin/python tools/rules_coverage.py              # print the report, write docs/rules-coverage.md
    .venv/bin/python tools/rules_coverage.py --check      # exit 1 if docs/rules-coverage.md is stale
    .venv/bin/python tools/rules_coverage.py --where DD-5.27   # every place a clause is cited

The clauses are game/data/clauses.toml (copied from the rules index by tools/clauses.py); the ones left
out on purpose are game/data/out_of_scope.toml. A citation is the text ``DD-<chapter>.<n>`` anywhere in
a file: ``game/`` (Python and the TOML tables) for "implemented", ``tests/`` (Python) for "tested". A
range (``DD-8.6–8.10``, ``DD-6.6-6.12``) counts for every clause inside it, and so does a list that
goes on without the prefix in the same chapter (``DD-4.12–4.18, 4.20–4.24``, ``DD-5.4/5.6``).
Deterministic: sorted, no dates, nothing from outside the repository.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.clauses import Clauses, OutOfScope, chapter_key, load_clauses, load_out_of_scope  # noqa: E402

DOC = ROOT / "docs" / "rules-coverage.md"
FOCUS = ("1", "2", "3", "4", "5", "6", "7", "9A", "9B", "10", "TUN", "TET", "OBC")
FOCUS_LABEL = "chapters 1–7, 9A, 9B and 10, the Tunnel Warfare module, Tet '68 and The One Brain-Cell rules"
"""The chapters that must be complete (no clause missing); the others in clauses.toml (8) are reported as well."""

CODE = ("game", (".py", ".toml"))
TESTS = ("tests", (".py",))
EXCLUDED = {"game/clauses.py", "game/data/clauses.toml", "game/data/out_of_scope.toml",
            "tests/test_rules_coverage.py"}
"""The clause list, the out-of-scope list, their loader and the report's own test name clauses without
implementing or testing them."""

ANCHOR = re.compile(r"(?<![\w-])DD-(\d+[AB]?)\.(\d+)(?![.]?\d)")
RANGE_END = re.compile(r"\s*[–—-]\s*(?:DD-)?(\d+[AB]?)\.(\d+)(?![.]?\d)")
LIST_ITEM = re.compile(r"\s*[,/]\s*(\d+[AB]?)\.(\d+)(?![.]?\d)")
DOC_ANCHOR = re.compile(r"(?<![\w-])(TUN|TET|OBC)-(\d+)(?![.]?\d)")
"""A clause of a rule document of its own (``TUN-19``; ranges ``TUN-8–TUN-11`` or ``TUN-8–11``)."""
DOC_RANGE_END = re.compile(r"[–—-](?:(TUN|TET|OBC)-)?(\d+)(?![.]?\d)")
DOC_LIST_ITEM = re.compile(r"/(\d+)(?![.]?\d)")


LEAVES_OUT = re.compile(r"What it leaves out")
PASSAGE_END = re.compile(r'\n[ \t#]*\n|"""')

DIRECT, RANGE, LEFT_OUT = "direct", "range", "left out"
"""How a place cites a clause: by its own id (or as the end of a range, or an item of a list), as a
clause strictly inside a range, or in a module's "What it leaves out" passage (STYLE: a module docstring
says what it deliberately leaves out), which declares that the module does not implement it."""


def cited(text: str) -> Iterator[tuple[str, int, str]]:
    """(clause id, offset, DIRECT or RANGE) for every clause a text cites: ranges and prefix-less lists
    expanded."""
    for m in ANCHOR.finditer(text):
        chapter, pos = m.group(1), m.end()
        first = int(m.group(2))
        while True:
            last = first
            r = RANGE_END.match(text, pos)
            if r:
                pos = r.end()
                if r.group(1) == chapter and int(r.group(2)) >= first:
                    last = int(r.group(2))
                else:  # across chapters, or backwards: the two ends only
                    yield f"DD-{r.group(1)}.{r.group(2)}", m.start(), DIRECT
            for n in range(first, last + 1):
                yield f"DD-{chapter}.{n}", m.start(), DIRECT if n in (first, last) else RANGE
            item = LIST_ITEM.match(text, pos)
            if not item or item.group(1) != chapter:
                break
            first, pos = int(item.group(2)), item.end()
    for m in DOC_ANCHOR.finditer(text):
        doc, pos, first = m.group(1), m.end(), int(m.group(2))
        while True:
            last = first
            r = DOC_RANGE_END.match(text, pos)
            if r and r.group(1) in (None, doc) and int(r.group(2)) > first:
                pos, last = r.end(), int(r.group(2))
            for n in range(first, last + 1):
                yield f"{doc}-{n}", m.start(), DIRECT if n in (first, last) else RANGE
            item = DOC_LIST_ITEM.match(text, pos)
            if not item:
                break
            first, pos = int(item.group(1)), item.end()


def left_out_passages(text: str) -> list[tuple[int, int]]:
    """The spans of a file's "What it leaves out" passages: from the words to the paragraph's end (a
    blank line) or the docstring's."""
    spans = []
    for m in LEAVES_OUT.finditer(text):
        end = PASSAGE_END.search(text, m.end())
        spans.append((m.start(), end.start() if end else len(text)))
    return spans


def scan(folder: str, suffixes: tuple[str, ...]) -> dict[str, dict[str, list[str]]]:
    """Clause id -> how it is cited (DIRECT, RANGE, LEFT_OUT) -> the places (``path:line``), sorted."""
    places: dict[str, dict[str, set[str]]] = {}
    for path in sorted((ROOT / folder).rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix not in suffixes or not path.is_file() or rel in EXCLUDED or "__pycache__" in rel:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        passages = left_out_passages(text)
        for cid, offset, kind in cited(text):
            if any(a <= offset < b for a, b in passages):
                kind = LEFT_OUT
            where = f"{rel}:{text.count(chr(10), 0, offset) + 1}"
            places.setdefault(cid, {}).setdefault(kind, set()).add(where)
    return {cid: {k: sorted(p, key=_place_key) for k, p in sorted(kinds.items())} for cid, kinds in places.items()}


def _place_key(place: str) -> tuple[str, int]:
    path, line = place.rsplit(":", 1)
    return path, int(line)


def counts_as_cited(kinds: dict[str, list[str]] | None, out_of_scope: bool) -> bool:
    """A direct citation counts; a range counts unless the clause is declared out of scope (the
    declaration carves it out of a broader range); a "What it leaves out" passage never counts."""
    kinds = kinds or {}
    return bool(kinds.get(DIRECT)) or (bool(kinds.get(RANGE)) and not out_of_scope)


@dataclass(frozen=True)
class Row:
    id: str
    title: str
    note: str
    implemented: bool
    tested: bool
    out_of_scope: OutOfScope | None
    left_out: bool          # not implemented, and a module of game/ says it leaves it out

    @property
    def missing(self) -> str:
        """What is lacking ("code", "test", "code, test"), or "" when done or out of scope."""
        if self.out_of_scope:
            return ""
        return ", ".join(w for w, ok in (("code", self.implemented), ("test", self.tested)) if not ok)


@dataclass(frozen=True)
class Coverage:
    book: Clauses
    rows: dict[str, list[Row]]          # chapter -> rows, by clause number
    code: dict[str, dict[str, list[str]]]
    tests: dict[str, dict[str, list[str]]]
    unknown: list[str]                  # cited ids of these chapters that the index does not have

    def counts(self, chapters) -> dict[str, int]:
        rows = [r for c in chapters for r in self.rows[c]]
        return {"clauses": len(rows), "implemented": sum(r.implemented for r in rows),
                "tested": sum(r.tested for r in rows), "out of scope": sum(bool(r.out_of_scope) for r in rows),
                "missing": sum(bool(r.missing) for r in rows)}

    def missing(self, chapters=FOCUS) -> list[Row]:
        return [r for c in chapters for r in self.rows[c] if r.missing]

    def conflicts(self) -> list[str]:
        """Clauses declared out of scope yet cited by their own id in game/ (outside a "What it leaves
        out" passage), as if implemented."""
        return sorted((r.id for rows in self.rows.values() for r in rows if r.out_of_scope and r.implemented),
                      key=clause_key)


def clause_key(cid: str) -> tuple:
    return chapter_key(chapter_id(cid)), int(re.split(r"[.-]", cid)[-1])


def chapter_id(cid: str) -> str:
    """``DD-9B.3`` -> ``9B``; ``TUN-19`` -> ``TUN``."""
    return cid[3:].rsplit(".", 1)[0] if cid.startswith("DD-") else cid.split("-", 1)[0]


def coverage() -> Coverage:
    book = load_clauses()
    scope = load_out_of_scope(clauses=book)
    code, tests = scan(*CODE), scan(*TESTS)
    rows = {}
    for ch in sorted(book.chapters, key=chapter_key):
        rows[ch] = []
        for c in book.of(ch):
            out = c.id in scope
            implemented = counts_as_cited(code.get(c.id), out)
            rows[ch].append(Row(c.id, c.title, c.note, implemented, counts_as_cited(tests.get(c.id), out),
                                scope.get(c.id), not implemented and bool(code.get(c.id, {}).get(LEFT_OUT))))
    unknown = sorted({cid for cid in (*code, *tests) if cid not in book.clauses
                      and chapter_id(cid) in book.chapters}, key=clause_key)
    return Coverage(book, rows, code, tests, unknown)


# -- the document ----------------------------------------------------------------------------------
HEADER = """\
# Rules coverage: Dinky Dau chapters and rule documents {chapters}

**Generated** from the code by `make rules-coverage` (`.venv/bin/python tools/rules_coverage.py`): do
not edit by hand; regenerate it after changing a citation. tests/test_rules_coverage.py fails when it
is out of date with the code. It lists every clause of the chapters the engine builds, from the rules
index (copied into `game/data/clauses.toml` by `tools/clauses.py`), and what the repository does with
it:

* **implemented**: the clause id is cited somewhere under `game/` (Python or a TOML table). "left out"
  means it is cited only in a module's "What it leaves out" passage (STYLE: a module docstring says
  what it deliberately leaves out), which says that the module does not implement it;
* **tested**: the clause id is cited somewhere under `tests/` (a comment, docstring or string);
* **out of scope**: `game/data/out_of_scope.toml` declares that the engine deliberately leaves it out,
  and why (flavour text, or a clause that belongs to a chapter not built yet, with the issue that
  builds it);
* **missing**: neither out of scope nor both implemented and tested; the column says what is lacking.

A range (`DD-8.6–8.10`, `DD-6.6-6.12`) counts for every clause inside it, and so does a list that goes
on without the prefix in the same chapter (`DD-4.12–4.18, 4.20–4.24`, `DD-5.4/5.6`), except that a
clause declared out of scope is carved out of a broader range (`DD-5.1–5.11` does not implement the
armour save DD-5.7). A clause declared out of scope and cited by its own id in `game/` (outside a
"What it leaves out" passage) is a contradiction, and tests/test_rules_coverage.py refuses it. The
clause list, the out-of-scope list, their loader (`game/clauses.py`) and the report's own test are not
scanned; a mention of a whole chapter ("DD chapter 6") cites no clause.

**Limitation.** A citation is a match of text, not a reading of the code: a clause named only in the
docstring of an unrelated function, in a comment that says it is not done yet (outside a "What it
leaves out" passage), in a range broader than the code, or in a caption of the 3D client counts as
"implemented", and one named anywhere in a test counts as "tested". The report says where to look,
not that the rule is faithful. To see every place a clause is cited, and how:

    .venv/bin/python tools/rules_coverage.py --where DD-5.27
"""


def implemented_cell(r: Row) -> str:
    return "yes" if r.implemented else "left out" if r.left_out else ""


def everywhere(cov: Coverage, cid: str) -> list[str]:
    return sorted({p for places in (cov.code, cov.tests) for ps in places.get(cid, {}).values() for p in ps},
                  key=_place_key)


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def reason_of(o: OutOfScope) -> str:
    return o.reason + (f" (issue {o.issue})" if o.issue else "")


def markdown(cov: Coverage) -> str:
    chapters = list(cov.rows)
    names = ", ".join(chapters[:-1]) + " and " + chapters[-1] if len(chapters) > 1 else chapters[0]
    out = [HEADER.format(chapters=names), "## Summary", "",
           "| chapter | clauses | implemented | tested | out of scope | missing |", "|---|---|---|---|---|---|"]
    for ch in chapters:
        n = cov.counts([ch])
        out.append(f"| [{ch}. {cell(cov.book.chapters[ch].title)}](#chapter-{ch}) | " + " | ".join(
            str(n[k]) for k in ("clauses", "implemented", "tested", "out of scope", "missing")) + " |")
    for label, group in ((FOCUS_LABEL, FOCUS), ("all", chapters)):
        n = cov.counts(group)
        out.append(f"| **{label}** | " + " | ".join(
            f"**{n[k]}**" for k in ("clauses", "implemented", "tested", "out of scope", "missing")) + " |")
    out += ["", f"Missing in {FOCUS_LABEL}: "
            + (", ".join(f"{r.id} ({r.missing})" for r in cov.missing()) or "none") + ".", ""]
    for ch in chapters:
        n = cov.counts([ch])
        out += [f'<a id="chapter-{ch}"></a>', "", f"## Chapter {ch}: {cov.book.chapters[ch].title}", "",
                f"{n['clauses']} clauses: {n['implemented']} implemented, {n['tested']} tested, "
                f"{n['out of scope']} out of scope, {n['missing']} missing.", "",
                "| clause | title | index note | implemented | tested | out of scope (reason) | missing |",
                "|---|---|---|---|---|---|---|"]
        for r in cov.rows[ch]:
            out.append(f"| {r.id} | {cell(r.title)} | {cell(r.note)} | {implemented_cell(r)} | "
                       f"{'yes' if r.tested else ''} | {cell(reason_of(r.out_of_scope)) if r.out_of_scope else ''} | "
                       f"{r.missing} |")
        out.append("")
    if cov.unknown:
        out += ["## Cited ids the index does not have", "",
                "Probably typos: " + ", ".join(f"{cid} ({', '.join(everywhere(cov, cid))})"
                                               for cid in cov.unknown) + ".", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def text_report(cov: Coverage) -> str:
    out = []
    for ch, rows in cov.rows.items():
        n = cov.counts([ch])
        out.append(f"Chapter {ch}: {cov.book.chapters[ch].title}: {n['clauses']} clauses, {n['implemented']} "
                   f"implemented, {n['tested']} tested, {n['out of scope']} out of scope, {n['missing']} missing")
        out.append(f"  {'clause':<9} {'code':<9} {'test':<5} {'out of scope':<13} missing")
        for r in rows:
            out.append(f"  {r.id:<9} {implemented_cell(r) or '-':<9} {'yes' if r.tested else '-':<5} "
                       f"{('issue ' + str(r.out_of_scope.issue) if r.out_of_scope.issue else 'yes') if r.out_of_scope else '-':<13} "
                       f"{r.missing or '-'}")
    n = cov.counts(FOCUS)
    out.append(f"{FOCUS_LABEL[0].upper() + FOCUS_LABEL[1:]}: {n['clauses']} clauses, {n['implemented']} implemented, {n['tested']} "
               f"tested, {n['out of scope']} out of scope, {n['missing']} missing")
    out.append("Missing: " + (" ".join(r.id for r in cov.missing()) or "none"))
    if cov.conflicts():
        out.append("Out of scope yet cited in game/: " + " ".join(cov.conflicts()))
    if cov.unknown:
        out.append("Cited ids the index does not have: " + " ".join(cov.unknown))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/rules-coverage.md is out of date")
    ap.add_argument("--where", metavar="CLAUSE", help="list every place a clause is cited")
    args = ap.parse_args(argv)
    cov = coverage()
    if args.where:
        for label, places in (("game", cov.code), ("tests", cov.tests)):
            kinds = places.get(args.where) or {}
            print(f"{label}:", *(f"{p} ({k})" for k in (DIRECT, RANGE, LEFT_OUT) for p in kinds.get(k, []))
                  or ["(nowhere)"], sep="\n  ")
        return 0
    doc = markdown(cov)
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != doc:
            print(f"{DOC.relative_to(ROOT)} is out of date: run `make rules-coverage`", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text_report(cov))
    DOC.write_text(doc, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
