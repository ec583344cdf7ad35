"""RF2 loader and terminology store: the bundled sample and malformed releases (real DuckDB)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardio_assets.cli import main as cli
from cardio_assets.paths import DATA_DIR
from cardio_assets.terminology.build import load_rf2
from cardio_assets.terminology.location import ensure_default_store
from cardio_assets.terminology.rf2 import ROOT_ID, RF2Error
from cardio_assets.terminology.store import SnomedStore, index_path_for
from cardio_assets.terminology.text import TOKENIZER_VERSION
from cardio_assets.warehouse import connect

SAMPLE = DATA_DIR / "snomed_sample"
CONCEPT_FILE = "sct2_Concept_Snapshot_INT_20250101.txt"
DESC_FILE = "sct2_Description_Snapshot-en_INT_20250101.txt"
REL_FILE = "sct2_Relationship_Snapshot_INT_20250101.txt"


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def _copy_release(tmp_path: Path, name: str = "rel") -> Path:
    """A writable copy of the sample, nested like a real release zip."""
    dest = tmp_path / name / "SnomedCT_Test" / "Snapshot" / "Terminology"
    dest.mkdir(parents=True)
    for f in (CONCEPT_FILE, DESC_FILE, REL_FILE):
        shutil.copy(SAMPLE / f, dest / f)
    return tmp_path / name


def _append(path: Path, line: str) -> int:
    """Append a row; returns its 1-based line number."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text + line + "\n", encoding="utf-8")
    return text.count("\n") + 1


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "sample.duckdb"
    load_rf2(SAMPLE, db)
    return db


