"""Test-wide isolation: no outside network, no user config, one shared data dir.

* Every GPU_ADVISOR_* / LLM key variable from the outside environment is removed
  so a developer's setup never leaks into a test.
* Sockets may only connect to loopback: tests talk to real servers we start on
  127.0.0.1 (Chroma, Gradio, Slack fake, scripted LLM), never to the internet.
* The built-in index is built once per session in a temp data dir shared by
  the tests that use the default settings.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import tempfile

import pytest

_SESSION_DATA = tempfile.mkdtemp(prefix="gpu-advisor-test-")

for _key in list(os.environ):
    if _key.startswith("GPU_ADVISOR_") or _key in (
        "OPENAI_API_KEY", "DEEPSEEK_API_KEY", "DASHSCOPE_API_KEY", "MOONSHOT_API_KEY", "ZHIPUAI_API_KEY",
        "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL",
    ):
        del os.environ[_key]
os.environ.update(
    {
        "GPU_ADVISOR_DATA_DIR": _SESSION_DATA,
        "ANONYMIZED_TELEMETRY": "False",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
)

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _loopback(address) -> bool:
    if not isinstance(address, tuple):
        return True  # unix sockets
    host = address[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address):
        raise ConnectionRefusedError(f"tests may not reach the network ({address!r})")
    return _real_connect(self, address)


def _guarded_connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address):
        return 111  # ECONNREFUSED
    return _real_connect_ex(self, address)


socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex


@pytest.fixture(scope="session")
def session_data_dir() -> str:
    return _SESSION_DATA


@pytest.fixture
def isolated_data_dir(tmp_path, monkeypatch):
    """A fresh data dir for tests that must not share the session index."""
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"
