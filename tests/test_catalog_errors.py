"""An invalid catalog file fails with ONE line naming the file, the row (line) and the field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from knowledge.catalog.loader import BUILTIN, build_catalog
from tools.domain import Billing, DatePrecision
from tools.errors import ConfigError

GPU = ("{key: G1, name: G1, vendor: NVIDIA, architecture: Ada, form_factor: PCIe, memory_gb: 24, usable_memory_gib: 22.5, "
       "bf16_supported: true, fp8_supported: false, nvlink: false, source: s}")
PROVIDER = "{key: cloudy, name: Cloudy, kind: gpu-cloud}"
MODEL = "{key: m7, name: M7, family: m, params: 7.0e9, source: s}"
INSTANCES_HEADER = "provider,instance,region,gpu,gpu_count,source\n"


def load(tmp_path: Path, files: dict[str, str]):
    d = tmp_path / "cat"
    d.mkdir(exist_ok=True)
    base = {"base.yaml": f"gpus:\n  - {GPU}\nproviders:\n  - {PROVIDER}\nmodels:\n  - {MODEL}\n"}
    for name, text in {**base, **files}.items():
        (d / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return build_catalog([(BUILTIN, d)])


# (what is wrong, files, expected message pattern): each names file, row/line and field
CASES = [
    ("negative memory",
     {"more.yaml": "gpus:\n  - {key: G2, name: G2, vendor: NVIDIA, architecture: Ada, form_factor: PCIe, memory_gb: -1, "
                   "usable_memory_gib: 1, bf16_supported: true, fp8_supported: false, nvlink: false, source: s}\n"},
     r"more\.yaml row 1 \(line 2\): gpu 'G2': memory_gb: Input should be greater than 0"),
    ("misspelt field",
     {"more.yaml": "models:\n  - {key: m8, name: M8, family: m, params: 8.0e9, source: s}\n"
                   "  - {key: m9, name: M9, family: m, parms: 9.0e9, source: s}\n"},
     r"more\.yaml row 2 \(line 3\): model 'm9': params: required field is missing; parms: unknown field"),
    ("text where a number belongs (CSV)",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\ncloudy,a.2,us,G1,two,s\n"},
     r"instances\.csv row 2 \(line 3\): instance 'cloudy/a\.2/us': gpu_count: Input should be a valid number"),
    ("unknown GPU in an instance, with the closest key",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G-1,1,s\n"},
     r"instances\.csv row 1 \(line 2\): gpu: unknown gpu 'G-1'; add it to the catalog or fix the name\. Did you mean: G1\?"),
    ("unknown provider in an instance",
     {"instances.csv": INSTANCES_HEADER + "cloudyy,a.1,us,G1,1,s\n"},
     r"instances\.csv row 1 \(line 2\): provider: unknown provider 'cloudyy'.*Did you mean: cloudy"),
    ("instance name with a slash breaks ids",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a/1,us,G1,1,s\n"},
     r"instances\.csv row 1 \(line 2\): instance 'cloudy/a/1/us': instance: String should match pattern"),
    ("built-in price without a grade",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,source\ncloudy,a.1,us,on_demand,1,USD,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/on_demand': grade: missing"),
    ("unknown billing mode",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,source\ncloudy,a.1,us,weekly,1,USD,official,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/weekly': billing: Input should be 'on_demand', 'spot', 'monthly' or 'yearly'"),
    ("unknown grade",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,source\ncloudy,a.1,us,spot,1,USD,rumour,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/spot': grade: Value error, unknown grade 'rumour'"),
    ("bad date",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,as_of,source\ncloudy,a.1,us,spot,1,USD,official,n/a,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/spot': as_of: Input should be a valid date"),
    ("impossible unquoted YAML date (PyYAML would raise a bare ValueError)",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "p.yaml": "prices:\n  - provider: cloudy\n    instance: a.1\n    region: us\n    billing: spot\n    amount: 1\n"
                "    currency: USD\n    grade: official\n    source: s\n    as_of: 2025-13-45\n"},
     r"p\.yaml row 1 \(line 2\): price 'cloudy/a\.1/us/spot': as_of: Input should be a valid date or datetime, month value is outside"),
    ("impossible day in a CSV date",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,as_of,source\ncloudy,a.1,us,spot,1,USD,official,2025-02-30,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/spot': as_of: Input should be a valid date or datetime, day value is outside"),
    ("a date precision without a date",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,as_of_precision,source\ncloudy,a.1,us,spot,1,USD,official,month,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/spot': row: Value error, as_of_precision / as_of_inferred need an as_of date"),
    ("an unknown cost part in what a price covers",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
      "prices.csv": "provider,instance,region,billing,amount,currency,grade,excludes,source\ncloudy,a.1,us,spot,1,USD,official,disk+tax,s\n"},
     r"prices\.csv row 1 \(line 2\): price 'cloudy/a\.1/us/spot': excludes\.0: Input should be 'compute', 'system_disk', 'data_disk', 'local_ssd' or 'bandwidth'"),
    ("duplicate id in one layer",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\ncloudy,a.1,us,G1,2,s\n"},
     r"instances\.csv row 2 \(line 3\): duplicate instance id 'cloudy/a\.1/us' \(first defined at .*instances\.csv row 1"),
    ("usable memory larger than sold memory (a MiB/GiB mix-up)",
     {"more.yaml": "gpus:\n  - {key: G3, name: G3, vendor: NVIDIA, architecture: Ada, form_factor: PCIe, memory_gb: 24, "
                   "usable_memory_gib: 24564, bf16_supported: true, fp8_supported: false, nvlink: false, source: s}\n"},
     r"more\.yaml row 1 \(line 2\): gpu 'G3': usable_memory_gib: 24564.*exceeds memory_gb 24.*MiB / 1024"),
    ("MoE with experts but no active count",
     {"more.yaml": "models:\n  - {key: moe, name: MoE, family: m, params: 4.0e10, moe_experts: 8, source: s}\n"},
     r"more\.yaml row 1 \(line 2\): model 'moe': moe_active_experts: give both moe_experts and moe_active_experts"),
    ("KV heads that do not divide the heads",
     {"more.yaml": "models:\n  - {key: g, name: G, family: m, params: 7.0e9, num_attention_heads: 32, num_kv_heads: 5, source: s}\n"},
     r"model 'g': num_kv_heads: 5 does not divide num_attention_heads 32"),
    ("YAML syntax error names the line",
     {"more.yaml": "gpus:\n  - {key: G2, name: [unclosed\n"},
     r"more\.yaml line \d+: not valid YAML"),
    ("unknown YAML section",
     {"more.yaml": "gpu:\n  - {key: G2}\n"},
     r"more\.yaml: unknown section\(s\) gpu; known: gpus, models, providers, instances, prices"),
    ("CSV named after no kind",
     {"stuff.csv": "a,b\n1,2\n"},
     r"stuff\.csv: cannot tell what this CSV holds; name it after its kind"),
    ("CSV row with more cells than the header",
     {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s,extra\n"},
     r"instances\.csv row 1 \(line 2\): more cells than header columns \(6\)"),
    ("a section that is not a list",
     {"more.yaml": "models: {key: x}\n"},
     r"more\.yaml: section 'models' must be a list of rows"),
]


@pytest.mark.parametrize("what, files, pattern", CASES, ids=[c[0] for c in CASES])
def test_invalid_file_message(tmp_path, what, files, pattern):
    with pytest.raises(ConfigError, match=pattern) as info:
        load(tmp_path, files)
    assert "\n" not in str(info.value), what  # one line


def test_comment_lines_before_csv_header_are_skipped_and_lines_counted(tmp_path):
    with pytest.raises(ConfigError, match=r"instances\.csv row 1 \(line 4\): instance 'cloudy/a\.1/us': gpu_count"):
        load(tmp_path, {"instances.csv": "# source: our inventory\n# licence: internal\n" + INSTANCES_HEADER + "cloudy,a.1,us,G1,0,s\n"})


def test_valid_minimal_catalog_loads(tmp_path):
    catalog = load(tmp_path, {"instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n"})
    assert [i.key for i in catalog.instances] == ["cloudy/a.1/us"]
    assert catalog.instances[0].prices == []


def test_month_and_approximate_dates_in_files(tmp_path):
    catalog = load(tmp_path, {
        "instances.csv": INSTANCES_HEADER + "cloudy,a.1,us,G1,1,s\n",
        "prices.csv": "provider,instance,region,billing,amount,currency,grade,as_of,source,source_url\n"
                      "cloudy,a.1,us,spot,1,USD,official,2026-10,s,https://example.org/p\n"
                      "cloudy,a.1,us,on_demand,2,USD,official,~2026-09,s,\n",
    })
    spot, od = catalog.instances[0].price(Billing.spot), catalog.instances[0].price(Billing.on_demand)
    assert (spot.as_of_label, spot.precision, spot.source_url) == ("2026-10", DatePrecision.month, "https://example.org/p")
    assert (od.as_of_label, od.precision, od.age_text) == ("2026-09", DatePrecision.approximate, "about 2026-09")


def test_cli_bad_yaml_date_is_one_line(tmp_path, monkeypatch, capsys):
    from ui.cli import main

    d = tmp_path / "user"
    d.mkdir()
    (d / "negotiated.yaml").write_text("prices:\n  - provider: aws\n    instance: p5.48xlarge\n    region: us-east-1\n"
                                       "    billing: on_demand\n    amount: 39.8\n    currency: USD\n    source: EDP\n"
                                       "    as_of: 2025-13-45\n", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_CATALOG_DIR", str(d))
    assert main(["catalog", "show", "aws/p5.48xlarge"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "negotiated.yaml row 1 (line 2): price 'aws/p5.48xlarge/us-east-1/on_demand': as_of: Input should be a valid date" in err


def test_cli_prints_one_line_and_exits_2(tmp_path, monkeypatch, capsys):
    from ui.cli import main

    d = tmp_path / "user"
    d.mkdir()
    (d / "prices.csv").write_text("provider,instance,region,billing,amount,currency,source\naws,p4d.24xlarge,us-east-1,spot,-1,USD,x\n",
                                  encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_CATALOG_DIR", str(d))
    assert main(["catalog", "gpus"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "prices.csv row 1 (line 2)" in err and "amount: Input should be greater than or equal to 0" in err
