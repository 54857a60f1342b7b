"""The rules coverage report (issue 16; tools/rules_coverage.py, docs/rules-coverage.md): it runs, the
committed document is the code's, every out-of-scope row names a real clause and says why, and no
clause is both declared out of scope and cited as implemented. It does not require every clause to be
done: the report lists what is missing, and this prints how many.

This file is not scanned by the report (it names clauses as samples), so it tests nothing by citing."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from game.clauses import load_clauses, load_out_of_scope
from game.tables import DATA_DIR, DataError

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT.parent / "shared" / "RULES-INDEX.md"


def tool(name: str):
    """A module of tools/ (not a package), loaded from its file."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def cov():
    return tool("rules_coverage").coverage()


def test_the_report_runs_and_counts_every_chapter(cov, capsys):
    rc = tool("rules_coverage")
    text = rc.text_report(cov)
    for ch in rc.FOCUS:
        assert f"Chapter {ch}:" in text
        assert cov.rows[ch], ch
    n = cov.counts(rc.FOCUS)
    assert n["clauses"] == sum(len(cov.book.of(ch)) for ch in rc.FOCUS)
    assert n["missing"] == len(cov.missing())
    with capsys.disabled():
        print(f"\nrules coverage, {rc.FOCUS_LABEL}: {n['implemented']} implemented, {n['tested']} "
              f"tested, {n['out of scope']} out of scope, {n['missing']} missing "
              f"({' '.join(r.id for r in cov.missing())})")


def test_the_document_is_up_to_date_with_the_code(cov):
    rc = tool("rules_coverage")
    assert rc.DOC.read_text(encoding="utf-8") == rc.markdown(cov), \
        "docs/rules-coverage.md is out of date: run `make rules-coverage`"


def test_every_out_of_scope_row_names_a_real_clause_and_gives_a_reason():
    book = load_clauses()
    rows = load_out_of_scope()
    assert rows
    for row in rows.values():
        clause = book.clauses[row.clause]
        assert row.note == clause.note, row.clause
        assert len(row.reason.strip()) >= 20, row.clause
        # Flavour, or a chapter not built yet with the issue that builds it: nothing else belongs here.
        assert clause.note == "FLAVOR" or row.issue > 0, row.clause


def test_no_clause_is_both_out_of_scope_and_cited_as_implemented(cov):
    assert cov.conflicts() == []


def test_the_clause_list_is_the_index_s(tmp_path):
    """game/data/clauses.toml is what tools/clauses.py makes of the index (where the index is at hand)."""
    if not INDEX.exists():
        pytest.skip("the rules index (../shared/RULES-INDEX.md) is not beside this checkout")
    cl = tool("clauses")
    chapters, clauses = cl.parse(INDEX.read_text(encoding="utf-8"))
    assert cl.render(chapters, clauses, "../shared/RULES-INDEX.md") == (DATA_DIR / "clauses.toml").read_text(
        encoding="utf-8")
    assert {c for c, _ in chapters} == set(cl.CHAPTERS)


# -- reading citations ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ids", [
    ("see DD-5.27.", ["DD-5.27"]),
    ("(DD-8.6–8.10)", ["DD-8.6", "DD-8.7", "DD-8.8", "DD-8.9", "DD-8.10"]),
    ("DD-6.6-6.12", [f"DD-6.{n}" for n in range(6, 13)]),
    ("DD-4.12–4.14, 4.20–4.21", ["DD-4.12", "DD-4.13", "DD-4.14", "DD-4.20", "DD-4.21"]),
    ("DD-5.4/5.6", ["DD-5.4", "DD-5.6"]),
    ("R:DD-5.5, DD-5.25", ["DD-5.5", "DD-5.25"]),
    ("DD-10.16–10.17", ["DD-10.16", "DD-10.17"]),
    ("DD-8.10, 4+", ["DD-8.10"]),                 # a need, not a clause
    ("DD-2.13, 3.5", ["DD-2.13"]),                # a list goes on only within its chapter
    ("DD-9A.3", ["DD-9A.3"]),
    ("ADD-1.2 and G-03", []),
    ("TUN-19", ["TUN-19"]),                       # a rule document of its own (the Tunnel Warfare module)
    ("TUN-8–TUN-11", ["TUN-8", "TUN-9", "TUN-10", "TUN-11"]),
    ("(TUN-1–7)", [f"TUN-{n}" for n in range(1, 8)]),
    ("TUN-19/20", ["TUN-19", "TUN-20"]),
    ("TUN-22, 2+ and XTUN-3", ["TUN-22"]),
])
def test_citations_are_read_with_their_ranges_and_lists(text, ids):
    assert sorted({c for c, _, _ in tool("rules_coverage").cited(text)}) == sorted(ids)


