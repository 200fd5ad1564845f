"""`gpu-advisor catalog refresh` against recorded responses on a real HTTP server on 127.0.0.1, and offline.

The recorded files (tests/data/refresh/, see its README) follow the documented formats of the AWS Price
List Bulk API and the Azure Retail Prices API. The refresh code takes its base URLs from the
GPU_ADVISOR_REFRESH_* variables, so the test points them at the local server.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from knowledge.catalog import clear_cache, load_catalog
from knowledge.catalog.loader import refreshed_dir
from knowledge.settings import Settings
from tools.domain import Billing, Currency, PriceGrade, PriceOrigin
from ui.cli import main

DATA = Path(__file__).resolve().parent / "data" / "refresh"
TODAY = "2026-12-01"


class Replay(BaseHTTPRequestHandler):
    """Serves tests/data/refresh/<source>/<path>; Azure pages by $skip; /broken answers 500."""

    requests: list[str] = []

    def do_GET(self):  # noqa: N802 - http.server API
        Replay.requests.append(self.path)
        parts = urlsplit(self.path)
        if parts.path.startswith("/broken"):
            return self._send(500, b"{}")
        if parts.path.startswith("/garbage"):
            return self._send(200, b"<html>not the price list</html>")
        if parts.path == "/azure/api/retail/prices":
            page = "prices-page2.json" if "$skip=100" in unquote(parts.query) else "prices-page1.json"
            return self._send(200, (DATA / "azure" / page).read_bytes())
        file = (DATA / parts.path.lstrip("/")).resolve()
        if DATA not in file.parents or not file.is_file():
            return self._send(404, b"not found")
        return self._send(200, file.read_bytes())

    def _send(self, code: int, body: bytes):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Replay)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def env(monkeypatch, tmp_path, server):
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GPU_ADVISOR_TODAY", TODAY)
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AWS_URL", f"{server}/aws")
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AWS_CHINA_URL", f"{server}/aws-china")
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AZURE_URL", f"{server}/azure")
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AWS_REGIONS", "us-east-1,us-west-2")
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_TIMEOUT", "10")
    Replay.requests.clear()
    clear_cache()
    yield tmp_path / "data"
    clear_cache()


def run(capsys, *argv):
    code = main(["catalog", "refresh", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def inst(catalog, key):
    return next(i for i in catalog.instances if i.key == key)


def test_offline_says_so_in_one_line_and_exits_2(monkeypatch, tmp_path, capsys):
    dead = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    for var in ("AWS", "AWS_CHINA", "AZURE"):
        monkeypatch.setenv(f"GPU_ADVISOR_REFRESH_{var}_URL", dead)
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("gpu-advisor: error: offline: catalog refresh needs the network")
    assert "connection refused" in err and "the catalog is unchanged" in err
    assert not (tmp_path / "data" / "catalog-refreshed").exists()


def test_default_sources_are_blocked_in_tests_and_reported_offline(monkeypatch, tmp_path, capsys):
    # conftest blocks every non-loopback connection: the real endpoints look exactly like an offline machine
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_TIMEOUT", "3")
    code, out, err = run(capsys, "--provider", "azure")
    assert code == 2 and err.count("\n") == 1 and "prices.azure.com" in err


def test_replay_all_sources_then_the_catalog_uses_them(env, capsys):
    code, out, err = run(capsys)
    assert code == 0, err
    assert err == ""
    lines = out.strip().splitlines()
    assert lines[0].startswith("aws: 5 prices for 5 instances in us-east-1, us-west-2 (official list price, as of 2026-12-01)")
    assert lines[1].startswith("aws-china: 3 prices for 3 instances in cn-north-1, cn-northwest-1")
    assert lines[2].startswith("azure: 5 prices for 3 instances in eastus, westus3")
    rdir = env / "catalog-refreshed"
    assert sorted(p.name for p in rdir.iterdir()) == [
        "instances-aws-china.csv", "instances-aws.csv", "instances-azure.csv", "manifest.json",
        "prices-aws-china.csv", "prices-aws.csv", "prices-azure.csv"]
    manifest = json.loads((rdir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["aws"]["refreshed"] == TODAY and manifest["azure"]["prices"] == 5

    catalog = load_catalog(Settings.load())
    p5 = inst(catalog, "aws/p5.48xlarge/us-east-1")
    (od,) = p5.prices  # Windows, dedicated, reserved, capacity-reservation and SQL rows were skipped
    assert (od.amount, od.origin, od.grade, od.as_of.isoformat()) == (55.04, PriceOrigin.refreshed, PriceGrade.official, TODAY)
    assert od.source_url.endswith("/offers/v1.0/aws/AmazonEC2/20261130180211/us-east-1/index.csv")
    assert "20261130180211" in od.source and od.covers.compute_only
    west = inst(catalog, "aws/p5.48xlarge/us-west-2")  # a region the built-in data lacks: specs copied
    assert (west.gpu, west.gpu_count, west.vcpus, west.infiniband) == ("H100", 8, p5.vcpus, True)
    assert "region added by catalog refresh" in west.notes and not west.region.china_mainland
    assert not [i for i in catalog.instances if i.instance == "m5.large"]  # not a catalog GPU instance

    china = inst(catalog, "aws-china/g4dn.xlarge/cn-northwest-1")
    assert china.region.china_mainland and china.price(Billing.on_demand).currency == Currency.CNY
    assert inst(catalog, "aws-china/g4dn.xlarge/cn-north-1").price(Billing.on_demand).amount == 5.223  # not the Windows row

    nd = inst(catalog, "azure/Standard_ND96isr_H100_v5/eastus")
    assert nd.price(Billing.on_demand).amount == 98.32  # the newest effective price, not the 2024 one; Windows skipped
    assert nd.price(Billing.spot).amount == 18.1695  # Low Priority and Reservation skipped
    assert inst(catalog, "azure/Standard_NC24ads_A100_v4/westus3").price(Billing.on_demand).origin == PriceOrigin.refreshed


def test_azure_query_and_paging_follow_the_documented_api(env, capsys):
    code, _, err = run(capsys, "--provider", "azure")
    assert code == 0, err
    azure = [unquote(r) for r in Replay.requests if r.startswith("/azure/")]
    assert len(azure) >= 2 and all("api-version=2023-01-01-preview" in r for r in azure)
    queries = [r for r in azure if "$skip" not in r]
    assert all("serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and (armSkuName eq '" in q for q in queries)
    assert all(q.count("armSkuName eq") <= 10 for q in queries)  # the catalog's SKUs, 10 per query
    assert any("armSkuName eq 'Standard_ND96isr_H100_v5'" in q for q in queries)
    assert sum("$skip=100" in r for r in azure) == len(queries)  # each query's NextPageLink followed on the configured host


def test_one_provider_and_region_filter(env, capsys):
    code, out, _ = run(capsys, "--region", "cn")
    assert code == 0 and out.startswith("aws-china:")
    assert sorted(p.name for p in (env / "catalog-refreshed").glob("*.csv")) == ["instances-aws-china.csv", "prices-aws-china.csv"]


def test_unknown_provider_is_one_line(env, capsys):
    code, out, err = run(capsys, "--provider", "vast")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no public key-free price source for 'vast' (refreshable: aws, aws-china, azure" in err


def test_a_failing_source_keeps_its_previous_files_and_exits_1(env, capsys, monkeypatch, server):
    assert run(capsys, "--provider", "azure")[0] == 0
    before = (env / "catalog-refreshed" / "prices-azure.csv").read_text(encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AZURE_URL", f"{server}/broken")
    code, out, err = run(capsys, "--provider", "azure")
    assert code == 1 and err.strip() == "gpu-advisor: error: azure: 127.0.0.1:" + server.rsplit(":", 1)[1] + \
        " answered HTTP 500 for /broken/api/retail/prices"
    assert (env / "catalog-refreshed" / "prices-azure.csv").read_text(encoding="utf-8") == before
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AZURE_URL", f"{server}/garbage")
    code, _, err = run(capsys, "--provider", "azure")
    assert code == 1 and "not JSON" in err


def test_partial_success_writes_the_good_sources(env, capsys, monkeypatch, server):
    monkeypatch.setenv("GPU_ADVISOR_REFRESH_AZURE_URL", f"http://127.0.0.1:{closed_port()}")
    code, out, err = run(capsys)
    assert code == 1
    assert out.startswith("aws:") and "azure: 127.0.0.1" in err and "connection refused" in err
    assert (env / "catalog-refreshed" / "prices-aws.csv").is_file()
    assert not (env / "catalog-refreshed" / "prices-azure.csv").exists()


def test_a_user_price_still_wins_after_a_refresh(env, capsys, monkeypatch, tmp_path):
    assert run(capsys, "--provider", "aws")[0] == 0
    user = tmp_path / "user"
    user.mkdir()
    (user / "prices.csv").write_text("provider,instance,region,billing,amount,currency,source\n"
                                     "aws,p5.48xlarge,us-east-1,on_demand,39.80,USD,EDP 2025-07\n", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_CATALOG_DIR", str(user))
    p = inst(load_catalog(Settings.load()), "aws/p5.48xlarge/us-east-1").price(Billing.on_demand)
    assert (p.amount, p.origin, p.grade) == (39.80, PriceOrigin.user, PriceGrade.user)


def test_json_report(env, capsys):
    code, out, _ = run(capsys, "--provider", "aws", "--json")
    data = json.loads(out)
    assert code == 0 and data["today"] == TODAY
    assert data["out_dir"] == str(refreshed_dir(Settings.load()))
    assert data["results"][0]["status"] == "ok" and data["results"][0]["regions"] == ["us-east-1", "us-west-2"]
