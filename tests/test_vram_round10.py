"""Tenth formula round of the VRAM estimator (issue 11), on spent data only.

The eighth held-out round's mmsegmentation rows (spent since its one evaluation, read as calibration by the ninth round)
missed by more the larger the crop: their loss runs on per-pixel logits that no field stated. mmseg 0.x
`BaseDecodeHead.losses` resizes each head's logits to the label map and computes an fp32 cross-entropy there
(`@force_fp32`, `F.cross_entropy(..., reduction='none')` = nll_loss(log_softmax(x))): each head's loss keeps its
log-softmax output, and backward at the first loss adds two gradients of the same size. Expectations are derived from
that code; the errata that state the head on the frozen rows are checked to add fields only.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from knowledge.catalog import load_catalog
from tests.helpers.held_out import load_accuracy_bench
from tools.domain import ModelKind
from tools.messages import render
from tools.schemas import VramRequest
from tools.vram import estimate_vram
from tools.vram_codes import Component, VramCode
from tools.vram_shape import model_from_params

GIB = 2**30
DENSE_FIELDS = {"dense_classes", "dense_label_pixels", "dense_loss_heads"}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def bench():
    return load_accuracy_bench("accuracy_bench_round10")


BASE = dict(mode="full", precision="fp32", optimizer="sgd", batch_size=1, seq_len=1025, checkpointing="none",
            flash_attention=False)


@pytest.mark.parametrize(("fields", "batch", "maps"), [
    ({"dense_classes": 150, "dense_label_pixels": 512 * 512}, 1, 3),  # Segmenter: one loss, 1 saved + 2 gradients
    ({"dense_classes": 150, "dense_label_pixels": 512 * 512, "dense_loss_heads": 4}, 1, 6),  # SETR: decode + 3 aux
    ({"dense_classes": 150, "dense_label_pixels": 512 * 512, "dense_loss_heads": 4}, 2, 12),  # per image: x batch
    ({"dense_classes": 19, "dense_label_pixels": 768 * 768, "dense_loss_heads": 4}, 1, 6),  # Cityscapes' 19 classes
])
def test_the_per_pixel_loss_holds_heads_plus_two_fp32_maps(catalog, fields, batch, maps):
    model = model_from_params(86_000_000, kind=ModelKind.vision)
    plain = estimate_vram(model, VramRequest(**(BASE | {"batch_size": batch})))
    dense = estimate_vram(model, VramRequest(**(BASE | {"batch_size": batch} | fields)))
    per_map = 4 * fields["dense_classes"] * fields["dense_label_pixels"]  # fp32 classes x pixels
    added = dense.breakdown_gib.get(Component.logits.value, 0.0) - plain.breakdown_gib.get(Component.logits.value, 0.0)
    assert added == pytest.approx(maps * per_map / GIB, abs=1e-3)  # the breakdown is rounded to 0.001 GiB
    # beside the allocator's allowance on short-lived tensors (Component.fragmentation), nothing else moves
    frag = Component.fragmentation.value
    rest = (dense.per_gpu_gib - dense.breakdown_gib.get(frag, 0.0)) - (plain.per_gpu_gib - plain.breakdown_gib.get(frag, 0.0))
    assert rest == pytest.approx(maps * per_map / GIB, abs=3e-3)
    note = next(n for n in dense.assumptions if n.code == VramCode.dense_logits)
    assert note.params["maps"] == maps and note.params["heads"] == fields.get("dense_loss_heads", 1)
    for lang in ("en", "zh"):
        assert str(fields["dense_classes"]) in render(note, lang)


def test_no_dense_head_changes_nothing_and_says_nothing():
    model = model_from_params(86_000_000, kind=ModelKind.vision)
    est = estimate_vram(model, VramRequest(**BASE))
    assert not [n for n in est.assumptions if n.code in (VramCode.dense_logits, VramCode.dense_logits_ignored)]


@pytest.mark.parametrize(("kind", "mode", "reason"), [
    (ModelKind.vision, "inference", "inference"),  # no loss at inference
    (ModelKind.decoder, "full", "not_vision"),  # a language model's loss is its LM head's, counted as before
])
def test_a_dense_head_outside_vit_training_is_said_not_counted(kind, mode, reason):
    model = model_from_params(1_000_000_000, kind=kind)
    base = {"mode": mode, "batch_size": 1, "seq_len": 1025}
    plain = estimate_vram(model, VramRequest(**base))
    est = estimate_vram(model, VramRequest(**base, dense_classes=150, dense_label_pixels=512 * 512))
    assert est.per_gpu_gib == pytest.approx(plain.per_gpu_gib)
    note = next(n for n in est.assumptions if n.code == VramCode.dense_logits_ignored)
    assert note.params["reason"] == reason
    assert render(note, "en") and render(note, "zh")


@pytest.mark.parametrize(("fields", "match"), [
    ({"dense_classes": 150}, "dense_classes"),  # classes without the label map's size
    ({"dense_label_pixels": 262144}, "dense_label_pixels"),  # a size without classes
    ({"dense_loss_heads": 4}, "dense_loss_heads"),  # heads without a dense head
])
def test_a_dense_field_alone_is_refused(fields, match):
    with pytest.raises(ValidationError, match=f"{match} only applies with"):
        VramRequest(mode="full", **fields)


@pytest.mark.parametrize("fields", [
    {"dense_classes": 0, "dense_label_pixels": 10},  # no classes
    {"dense_classes": 150, "dense_label_pixels": 0},  # an empty map
    {"dense_classes": 150, "dense_label_pixels": 10, "dense_loss_heads": 0},  # no loss
])
def test_dense_fields_must_be_positive(fields):
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        VramRequest(mode="full", **fields)


def test_the_tenth_round_errata_only_add_the_dense_fields(bench):
    """The eighth round's file was read at its evaluation with no erratum; the tenth round's errata on it (after that
    evaluation) each add the three dense-head fields, read from the row's config, and change nothing else."""
    text = bench.ERRATA_FILE.read_text(encoding="utf-8")
    later = text[text.index("# Tenth formula round"):]
    mine = [e for e in bench.load_errata() if e["file"] == bench.HELDOUT_KINDS8_FILE.name]
    assert sorted(e["id"] for e in mine) == sorted(
        r["id"] for r in bench.load_yaml(bench.HELDOUT_KINDS8_FILE)["rows"] if r["id"].startswith("mmseg-"))
    for e in mine:
        assert f"id: {e['id']}" in later, e["id"]
        assert e["field"] == "workload" and set(e["now"]) - set(e["was"]) == DENSE_FIELDS, e["id"]
        assert {k: e["now"][k] for k in e["was"]} == e["was"], e["id"]
        assert "crop_size" in e["reason"] and str(e["now"]["dense_classes"]) in e["reason"], e["id"]


