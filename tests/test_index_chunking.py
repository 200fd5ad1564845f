"""Chunking, loaders, language detection, Chinese segmentation and the manifest: no embedding model needed.

Token counts use the bundled MiniLM tokenizer (tokenizers only, no torch).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from knowledge.index.chunking import chunk_document, split_sections
from knowledge.index.documents import SourceDoc, detect_lang
from knowledge.index.embeddings import SentenceTransformerEmbedder
from knowledge.index.lexical import expand_query, segment_zh, stem, tokenize
from knowledge.index.loaders import SkipFile, load_file, split_front_matter, user_doc_id
from knowledge.index.manifest import (
    FORMAT_VERSION,
    Manifest,
    ManifestError,
    read_manifest,
    write_manifest,
)
from knowledge.index.paths import read_paths, repair_paths, write_paths


@pytest.fixture(scope="module")
def minilm():
    return SentenceTransformerEmbedder()  # tokenizer only; the model is never loaded here


# ------------------------------------------------------------------ sections


def test_sections_follow_heading_path_and_skip_title_h1():
    body = "# Billing\n\nintro\n\n## Spot\n\nspot text\n\n### Checkpoints\n\nsave often\n\n## Reserved\n\nlong term\n"
    got = [(" > ".join(s.path), s.body) for s in split_sections(body, "Billing modes")]
    assert got == [
        ("", "intro"),  # the only H1 is the title, not a section
        ("Spot", "spot text"),
        ("Spot > Checkpoints", "save often"),
        ("Reserved", "long term"),
    ]


def test_hash_lines_inside_code_fences_are_not_headings():
    body = "## Setup\n\n```bash\n# install drivers\nnvidia-smi\n```\n\n## Next\n\ntext"
    sections = split_sections(body, "T")
    assert [s.path for s in sections] == [["Setup"], ["Next"]]
    assert "# install drivers" in sections[0].body


# ------------------------------------------------------------------ chunk sizes


def _long_doc(lang: str) -> SourceDoc:
    if lang == "zh":
        para = "显存决定可加载的批量大小和模型参数量。大模型通常需要单卡四十GB以上显存，或多卡并行。" * 6
    else:
        para = "GPU memory decides the batch size and the model size you can load. " * 12
    body = "# Title\n\n## Section one\n\n" + "\n\n".join([para] * 5) + "\n\n## Section two\n\nshort closing note."
    return SourceDoc(doc_id="d", title="A fairly long document title", lang=lang, text=body, source="t.md")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_chunk_fits_the_minilm_window(minilm, lang):
    chunks = chunk_document(_long_doc(lang), minilm.count_tokens, window=256)
    assert len(chunks) >= 4
    for c in chunks:
        # +2 for [CLS] and [SEP]: the model's hard limit is 256 word pieces in all
        assert minilm.count_tokens(c.embed_text) + 2 <= 256, c.section
    assert chunks[-1].section == "Section two" and chunks[-1].text == "short closing note."
    assert [c.ord for c in chunks] == list(range(len(chunks)))


def test_consecutive_chunks_of_a_section_overlap(minilm):
    sentences = [f"Sentence number {i} talks about NVLink bandwidth and PCIe topology." for i in range(60)]
    doc = SourceDoc("d", "T", "en", "## S\n\n" + "\n\n".join(sentences), "t.md")
    chunks = chunk_document(doc, minilm.count_tokens, window=128, overlap_tokens=32)
    assert len(chunks) >= 3
    for prev, nxt in zip(chunks, chunks[1:]):
        last_sentence = prev.text.split("\n\n")[-1]
        assert nxt.text.startswith(last_sentence)  # the last paragraph carried over


def test_a_block_with_no_boundaries_is_hard_split(minilm):
    doc = SourceDoc("d", "T", "zh", "## S\n\n" + "显" * 900, "t.md")
    chunks = chunk_document(doc, minilm.count_tokens, window=256)
    assert len(chunks) >= 4
    assert "".join(c.text for c in chunks) == "显" * 900  # nothing lost, nothing duplicated (no sentences to overlap)
    assert all(minilm.count_tokens(c.embed_text) + 2 <= 256 for c in chunks)


def test_chunk_ids_depend_on_content_only(minilm):
    doc = SourceDoc("d", "T", "en", "## A\n\nalpha text\n\n## B\n\nbeta text", "t.md")
    first = chunk_document(doc, minilm.count_tokens)
    doc.text = "## A\n\nalpha text changed\n\n## B\n\nbeta text"
    second = chunk_document(doc, minilm.count_tokens)
    assert first[1].chunk_id == second[1].chunk_id  # section B untouched
    assert first[0].chunk_id != second[0].chunk_id


def test_embed_text_carries_title_and_section():
    doc = SourceDoc("d", "Billing", "en", "## Spot\n\nsave often", "t.md")
    chunk = chunk_document(doc, lambda t: len(t.split()))[0]
    assert chunk.embed_text == "Billing > Spot\nsave often"
    assert chunk.metadata()["doc_id"] == "d" and chunk.metadata()["section"] == "Spot"


# ------------------------------------------------------------------ language + Chinese


@pytest.mark.parametrize(
    "text, lang",
    [
        ("显存不足会导致OOM错误", "zh"),  # Chinese with an English acronym
        ("A100 和 H100 哪个更适合训练大模型", "zh"),  # mixed: Chinese carries the sentence
        ("How much VRAM does a 7B model need?", "en"),
        ("How do I size 显存 for training?", "en"),  # English quoting one Chinese word
        ("", "en"),
    ],
)
def test_detect_lang(text, lang):
    assert detect_lang(text) == lang


def test_jieba_segments_domain_words():
    words = segment_zh("显存不足会导致内存溢出")
    assert "显存" in words and "显存不足" in words  # glossary words are in the dictionary
    assert "内存溢出" in words


def test_tokenize_mixed_text_drops_stopwords_and_stems():
    tokens = tokenize("竞价实例的检查点 and the checkpoints for A100")
    assert "竞价实例" in tokens and "竞价" in tokens and "检查点" in tokens
    assert "的" not in tokens and "the" not in tokens and "and" not in tokens
    assert "checkpoint" in tokens and "a100" in tokens


@pytest.mark.parametrize(
    "word, stemmed",
    [("checkpoints", "checkpoint"), ("instances", "instance"), ("batches", "batch"), ("training", "train"),
     ("bus", "bus"), ("class", "class"), ("gpus", "gpu"), ("a100", "a100")],
)
def test_light_stemmer(word, stemmed):
    assert stem(word) == stemmed


def test_glossary_expands_both_ways():
    english, chinese = expand_query("竞价实例怎么用")
    assert "spot instance" in english
    english, chinese = expand_query("how do spot instances work")
    assert "竞价" in chinese


# ------------------------------------------------------------------ loaders


def test_markdown_front_matter(tmp_path):
    path = tmp_path / "billing-modes.zh.md"
    path.write_text("---\nid: billing-modes\ntitle: 计费方式\nlang: zh\ntopics: [billing, spot]\n---\n# 计费\n\n正文", "utf-8")
    doc = load_file(path, "fallback")
    assert (doc.doc_id, doc.title, doc.lang, doc.topics) == ("billing-modes", "计费方式", "zh", ["billing", "spot"])
    assert doc.text.strip().startswith("# 计费")


def test_markdown_without_front_matter_uses_file_name_and_detects_language(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# 团队规范\n\n训练任务一律使用竞价实例并每小时保存检查点。", "utf-8")
    doc = load_file(path, "local:notes")
    assert (doc.doc_id, doc.title, doc.lang) == ("local:notes", "团队规范", "zh")


def test_front_matter_that_is_not_yaml_is_body(tmp_path):
    meta, body = split_front_matter("---\n: [\n---\ntext")
    assert meta == {} and body.startswith("---")


def test_html_keeps_headings_and_drops_scripts(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Cluster guide</title><script>var x=1;</script></head><body>"
        "<h2>Storage</h2><p>Use local NVMe &amp; object storage.</p><ul><li>one</li><li>two</li></ul></body></html>",
        "utf-8",
    )
    doc = load_file(path, "local:page")
    assert doc.title == "Cluster guide"
    assert "## Storage" in doc.text and "Use local NVMe & object storage." in doc.text
    assert "var x" not in doc.text


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF with `text` in Helvetica (ASCII only), built by hand with a correct xref table."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_pdf_pages_become_sections(tmp_path):
    path = tmp_path / "policy.pdf"
    path.write_bytes(minimal_pdf("Always checkpoint spot jobs every 30 minutes."))
    doc = load_file(path, "local:policy")
    assert "## Page 1" in doc.text and "checkpoint spot jobs" in doc.text
    assert doc.lang == "en"


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("latin1.txt", "caf\xe9 na\xefve".encode("latin-1"), "not UTF-8"),  # a Windows-1252 export
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "not a readable PDF"),
        ("empty.md", b"   \n", "empty"),
        ("data.docx", b"PK\x03\x04", "unsupported file type"),
    ],
)
def test_unusable_files_raise_skipfile_naming_them(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SkipFile, match=rf"{name}.*{reason}"):
        load_file(path, "x")


def test_user_doc_ids_follow_the_path_under_the_named_folder(tmp_path):
    (tmp_path / "team" / "ops").mkdir(parents=True)
    f = tmp_path / "team" / "ops" / "GPU Policy.md"
    f.write_text("x", "utf-8")
    assert user_doc_id(f, tmp_path / "team") == "local:ops/gpu-policy"
    assert user_doc_id(f, f) == "local:gpu-policy"


# ------------------------------------------------------------------ manifest


def test_manifest_round_trip_and_version_mismatch(tmp_path):
    m = Manifest(backends={"minilm": "x"}, languages={"en": "minilm"})
    write_manifest(tmp_path, m)
    assert read_manifest(tmp_path).backends == {"minilm": "x"}
    data = json.loads((tmp_path / "manifest.json").read_text())
    data["format_version"] = FORMAT_VERSION + 1
    (tmp_path / "manifest.json").write_text(json.dumps(data))
    with pytest.raises(ManifestError, match="differs from this version"):
        read_manifest(tmp_path)


def test_corrupt_manifest_is_detected(tmp_path):
    (tmp_path / "manifest.json").write_text('{"format_version": 1, "sources": {"a": ')
    with pytest.raises(ManifestError, match="unreadable"):
        read_manifest(tmp_path)


def test_paths_file_is_written_atomically_with_a_backup(tmp_path):
    write_paths(tmp_path, ["/b", "/a", "/a"])
    assert read_paths(tmp_path) == (["/a", "/b"], None)
    assert not list(tmp_path.glob(".*.tmp"))  # no temp file left behind
    assert (tmp_path / "indexed_paths.json.bak").read_text() == (tmp_path / "indexed_paths.json").read_text()


def _manifest_listing(index_dir, paths):
    write_manifest(index_dir, Manifest(user_paths=paths))


@pytest.mark.parametrize(
    "damage, backup, manifest_paths, expected, said",
    [
        # the list is garbage, its backup is good: every path comes back, from the backup
        ("{not json", ["/a", "/b"], None, ["/a", "/b"], r"unreadable \(ValidationError\).*damaged file is kept.*restored 2 path\(s\) from .*indexed_paths\.json\.bak"),
        # list and backup damaged: the last complete build's manifest still names them
        ('{"paths": 5}', None, ["/notes"], ["/notes"], r"restored 1 path\(s\) from .*manifest\.json: /notes"),
        # both: a path only one of them knows is kept too (added just before a crash)
        ("\x00\x01", ["/a"], ["/a", "/c"], ["/a", "/c"], r"restored 2 path\(s\)"),
        # the list was deleted: restored, and said so
        (None, ["/a"], None, ["/a"], r"indexed_paths\.json is missing; restored 1 path"),
        # nothing to restore from: said, not silent
        ("{", None, None, [], r"no backup or index manifest lists any path"),
    ],
)
def test_damaged_or_missing_paths_file_is_restored_not_forgotten(tmp_path, damage, backup, manifest_paths,
                                                                  expected, said):
    data, index = tmp_path, tmp_path / "index"
    if backup is not None:
        write_paths(data, backup)
    else:
        (data / "indexed_paths.json.bak").write_text("garbage")
    if manifest_paths is not None:
        _manifest_listing(index, manifest_paths)
    target = data / "indexed_paths.json"
    if damage is None:
        target.unlink(missing_ok=True)
    else:
        target.write_text(damage)
    paths, warning = read_paths(data, index)
    assert paths == expected
    assert warning is not None and re.search(said, warning), warning
    assert target.exists() == (damage is not None)  # reading changes nothing

    repaired, _ = repair_paths(data, index)  # a writer keeps the damaged file and writes the restored list
    assert repaired == expected and read_paths(data, index) == (expected, None)
    if damage is not None:
        assert (data / "indexed_paths.json.damaged").read_text() == damage


def test_a_fresh_data_dir_has_no_paths_and_no_warning(tmp_path):
    assert read_paths(tmp_path, tmp_path / "index") == ([], None)
