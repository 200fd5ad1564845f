"""Layer order: built-in < refreshed (`catalog refresh`) < user files (GPU_ADVISOR_CATALOG_DIR).

Three small catalogs in temp folders; each row of the table puts one price id into some layers and
says which layer must win. A team's negotiated price is never overwritten by a refresh.
"""

from __future__ import annotations

import pytest

from knowledge.catalog import clear_cache, load_catalog
from knowledge.catalog.loader import BUILTIN, REFRESHED, USER, build_catalog, refreshed_dir
from knowledge.settings import Settings
from tools.domain import Billing, PriceGrade, PriceOrigin
from tools.errors import ConfigError

BASE = """\
gpus:
  - {key: G80, name: Test GPU 80GB, vendor: NVIDIA, architecture: Hopper, form_factor: SXM5, memory_gb: 80,
     usable_memory_gib: 79.6, bf16_supported: true, fp8_supported: true, nvlink: true, source: datasheet}
providers:
  - {key: cloudy, name: Cloudy, kind: hyperscaler}
"""
INSTANCES = "provider,instance,region,gpu,gpu_count,source\ncloudy,big.8x,us-east,G80,8,list\n"
PRICE_HEADER = "provider,instance,region,billing,amount,currency,per,grade,as_of,source\n"
USER_HEADER = "provider,instance,region,billing,amount,currency,source,as_of\n"


def layers(tmp_path, builtin: float | None, refreshed: float | None, user: float | None):
    out = []
    b = tmp_path / "builtin"
    b.mkdir()
    (b / "base.yaml").write_text(BASE, encoding="utf-8")
    (b / "instances.csv").write_text(INSTANCES, encoding="utf-8")
    if builtin is not None:
        (b / "prices.csv").write_text(PRICE_HEADER + f"cloudy,big.8x,us-east,on_demand,{builtin},USD,hour,official,2025-01-01,list\n",
                                      encoding="utf-8")
    out.append((BUILTIN, b))
    if refreshed is not None:
        r = tmp_path / "refreshed"
        r.mkdir()
        (r / "prices-cloudy.csv").write_text(
            PRICE_HEADER + f"cloudy,big.8x,us-east,on_demand,{refreshed},USD,hour,official,2026-12-01,price list\n", encoding="utf-8")
        out.append((REFRESHED, r))
    if user is not None:
        u = tmp_path / "user"
        u.mkdir()
        (u / "prices.csv").write_text(USER_HEADER + f"cloudy,big.8x,us-east,on_demand,{user},USD,EDP quote,2025-07-01\n",
                                      encoding="utf-8")
        out.append((USER, u))
    return out


# (built-in, refreshed, user) amounts for one price id, the amount that must win, and its origin
CASES = [
    (40.0, None, None, 40.0, PriceOrigin.built_in),   # nothing else: the built-in list price
    (40.0, 38.0, None, 38.0, PriceOrigin.refreshed),  # a refresh beats the shipped data
    (40.0, 38.0, 30.0, 30.0, PriceOrigin.user),       # the team's negotiated price beats the refresh
    (40.0, None, 30.0, 30.0, PriceOrigin.user),       # and the shipped data
    (None, 38.0, None, 38.0, PriceOrigin.refreshed),  # a refresh may price an unpriced instance
    (None, 38.0, 30.0, 30.0, PriceOrigin.user),
]


@pytest.mark.parametrize("builtin, refreshed, user, wins, origin", CASES)
def test_layer_order(tmp_path, builtin, refreshed, user, wins, origin):
    catalog = build_catalog(layers(tmp_path, builtin, refreshed, user))
    (inst,) = catalog.instances
    (p,) = inst.prices
    assert (p.amount, p.origin) == (wins, origin)
    assert p.grade == (PriceGrade.user if origin == PriceOrigin.user else PriceGrade.official)


def test_refreshed_rows_keep_their_own_grade(tmp_path):
    # unlike user files, the refreshed layer is not forced to "user-supplied"
    catalog = build_catalog(layers(tmp_path, 40.0, 38.0, None))
    assert catalog.instances[0].prices[0].grade == PriceGrade.official


def test_load_catalog_reads_the_refreshed_layer_from_the_data_dir(tmp_path):
    data, user = tmp_path / "data", tmp_path / "user"
    settings = Settings(data_dir=data, catalog_dir=user)
    rdir = refreshed_dir(settings)
    rdir.mkdir(parents=True)
    user.mkdir()
    (rdir / "prices-aws.csv").write_text(
        PRICE_HEADER + "aws,p4d.24xlarge,us-east-1,on_demand,20.5,USD,hour,official,2026-12-01,AWS price list\n"
        "aws,p5.48xlarge,us-east-1,on_demand,54.0,USD,hour,official,2026-12-01,AWS price list\n", encoding="utf-8")
    (user / "prices.csv").write_text(USER_HEADER + "aws,p5.48xlarge,us-east-1,on_demand,39.80,USD,EDP 2025-07,2025-07-01\n",
                                     encoding="utf-8")
    catalog = load_catalog(settings)
    p4d = next(i for i in catalog.instances if i.key == "aws/p4d.24xlarge/us-east-1").price(Billing.on_demand)
    p5 = next(i for i in catalog.instances if i.key == "aws/p5.48xlarge/us-east-1").price(Billing.on_demand)
    assert (p4d.amount, p4d.origin, p4d.as_of.isoformat()) == (20.5, PriceOrigin.refreshed, "2026-12-01")
    assert (p5.amount, p5.origin) == (39.80, PriceOrigin.user)
    # without the refreshed folder the shipped price is back
    for f in rdir.iterdir():
        f.unlink()
    rdir.rmdir()
    clear_cache()
    plain = load_catalog(Settings(data_dir=data, catalog_dir=None))
    assert next(i for i in plain.instances if i.key == "aws/p4d.24xlarge/us-east-1").price(Billing.on_demand).origin == PriceOrigin.built_in


def test_a_bad_refreshed_file_is_one_line_naming_it(tmp_path):
    lay = layers(tmp_path, 40.0, 38.0, None)
    (tmp_path / "refreshed" / "prices-cloudy.csv").write_text(
        PRICE_HEADER + "cloudy,big.8x,us-east,on_demand,-1,USD,hour,official,2026-12-01,x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"refreshed/prices-cloudy\.csv row 1 \(line 2\): .*amount: Input should be greater than or equal to 0"):
        build_catalog(lay)
