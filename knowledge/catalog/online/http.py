"""A small HTTP GET for the refresh sources: a timeout, a User-Agent, and two kinds of failure.

`Unreachable`: no connection at all (DNS failure, refused, timeout) -- the machine is offline or the host is
blocked. `SourceError`: the host answered, but not with what its documentation describes (HTTP error,
malformed body). The refresh command turns the first into "offline, exit 2".
"""

from __future__ import annotations

import io
import json
import socket
import urllib.error
import urllib.request
from typing import Any, Iterator
from urllib.parse import urlsplit

USER_AGENT = "gpu-advisor-catalog-refresh/1"


class Unreachable(Exception):
    """The source could not be reached at all."""


class SourceError(Exception):
    """The source answered, but not as documented."""


def _open(url: str, timeout: float):
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
    try:
        return urllib.request.urlopen(req, timeout=timeout)  # noqa: S310 - https/http URLs from our own config
    except urllib.error.HTTPError as err:
        raise SourceError(f"{_host(url)} answered HTTP {err.code} for {urlsplit(url).path}") from None
    except urllib.error.URLError as err:
        raise Unreachable(f"{_host(url)}: {_reason(err.reason)}") from None
    except (socket.timeout, TimeoutError, ConnectionError, OSError) as err:
        raise Unreachable(f"{_host(url)}: {_reason(err)}") from None


def get_json(url: str, timeout: float) -> Any:
    with _open(url, timeout) as resp:
        try:
            body = resp.read()
        except (socket.timeout, TimeoutError, ConnectionError, OSError) as err:
            raise Unreachable(f"{_host(url)}: {_reason(err)}") from None
    try:
        return json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SourceError(f"{_host(url)}: not JSON ({err.__class__.__name__}) at {urlsplit(url).path}") from None


def get_lines(url: str, timeout: float) -> Iterator[str]:
    """The body as text lines, streamed (AWS offer files are hundreds of MB)."""
    resp = _open(url, timeout)
    try:
        text = io.TextIOWrapper(resp, encoding="utf-8-sig", newline="")
        try:
            yield from text
        except (socket.timeout, TimeoutError, ConnectionError, OSError) as err:
            raise Unreachable(f"{_host(url)}: {_reason(err)} while reading") from None
        except UnicodeDecodeError:
            raise SourceError(f"{_host(url)}: not UTF-8 text at {urlsplit(url).path}") from None
    finally:
        resp.close()


def _host(url: str) -> str:
    return urlsplit(url).netloc or url


def _reason(reason: Any) -> str:
    if isinstance(reason, socket.gaierror):
        return "name not resolved (no network or DNS)"
    if isinstance(reason, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    text = str(getattr(reason, "strerror", None) or reason)
    return text.split("\n")[0][:120] or reason.__class__.__name__