def test_a_range_counts_unless_the_clause_is_declared_out_of_scope():
    rc = tool("rules_coverage")
    kinds = {c: k for c, _, k in rc.cited("DD-5.1–5.11")}
    assert kinds["DD-5.1"] == kinds["DD-5.11"] == rc.DIRECT and kinds["DD-5.7"] == rc.RANGE
    assert rc.counts_as_cited({rc.RANGE: ["x:1"]}, out_of_scope=False)
    assert not rc.counts_as_cited({rc.RANGE: ["x:1"]}, out_of_scope=True)
    assert rc.counts_as_cited({rc.DIRECT: ["x:1"]}, out_of_scope=True)   # a conflict the report shows
    assert not rc.counts_as_cited({rc.LEFT_OUT: ["x:1"]}, out_of_scope=False)


def test_a_what_it_leaves_out_passage_declares_instead_of_citing():
    rc = tool("rules_coverage")
    text = 'Shooting (DD-5.1).\n\nWhat it leaves out: vehicles (DD-5.7),\narmour (DD-5.12).\n\nMore (DD-5.9).\n"""'
    spans = rc.left_out_passages(text)
    inside = {c for c, o, _ in rc.cited(text) if any(a <= o < b for a, b in spans)}
    assert inside == {"DD-5.7", "DD-5.12"}
    text = 'x. What it leaves out: DD-3.8"""\nDD-3.9'       # a passage ends with its docstring too
    assert rc.left_out_passages(text) == [(3, text.index('"""'))]


# -- the two data files load strictly ---------------------------------------------------------------

@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    for name in ("clauses.toml", "out_of_scope.toml"):
        shutil.copy(DATA_DIR / name, d / name)
    return d


def edit(folder: Path, name: str, old: str, new: str) -> None:
    p = folder / name
    text = p.read_text(encoding="utf-8")
    assert old in text, f"{name}: {old!r}"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("name, old, new, error", [
    ("clauses.toml", 'id = "DD-1.1"\nchapter = "1"', 'id = "DD-1.1"\nchapter = "2"',
     r"clauses.toml: clause\[0\] 'DD-1.1': id is of chapter 1, the record says 2"),
    ("clauses.toml", 'id = "DD-1.1"\nchapter = "1"', 'id = "DD-1.1"\nchapter = "11"',
     r"clauses.toml: clause\[0\] 'DD-1.1': chapter '11' is not defined in clauses.toml"),
    ("clauses.toml", 'id = "DD-1.1"\n', 'id = "DD-1.1"\nsource = "Ch1"\n',
     r"clauses.toml: clause\[0\] 'DD-1.1': unknown key\(s\) source"),
    ("out_of_scope.toml", 'clause = "DD-2.35"', 'clause = "DD-2.99"',
     r"out_of_scope.toml: out_of_scope\[0\] 'DD-2.99': clause 'DD-2.99' is not defined in clauses.toml"),
    ("out_of_scope.toml", 'clause = "DD-2.35"\nnote = "FLAVOR"', 'clause = "DD-2.35"\nnote = ""',
     r"out_of_scope.toml: out_of_scope\[0\] 'DD-2.35': note '' is not the index's note"),
    ("out_of_scope.toml", 'reason = "Designer', 'reason = " "\nwas = "Designer',
     r"out_of_scope.toml: out_of_scope\[0\]: unknown key\(s\) was"),
])
def test_bad_clause_data_names_file_record_and_field(data_copy: Path, name, old, new, error):
    edit(data_copy, name, old, new)
    with pytest.raises(DataError, match=error):
        load_out_of_scope(data_copy)


def test_an_out_of_scope_row_without_a_reason_is_refused(data_copy: Path):
    p = data_copy / "out_of_scope.toml"
    text = p.read_text(encoding="utf-8")
    start = text.index('reason = "Designer')
    p.write_text(text[:start] + 'reason = " "' + text[text.index("\n", start):], encoding="utf-8")
    with pytest.raises(DataError, match=r"out_of_scope\[0\] 'DD-2.35': field 'reason' must say why"):
        load_out_of_scope(data_copy)
