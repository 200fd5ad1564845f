"""Property tests (hypothesis) for the memory estimator.

* For a raw parameter count with everything else equal, more parameters never
  need less memory (every mode, precision, optimizer and sharding).
* More ZeRO-3/FSDP GPUs never need more memory per GPU.
* For inference, fewer bits per weight never need more memory.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.domain import Precision
from tools.schemas import VramRequest
from tools.vram import estimate_vram
from tools.vram_shape import model_from_params

PROFILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

params_st = st.floats(min_value=1e7, max_value=2e12, allow_nan=False, allow_infinity=False)
seq_st = st.integers(min_value=1, max_value=32768)
batch_st = st.integers(min_value=1, max_value=16)
TRAIN_PRECISIONS = ["fp32", "tf32", "fp16", "bf16", "fp8"]


@st.composite
def requests(draw) -> VramRequest:
    mode = draw(st.sampled_from(["inference", "full", "lora", "qlora", "pretrain"]))
    if mode == "qlora":
        precision = draw(st.sampled_from(["nf4", "int4"]))
    elif mode == "inference" or mode == "lora":
        precision = draw(st.sampled_from([p.value for p in Precision]))
    else:
        precision = draw(st.sampled_from(TRAIN_PRECISIONS))
    kwargs = dict(mode=mode, precision=precision, seq_len=draw(seq_st), batch_size=draw(batch_st),
                  flash_attention=draw(st.booleans()), chunked_loss=draw(st.booleans()))
    if mode != "inference":
        gpus = draw(st.sampled_from([1, 2, 4, 8]))
        kwargs.update(
            optimizer=draw(st.sampled_from(["adamw", "adamw8bit", "adafactor", "sgd"])),
            master_weights=draw(st.sampled_from(["fp32", "none"])),
            checkpointing=draw(st.sampled_from(["none", "selective", "full"])),
            lora_rank=draw(st.sampled_from([4, 16, 64])),
            lora_targets=draw(st.sampled_from(["attention", "all-linear"])),
            gpus=gpus,
            sharding=draw(st.sampled_from(["none", "ddp", "zero1", "zero2", "zero3", "fsdp"])),
            kbit_prepare=draw(st.booleans()),
            autocast=draw(st.sampled_from([None, True, False])),
            foreach_step=draw(st.booleans()),
        )
        if kwargs["sharding"] in ("zero2", "zero3", "fsdp"):
            kwargs["offload"] = draw(st.sampled_from(["none", "cpu"]))
    else:
        kwargs["gpus"] = draw(st.sampled_from([1, 2, 4, 8]))
    return VramRequest(**kwargs)


# Pairs far apart and pairs a hair apart (where a layer count or width steps up).
pairs_st = st.one_of(
    st.tuples(params_st, params_st),
    st.tuples(params_st, st.floats(min_value=1.0, max_value=1.02)).map(lambda t: (t[0], t[0] * t[1])),
)


@PROFILE
@given(pair=pairs_st, request=requests())
def test_more_parameters_never_need_less_memory(pair, request):
    small, large = sorted(pair)
    a = estimate_vram(model_from_params(small), request).per_gpu_gib
    b = estimate_vram(model_from_params(large), request).per_gpu_gib
    assert a <= b


@PROFILE
@given(params=params_st, seq=seq_st, batch=batch_st, sharding=st.sampled_from(["zero3", "fsdp"]),
       offload=st.sampled_from(["none", "cpu"]), mode=st.sampled_from(["full", "pretrain", "lora", "qlora"]),
       n1=st.integers(min_value=1, max_value=512), n2=st.integers(min_value=1, max_value=512), foreach=st.booleans())
def test_more_zero3_gpus_never_need_more_per_gpu(params, seq, batch, sharding, offload, mode, n1, n2, foreach):
    few, many = sorted((n1, n2))
    model = model_from_params(params)

    def per_gpu(n: int) -> float:
        req = VramRequest(mode=mode, seq_len=seq, batch_size=batch, gpus=n, sharding=sharding, offload=offload,
                          foreach_step=foreach)
        return estimate_vram(model, req).per_gpu_gib

    assert per_gpu(many) <= per_gpu(few)


@PROFILE
@given(params=params_st, request=requests(), what=st.sampled_from(["kbit_prepare", "foreach_step"]))
def test_stating_more_work_never_needs_less_memory(params, request, what):
    """PEFT's k-bit upcast and a foreach optimizer step only ever add tensors (issue 11, round 3) — except the logits:
    with the output layer upcast to fp32 by the k-bit preparation the logits come out in fp32 once, not in 16 bits and
    again as the loss's fp32 copy, so on a tiny model (where the logits are most of the total) the whole can shrink."""
    model = model_from_params(params)
    without = estimate_vram(model, request.model_copy(update={what: False}))
    with_it = estimate_vram(model, request.model_copy(update={what: True}))

    def rest(e) -> float:
        return e.per_gpu_gib - (e.breakdown_gib.get("logits", 0.0) if what == "kbit_prepare" else 0.0)

    assert rest(with_it) >= rest(without) - 0.002  # each term is rounded to 0.001 GiB


BITS = {"fp32": 32, "tf32": 32, "fp16": 16, "bf16": 16, "fp8": 8, "int8": 8, "int4": 4, "nf4": 4}


@PROFILE
@given(params=params_st, seq=seq_st, batch=batch_st, gpus=st.sampled_from([1, 2, 8]),
       pa=st.sampled_from(list(BITS)), pb=st.sampled_from(list(BITS)))
def test_inference_fewer_bits_never_need_more(params, seq, batch, gpus, pa, pb):
    if BITS[pa] == BITS[pb]:
        return  # same width: no order to check (int4 vs nf4 differ only in their constants)
    fewer, more = (pa, pb) if BITS[pa] < BITS[pb] else (pb, pa)
    model = model_from_params(params)

    def need(p: str) -> float:
        return estimate_vram(model, VramRequest(mode="inference", precision=p, seq_len=seq, batch_size=batch,
                                                gpus=gpus)).per_gpu_gib

    assert need(fewer) <= need(more)