@pytest.mark.parametrize(("rid", "classes", "pixels", "heads"), [
    ("mmseg-segmenter-vit-t-mask-512-ddp8-b1", 150, 512 * 512, 1),  # ADE20K, one decode head
    ("mmseg-segmenter-vit-l-mask-640-ddp8-b1", 150, 640 * 640, 1),  # the ViT-L config's 640 crop
    ("mmseg-setr-naive-vit-l-512-ddp8-b2", 150, 512 * 512, 4),  # SETR: decode + 3 auxiliary heads
    ("mmseg-setr-naive-vit-l-768-cityscapes-ddp8-b1", 19, 768 * 768, 4),  # Cityscapes: 19 classes, 768 crop
])
def test_the_spent_rows_state_their_heads(bench, rid, classes, pixels, heads):
    rows = {r["id"]: r for r in bench.load_memory(bench.HELDOUT_KINDS8_FILE, bench.load_errata())["rows"]}
    w = rows[rid]["workload"]
    assert (w["dense_classes"], w["dense_label_pixels"], w["dense_loss_heads"]) == (classes, pixels, heads)


def test_the_round_moves_only_the_mmsegmentation_rows_and_closes_their_gap(bench, catalog):
    """Only rows that state a dense head move (the request without the three fields is the ninth round's count), and
    the seven mmsegmentation rows, -35 ... -68 % under their figures before, are within 35 % and still under."""
    mem = {r.id: r for r in bench.evaluate_all_memory(catalog)[0]}
    stating = set()
    for paths in bench.MEMORY_SETS.values():
        for path in paths:
            for row in bench.load_memory(path, bench.load_errata())["rows"]:
                if DENSE_FIELDS & set(row["workload"]):
                    stating.add(row["id"])
                    model = bench.resolve_model(catalog, row)
                    w = row["workload"]
                    plain = estimate_vram(model, VramRequest(**{k: v for k, v in w.items() if k not in DENSE_FIELDS}))
                    maps = (w["dense_loss_heads"] + 2) * w["batch_size"]
                    added = maps * 4 * w["dense_classes"] * w["dense_label_pixels"] / GIB
                    dense = estimate_vram(model, VramRequest(**w))
                    logits = Component.logits.value
                    got = dense.breakdown_gib.get(logits, 0.0) - plain.breakdown_gib.get(logits, 0.0)
                    assert got == pytest.approx(added, abs=1e-3), row["id"]
    assert stating == {rid for rid in mem if rid.startswith("mmseg-")} and len(stating) == 7
    for rid in stating:
        assert -0.35 < mem[rid].error < 0, rid


def test_the_tenth_reading_reports_every_file_and_freezes_the_ninth(bench, catalog):
    """The reading's before column is the ninth round's after-state (frozen), its after column is live; the rows the
    round moved are exactly those whose frozen ninth-round estimate it keeps for the ninth round's own reading."""
    mem, bounds = bench.evaluate_all_memory(catalog)
    report = bench.render(mem, bounds, bench.evaluate_hours(catalog), bench.load_errata())
    reading = report[report.index("### Reading the tenth formula round (calibration only)"):]
    reading = reading[:reading.index("\n### ", 10)]
    mem = [r for r in mem if r.set not in ("new kinds 9", "new kinds 10", "new kinds 11", "new kinds 12",
                                           "new kinds 13")]  # their own readings
    assert sum(n for _, _, n in bench.BEFORE_ROUND10.values()) == bench.BEFORE_ROUND10_ALL[2] == len(mem)
    assert "| published_memory_heldout_kinds8.yaml | 26.1% / 68.3% / 16 |" in reading
    moved = reading.split("Every row the round moved:")[1].split("The ten largest")[0]
    assert sorted(line.split(" | ")[0].removeprefix("| ") for line in moved.splitlines()
                  if line.startswith("| mmseg-")) == sorted(bench.AFTER_ROUND9_GIB)
    for rid, err in bench.BEFORE_ROUND10_TOP:
        assert f"| {rid} | {bench._pct(err)} |" in reading
    ninth = report[report.index("### Reading the ninth formula round (calibration only)"):]
    assert "| published_memory_heldout_kinds8.yaml | 30.3% / 62.6% / 16 | 26.1% / 68.3% / 16 |" in ninth
