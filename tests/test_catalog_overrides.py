"""User catalog files add rows or override built-in ones with the same id.

Each case builds a three-row "built-in" catalog in a temp folder, adds one
user file, and checks the merged result -- the real data is not involved
except in the last tests (load_catalog + GPU_ADVISOR_CATALOG_DIR, caching).
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from knowledge.catalog import clear_cache, load_catalog
from knowledge.catalog.loader import BUILTIN, USER, build_catalog
from knowledge.settings import Settings
from tools.domain import Billing, Currency, PriceGrade
from tools.errors import ConfigError

BASE_GPUS = """\
gpus:
  - {key: G80, name: Test GPU 80GB, vendor: NVIDIA, architecture: Hopper, form_factor: SXM5, memory_gb: 80,
     usable_memory_gib: 79.6, bf16_supported: true, fp8_supported: true, nvlink: true, source: datasheet}
  - {key: G24, name: Test GPU 24GB, vendor: NVIDIA, architecture: Ada, form_factor: PCIe, memory_gb: 24,
     usable_memory_gib: 22.5, bf16_supported: true, fp8_supported: false, nvlink: false, source: datasheet}
models:
  - {key: tiny-7b, name: Tiny 7B, family: tiny, params: 7.0e9, source: config}
providers:
  - {key: cloudy, name: Cloudy, kind: hyperscaler}
  - {key: yunco, name: Yun Co, name_zh: 云公司, kind: hyperscaler, home_currency: CNY, china_mainland: true}