def test_sample_passes_its_own_validator() -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, str(SAMPLE / "check.py"), str(SAMPLE)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_sample_load_counts_match_the_files(sample_store: Path) -> None:
    concepts = _rows(SAMPLE / CONCEPT_FILE)
    descs = _rows(SAMPLE / DESC_FILE)
    rels = _rows(SAMPLE / REL_FILE)
    active = {c[0] for c in concepts if c[2] == "1"}
    with connect(sample_store, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM concept").fetchone()[0] == len(active)
        n_desc = sum(1 for d in descs if d[2] == "1" and d[4] in active)
        assert con.execute("SELECT count(*) FROM description").fetchone()[0] == n_desc
        n_isa = len({(r[4], r[5]) for r in rels if r[2] == "1" and r[7] == "116680003"})
        assert con.execute("SELECT count(*) FROM isa").fetchone()[0] == n_isa
        # every FSN carries its semantic tag
        fsn = dict(con.execute("SELECT concept_id, fsn FROM concept").fetchall())
        tags = dict(con.execute("SELECT concept_id, semantic_tag FROM concept").fetchall())
    for d in descs:
        if d[6] == "900000000000003001":
            assert fsn[int(d[4])] == d[7]
            assert d[7].endswith(f"({tags[int(d[4])]})")


def test_closure_and_taxonomy_paths(sample_store: Path) -> None:
    with connect(sample_store, read_only=True) as con:
        parents = {}
        for child, parent in con.execute("SELECT child, parent FROM isa").fetchall():
            parents.setdefault(child, set()).add(parent)
        closure = {}
        for c, a, depth in con.execute(
            "SELECT concept_id, ancestor_id, depth FROM ancestor"
        ).fetchall():
            closure[(c, a)] = depth
    # closure = exactly the pairs reachable through is-a, with the shortest depth
    for child in parents:
        seen, frontier, depth = {}, set(parents[child]), 1
        while frontier:
            nxt = set()
            for p in frontier:
                if p not in seen:
                    seen[p] = depth
                    nxt |= parents.get(p, set())
            frontier, depth = nxt, depth + 1
        assert {a: closure[(child, a)] for a in seen} == seen
        assert sum(1 for (c, _a) in closure if c == child) == len(seen)

    store = SnomedStore.open(sample_store)
    info = store.concept_details(["250908004"])["250908004"]
    assert "363787002" in info.ancestor_ids  # Observable entity
    path_ids = [int(c) for c, _t in info.taxonomy_path]
    assert path_ids[0] == 250908004 and path_ids[-1] == ROOT_ID
    for child, parent in zip(path_ids, path_ids[1:], strict=False):
        assert parent in parents[child]


def test_search_index_finds_names_and_synonyms(sample_store: Path) -> None:
    store = SnomedStore.open(sample_store)
    hits = store.candidate_descriptions(["left", "ventricular", "ejection", "fraction"], 5)
    assert hits[0].concept_id == "250908004"
    assert store.candidate_descriptions(["zzzzqqq"], 5) == []
    # misspelt word still reaches the concept through the fuzzy vocabulary lookup
    hits = store.candidate_descriptions(["fibrilation"], 20)
    assert "49436004" in {h.concept_id for h in hits}


def test_zip_release_loads_like_the_folder(tmp_path: Path, sample_store: Path) -> None:
    rel = _copy_release(tmp_path)
    zpath = tmp_path / "release.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        for f in rel.rglob("*.txt"):
            zf.write(f, f.relative_to(rel))
        zf.writestr("SnomedCT_Test/Snapshot/Refset/der2_cRefset_LanguageSnapshot-en.txt", "x\n")
    db = tmp_path / "zip.duckdb"
    report = load_rf2(zpath, db)
    with connect(sample_store, read_only=True) as con:
        assert (
            report.counts["concepts"] == con.execute("SELECT count(*) FROM concept").fetchone()[0]
        )


def test_crlf_line_endings_load(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    for f in rel.rglob("*.txt"):
        f.write_bytes(f.read_bytes().replace(b"\n", b"\r\n"))
    report = load_rf2(rel, tmp_path / "crlf.duckdb")
    assert report.counts["concepts"] == len(_rows(SAMPLE / CONCEPT_FILE))
    store = SnomedStore.open(tmp_path / "crlf.duckdb")
    assert store.concept_details(["84114007"])["84114007"].semantic_tag == "disorder"


def test_missing_file_names_what_is_missing(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    next(rel.rglob(REL_FILE)).unlink()
    with pytest.raises(RF2Error, match="sct2_Relationship_Snapshot"):
        load_rf2(rel, tmp_path / "x.duckdb")
    assert not (tmp_path / "x.duckdb").exists()


def test_wrong_header_names_file_and_line(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(CONCEPT_FILE))
    lines = f.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace("definitionStatusId", "definitionStatus")
    f.write_text("".join(lines))
    with pytest.raises(RF2Error, match=rf"{CONCEPT_FILE}:1: wrong RF2 header"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_non_utf8_names_file_and_line(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(DESC_FILE))
    raw = f.read_bytes().split(b"\n")
    bad_line = 37
    cols = raw[bad_line - 1].split(b"\t")
    cols[7] += b" caf\xe9"  # a Latin-1 byte in the term
    raw[bad_line - 1] = b"\t".join(cols)
    f.write_bytes(b"\n".join(raw))
    with pytest.raises(RF2Error, match=rf"{DESC_FILE}:{bad_line}: not valid UTF-8"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_wrong_column_count_names_line(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(REL_FILE))
    line = _append(f, "9100009991022\t20250101\t1\t900000000000207008\t84114007")
    with pytest.raises(RF2Error, match=rf"{REL_FILE}:{line}: 5 tab-separated fields, expected 10"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_non_numeric_id_names_line(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(CONCEPT_FILE))
    line = _append(f, "12345X\t20250101\t1\t900000000000207008\t900000000000074008")
    with pytest.raises(RF2Error, match=rf"{CONCEPT_FILE}:{line}: column id must be a number"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_inactive_only_release_is_refused(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(CONCEPT_FILE))
    lines = f.read_text().splitlines()
    out = [lines[0]] + [
        "\t".join(p[:2] + ["0"] + p[3:]) for p in (ln.split("\t") for ln in lines[1:])
    ]
    f.write_text("\n".join(out) + "\n")
    with pytest.raises(RF2Error, match="no active concepts"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_inactive_components_are_skipped_with_counts(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    cf, df = next(rel.rglob(CONCEPT_FILE)), next(rel.rglob(DESC_FILE))
    # retire "Heart failure screen" (a leaf): its descriptions go with it
    lines = cf.read_text().splitlines()
    lines = [
        ln.replace("\t1\t", "\t0\t", 1) if ln.startswith("390868005\t") else ln for ln in lines
    ]
    cf.write_text("\n".join(lines) + "\n")
    n_desc = sum(1 for d in _rows(df) if d[4] == "390868005")
    _append(
        df,
        "9100009990011\t20250101\t0\t900000000000207008\t84114007\ten\t900000000000013009\tOld HF name\t900000000000448009",
    )
    db = tmp_path / "x.duckdb"
    report = load_rf2(rel, db)
    assert report.skips["inactive concepts"]["count"] == 1
    assert report.skips["inactive descriptions"]["count"] == 1
    assert report.skips["descriptions of an inactive or unknown concept"]["count"] == n_desc
    skipped_rel = report.skips["is-a relationships pointing at an inactive or unknown concept"]
    assert skipped_rel["count"] >= 1
    store = SnomedStore.open(db)
    assert store.concept_details(["390868005"]) == {}
    assert {r for r, _n, _e in store.load_skips()} >= {"inactive concepts", "inactive descriptions"}
    assert all(
        h.term != "Old HF name" for h in store.candidate_descriptions(["old", "hf", "name"], 50)
    )


def test_relationships_to_unknown_concepts_are_skipped(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(REL_FILE))
    _append(
        f,
        "9100009990022\t20250101\t1\t900000000000207008\t84114007\t999999999\t0\t116680003\t900000000000011006\t900000000000451002",
    )
    _append(
        f,
        "9100009991028\t20250101\t1\t900000000000207008\t84114007\t363698007\t0\t363698007\t900000000000011006\t900000000000451002",
    )
    report = load_rf2(rel, tmp_path / "x.duckdb")
    skip = report.skips["is-a relationships pointing at an inactive or unknown concept"]
    assert skip == {"count": 1, "examples": [9100009990022]}
    assert (
        report.skips["attribute relationships (not is-a; not needed for grounding)"]["count"] == 1
    )


def test_isa_cycle_is_an_error_naming_the_rows(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(REL_FILE))
    # Heart failure (84114007) is-a Left heart failure (85232009), which is-a Heart failure
    line = _append(
        f,
        "9100009990022\t20250101\t1\t900000000000207008\t84114007\t85232009\t0\t116680003\t900000000000011006\t900000000000451002",
    )
    with pytest.raises(RF2Error, match="is-a cycle") as err:
        load_rf2(rel, tmp_path / "x.duckdb")
    assert "84114007" in str(err.value) and f"{REL_FILE}:{line}" in str(err.value)


def test_self_parent_is_a_cycle(tmp_path: Path) -> None:
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(REL_FILE))
    line = _append(
        f,
        "9100009990022\t20250101\t1\t900000000000207008\t84114007\t84114007\t0\t116680003\t900000000000011006\t900000000000451002",
    )
    with pytest.raises(RF2Error, match=rf"{REL_FILE}:{line}: is-a cycle"):
        load_rf2(rel, tmp_path / "x.duckdb")


def test_failed_load_leaves_the_good_store_in_place(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    load_rf2(SAMPLE, db)
    with connect(db, read_only=True) as con:
        before = con.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()[0]
    rel = _copy_release(tmp_path)
    f = next(rel.rglob(DESC_FILE))
    f.write_bytes(f.read_bytes() + b"broken\xff\n")
    with pytest.raises(RF2Error):
        load_rf2(rel, db)
    with connect(db, read_only=True) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()[0] == before
    assert SnomedStore.open(db).index.build_id == f"{before}/{TOKENIZER_VERSION}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rel",
        "store.duckdb",
        "store.duckdb.index.npz",
    ]


def test_missing_or_stale_index_is_rebuilt_from_duckdb(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    load_rf2(SAMPLE, db)
    index_path_for(db).unlink()
    store = SnomedStore.open(db)
    assert store.candidate_descriptions(["heart", "failure"], 3)[0].concept_id == "84114007"
    assert index_path_for(db).exists()
    # an index from another build is detected by its build_id
    other = tmp_path / "other.duckdb"
    load_rf2(SAMPLE, other)
    shutil.copy(index_path_for(other), index_path_for(db))
    with connect(db, read_only=True) as con:
        build_id = con.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()[0]
    assert SnomedStore.open(db).index.build_id == f"{build_id}/{TOKENIZER_VERSION}"


def test_default_store_is_built_once_under_cardio_home() -> None:
    import os

    path = ensure_default_store()
    assert str(path).startswith(os.environ["CARDIO_HOME"])
    mtime = path.stat().st_mtime_ns
    assert ensure_default_store() == path
    assert path.stat().st_mtime_ns == mtime


def test_cli_snomed_load(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "cli.duckdb"
    result = runner.invoke(cli, ["snomed", "load", str(SAMPLE), "--db", str(db), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "loaded: concepts" in result.output and db.exists()
    rel = _copy_release(tmp_path)
    next(rel.rglob(CONCEPT_FILE)).unlink()
    result = runner.invoke(cli, ["snomed", "load", str(rel), "--db", str(db), "--quiet"])
    assert result.exit_code != 0 and "sct2_Concept_Snapshot" in result.output


def test_resource_follows_env_and_fingerprints_the_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from resources.terminology import SnomedTerminologyResource as SnomedTerminology

    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    load_rf2(SAMPLE, a)
    load_rf2(SAMPLE, b)
    monkeypatch.setenv("CARDIO_SNOMED_STORE", str(a))
    resource = SnomedTerminology()
    assert resource.resolved_path() == a
    assert (
        resource.store().candidate_descriptions(["heart", "failure"], 1)[0].concept_id == "84114007"
    )
    explicit = SnomedTerminology(store_path=str(b))
    assert explicit.resolved_path() == b
    # same release -> same fingerprint (grounding not stale), though the build ids differ
    assert resource.fingerprint() == explicit.fingerprint() != ""
    assert resource.store().index.build_id != explicit.store().index.build_id
    rel = _copy_release(tmp_path)
    _append(
        next(rel.rglob(DESC_FILE)),
        "9100009990011\t20250101\t1\t900000000000207008\t84114007\ten\t900000000000013009\tCardiac failure NOS\t900000000000448009",
    )
    load_rf2(rel, b)
    assert SnomedTerminology(store_path=str(b)).fingerprint() != resource.fingerprint()
