"""`gpu-advisor index` and `gpu-advisor search` end to end (the session's built-in index)."""

from __future__ import annotations

import json
import time

import pytest

from ui.cli import main


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ bad input: fast, no model


@pytest.mark.parametrize("query", ["", "   ", "\t"])
def test_empty_query_exits_2_with_one_line(capsys, query):
    started = time.perf_counter()
    code, out, err = run_cli(capsys, "search", query)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        'gpu-advisor: error: empty query: type a question, e.g. gpu-advisor search "spot instances and checkpoints"'
    ]
    assert time.perf_counter() - started < 5  # rejected before any model loads


@pytest.mark.parametrize("k", ["0", "-1", "five"])
def test_bad_k_is_a_usage_error(capsys, k):
    with pytest.raises(SystemExit) as exc:
        main(["search", "spot", "--k", k])
    assert exc.value.code == 2
    assert "--k" in capsys.readouterr().err


def test_indexing_a_missing_path_exits_2(capsys, tmp_path):
    code, out, err = run_cli(capsys, "index", str(tmp_path / "nope"))
    assert code == 2
    assert "no such file or folder" in err and len(err.strip().splitlines()) == 1


def test_removing_an_unknown_path_exits_2(capsys, isolated_data_dir, tmp_path):
    code, out, err = run_cli(capsys, "index", "--remove", str(tmp_path / "never-added"))
    assert code == 2
    assert "is not an indexed path (no user paths are indexed)" in err


# ------------------------------------------------------------------ with the built-in index


@pytest.mark.slow
def test_search_json_shape_and_topic(capsys):
    code, out, err = run_cli(capsys, "search", "spot instances and checkpointing", "--k", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"query", "truncated", "hits"}
    assert data["query"] == "spot instances and checkpointing" and data["truncated"] is False
    assert len(data["hits"]) == 3
    for hit in data["hits"]:
        assert set(hit) == {"doc_id", "title", "section", "lang", "score", "text"}
    assert data["hits"][0]["doc_id"] == "billing-modes" and data["hits"][0]["lang"] == "en"


@pytest.mark.slow
def test_chinese_query_prefers_chinese_passages(capsys):
    code, out, err = run_cli(capsys, "search", "竞价实例被回收怎么办", "--k", "3", "--json")
    assert code == 0, err
    hits = json.loads(out)["hits"]
    assert hits[0]["doc_id"] == "billing-modes" and hits[0]["lang"] == "zh"


@pytest.mark.slow
def test_long_query_is_truncated_and_said_so(capsys):
    code, out, err = run_cli(capsys, "search", "how much VRAM do I need " * 120, "--json")
    assert code == 0
    assert json.loads(out)["truncated"] is True
    assert "truncated" in err


@pytest.mark.slow
def test_spec_question_finds_the_catalog_card(capsys):
    code, out, err = run_cli(capsys, "search", "H100 SXM memory bandwidth", "--k", "5", "--json")
    assert code == 0, err
    assert any(h["doc_id"].startswith("gpu:H100") for h in json.loads(out)["hits"])


@pytest.mark.slow
def test_index_a_user_folder_then_remove_it(capsys, tmp_path):
    folder = tmp_path / "team-docs"
    folder.mkdir()
    (folder / "quota.md").write_text("# Team GPU quota\n\nEach team may hold at most 16 H100 GPUs at once.\n", "utf-8")
    (folder / "old.txt").write_bytes("r\xe9sum\xe9".encode("latin-1"))
    try:
        code, out, err = run_cli(capsys, "index", str(folder))
        assert code == 0, err
        assert "indexed" in out and "embedded" in out
        assert "warning: skipped" in err and "old.txt" in err and "not UTF-8" in err

        code, out, err = run_cli(capsys, "index", "--list")
        assert out.strip().splitlines() == [str(folder.resolve())]

        code, out, err = run_cli(capsys, "search", "how many H100 may one team hold", "--json", "--k", "1")
        assert json.loads(out)["hits"][0]["doc_id"] == "local:quota"
    finally:
        code, out, err = run_cli(capsys, "index", "--remove", str(folder), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["removed"] == 1 and report["paths"] == []
    code, out, err = run_cli(capsys, "search", "how many H100 may one team hold", "--json", "--k", "5")
    assert "local:quota" not in {h["doc_id"] for h in json.loads(out)["hits"]}