"""
BASE_INSTANCES = """\
provider,instance,region,china_mainland,gpu,gpu_count,vcpus,ram_gib,source
cloudy,big.8x,us-east,false,G80,8,96,1152,list
cloudy,small.1x,us-east,false,G24,1,8,32,list
yunco,gpu.a1,cn-mainland,true,G24,1,8,30,doc
"""
BASE_PRICES = """\
provider,instance,region,billing,amount,currency,per,grade,as_of,source
cloudy,big.8x,us-east,on_demand,40,USD,hour,official,2025-01-01,list
cloudy,small.1x,us-east,on_demand,1.2,USD,hour,official,,list
cloudy,small.1x,us-east,spot,0.4,USD,hour,official,2025-01-01,list
"""


@pytest.fixture
def builtin(tmp_path: Path) -> Path:
    d = tmp_path / "builtin"
    d.mkdir()
    (d / "base.yaml").write_text(BASE_GPUS, encoding="utf-8")
    (d / "instances.csv").write_text(BASE_INSTANCES, encoding="utf-8")
    (d / "prices.csv").write_text(BASE_PRICES, encoding="utf-8")
    return d


def build(builtin: Path, tmp_path: Path, files: dict[str, str]):
    user = tmp_path / "user"
    user.mkdir(exist_ok=True)
    for name, text in files.items():
        (user / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return build_catalog([(BUILTIN, builtin), (USER, user)])


def inst(catalog, key):
    return next(i for i in catalog.instances if i.key == key)


# (case, user files, check) -- one row per override rule
CASES = [
    (
        "price override keeps the id, becomes user-supplied",
        {"prices.yaml": """
            prices:
              - {provider: cloudy, instance: big.8x, region: us-east, billing: on_demand, amount: 30, currency: USD,
                 source: "EDP 2025", as_of: 2025-06-01}
         """},
        lambda c: (
            inst(c, "cloudy/big.8x/us-east").price(Billing.on_demand).amount == 30
            and inst(c, "cloudy/big.8x/us-east").price(Billing.on_demand).grade == PriceGrade.user
            and len(inst(c, "cloudy/big.8x/us-east").prices) == 1
        ),
    ),
    (
        "new billing mode is added next to the built-in ones",
        {"prices-team.csv": "provider,instance,region,billing,amount,currency,per,source\n"
                            "cloudy,small.1x,us-east,monthly,500,USD,month,quote 42\n"},
        lambda c: (
            {p.billing for p in inst(c, "cloudy/small.1x/us-east").prices} == {Billing.on_demand, Billing.spot, Billing.monthly}
            and inst(c, "cloudy/small.1x/us-east").price(Billing.monthly).per_hour == pytest.approx(500 / 730)
            and inst(c, "cloudy/small.1x/us-east").price(Billing.on_demand).grade == PriceGrade.official
        ),
    ),
    (
        "a price for an unpriced Chinese instance (negotiated CNY quote)",
        {"prices.yaml": """
            prices:
              - {provider: yunco, instance: gpu.a1, region: cn-mainland, billing: monthly, amount: 2000, currency: CNY,
                 per: month, source: "quote Q-1"}
         """},
        lambda c: inst(c, "yunco/gpu.a1/cn-mainland").price(Billing.monthly).currency == Currency.CNY
        and inst(c, "yunco/gpu.a1/cn-mainland").price(Billing.monthly).as_of is None,
    ),
    (
        "a price in a region the catalog lacks copies the instance specs there",
        {"p.yaml": """
            prices:
              - {provider: yunco, instance: gpu.a1, region: cn-beijing, china_mainland: true, billing: on_demand,
                 amount: 9.5, currency: CNY, source: "quote"}
         """},
        lambda c: inst(c, "yunco/gpu.a1/cn-beijing").vcpus == 8 and inst(c, "yunco/gpu.a1/cn-beijing").region.china_mainland
        and not inst(c, "yunco/gpu.a1/cn-mainland").prices,
    ),
    (
        "instance override replaces specs but keeps built-in prices",
        {"instances.csv": "provider,instance,region,gpu,gpu_count,vcpus,ram_gib,infiniband,network_gbps,source\n"
                          "cloudy,big.8x,us-east,G80,8,192,2048,true,3200,our TAM\n"},
        lambda c: inst(c, "cloudy/big.8x/us-east").vcpus == 192 and inst(c, "cloudy/big.8x/us-east").infiniband
        and inst(c, "cloudy/big.8x/us-east").price(Billing.on_demand).amount == 40,
    ),
    (
        "new private instance on a new provider",
        {"private.yaml": """
            providers:
              - {key: lab, name: Our lab cluster, kind: gpu-cloud}
            instances:
              - {provider: lab, instance: node-a, region: onprem, gpu: G80, gpu_count: 4, source: inventory}
            prices:
              - {provider: lab, instance: node-a, region: onprem, billing: on_demand, amount: 0, currency: USD, source: internal}
         """},
        lambda c: inst(c, "lab/node-a/onprem").price(Billing.on_demand).amount == 0 and c.provider("Our lab cluster").key == "lab",
    ),
    (
        "GPU override by key (e.g. a measured usable memory)",
        {"gpus.yaml": """
            gpus:
              - {key: G24, name: Test GPU 24GB, vendor: NVIDIA, architecture: Ada, form_factor: PCIe, memory_gb: 24,
                 usable_memory_gib: 23.9, bf16_supported: true, fp8_supported: false, nvlink: false, source: our nvidia-smi}
         """},
        lambda c: c.gpu("G24").usable_memory_gib == 23.9 and c.gpu("G80").usable_memory_gib == 79.6,
    ),
    (
        "model added with aliases is found by them",
        {"models.yaml": """
            models:
              - {key: house-13b, name: House 13B, family: house, aliases: [our-13b], params: 1.3e10, num_layers: 40,
                 hidden_size: 5120, num_attention_heads: 40, source: our config}
         """},
        lambda c: c.model("our 13b").key == "house-13b" and c.model("tiny-7b").params == 7e9,
    ),
    (
        "grade short names are accepted and 'user' is allowed",
        {"prices.yaml": """
            prices:
              - {provider: cloudy, instance: small.1x, region: us-east, billing: spot, amount: 0.3, currency: usd,
                 grade: user-supplied, source: x}
         """},
        lambda c: inst(c, "cloudy/small.1x/us-east").price(Billing.spot).amount == 0.3,
    ),
]


@pytest.mark.parametrize("case, files, check", CASES, ids=[c[0] for c in CASES])
def test_user_rows_merge(builtin, tmp_path, case, files, check):
    catalog = build(builtin, tmp_path, files)
    assert check(catalog), case


def test_without_user_files_the_builtin_layer_is_unchanged(builtin, tmp_path):
    catalog = build(builtin, tmp_path, {})
    assert len(catalog.instances) == 3
    assert inst(catalog, "cloudy/small.1x/us-east").price(Billing.on_demand).age_text == "date unknown"


@pytest.mark.parametrize(
    "files, message",
    [
        ({"a.yaml": "prices:\n  - {provider: cloudy, instance: big.8x, region: us-east, billing: spot, amount: 1, currency: USD, "
                    "source: s, grade: official}\n"},
         r"a\.yaml row 1 \(line 2\): price 'cloudy/big\.8x/us-east/spot': grade: prices in user catalog files are always 'user-supplied'"),
        ({"a.yaml": "prices:\n  - {provider: cloudy, instance: big.8x, region: us-east, billing: spot, amount: 1, currency: USD, source: s}\n",
          "b.yaml": "prices:\n  - {provider: cloudy, instance: big.8x, region: us-east, billing: spot, amount: 2, currency: USD, source: s}\n"},
         r"b\.yaml row 1 \(line 2\): duplicate price id 'cloudy/big\.8x/us-east/spot' \(first defined at .*a\.yaml row 1"),
        ({"a.yaml": "prices:\n  - {provider: cloudy, instance: big.9x, region: us-east, billing: spot, amount: 1, currency: USD, source: s}\n"},
         r"instance: no instance 'cloudy/big\.9x' in the catalog; add an instances row for it first\. Did you mean: cloudy/big\.8x"),
        ({"a.yaml": "prices:\n  - {provider: cloudy, instance: big.8x, region: us-east, billing: spot, amount: 1, currency: EUR, source: s}\n"},
         r"a\.yaml row 1 \(line 2\): price 'cloudy/big\.8x/us-east/spot': currency: Input should be 'CNY' or 'USD'"),
    ],
)
def test_user_file_mistakes(builtin, tmp_path, files, message):
    with pytest.raises(ConfigError, match=message):
        build(builtin, tmp_path, files)


def test_builtin_price_for_unlisted_region_is_an_error(builtin, tmp_path):
    (builtin / "prices.csv").write_text(BASE_PRICES + "cloudy,big.8x,eu-west,on_demand,41,USD,hour,official,,list\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"prices\.csv row 4 \(line 5\): .*region: 'eu-west' is not a listed region of cloudy/big\.8x \(listed: us-east\)"):
        build_catalog([(BUILTIN, builtin)])


# ------------------------------------------------------------------ with the real data + settings


def test_load_catalog_applies_catalog_dir_and_example_file(tmp_path):
    user = tmp_path / "cat"
    user.mkdir()
    example = Path(__file__).resolve().parents[1] / "knowledge" / "catalog" / "examples" / "negotiated_prices.yaml"
    (user / "negotiated.yaml").write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    catalog = load_catalog(Settings(catalog_dir=user))
    p5 = next(i for i in catalog.instances if i.key == "aws/p5.48xlarge/us-east-1")
    assert p5.price(Billing.on_demand).amount == pytest.approx(39.80)
    assert p5.price(Billing.on_demand).grade == PriceGrade.user
    beijing = next(i for i in catalog.instances if i.key == "alibaba/ecs.gn7e-c16g1.4xlarge/cn-beijing")
    assert beijing.gpu == "A100-80GB" and beijing.region.china_mainland
    assert beijing.price(Billing.monthly).amount == 9000
    # the built-in catalog (no user dir) is untouched
    plain = load_catalog(Settings(catalog_dir=None))
    assert next(i for i in plain.instances if i.key == "aws/p5.48xlarge/us-east-1").price(Billing.on_demand).amount == pytest.approx(55.04)


def test_env_var_points_at_the_user_dir(tmp_path, monkeypatch):
    user = tmp_path / "cat"
    user.mkdir()
    (user / "prices.csv").write_text(
        "provider,instance,region,billing,amount,currency,source\naws,p4d.24xlarge,us-east-1,spot,9.99,USD,team quote\n", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_CATALOG_DIR", str(user))
    catalog = load_catalog()
    p4d = next(i for i in catalog.instances if i.key == "aws/p4d.24xlarge/us-east-1")
    assert p4d.price(Billing.spot).amount == 9.99


def test_cache_is_invalidated_when_a_file_changes(tmp_path):
    user = tmp_path / "cat"
    user.mkdir()
    f = user / "prices.csv"
    f.write_text("provider,instance,region,billing,amount,currency,source\naws,p4d.24xlarge,us-east-1,spot,9.99,USD,q\n", encoding="utf-8")
    settings = Settings(catalog_dir=user)
    first = load_catalog(settings)
    assert load_catalog(settings) is first
    f.write_text("provider,instance,region,billing,amount,currency,source\naws,p4d.24xlarge,us-east-1,spot,8.88,USD,q\n", encoding="utf-8")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # make sure the mtime moves on coarse clocks
    second = load_catalog(settings)
    assert second is not first
    assert next(i for i in second.instances if i.key == "aws/p4d.24xlarge/us-east-1").price(Billing.spot).amount == 8.88
    clear_cache()


def test_missing_catalog_dir_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match=r"catalog directory does not exist; create it or unset GPU_ADVISOR_CATALOG_DIR"):
        load_catalog(Settings(catalog_dir=tmp_path / "nope"))
