"""LLM-as-judge through the real ChatOpenAI client against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from assistant.answer import Answer, Citation, ToolCallRecord
from assistant.evaluation.judge import make_judge, parse_verdict
from knowledge.settings import Settings
from tools.errors import ConfigError


class _Scripted(BaseHTTPRequestHandler):
    replies: list[str] = []
    prompts: list[str] = []

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).prompts.append(body["messages"][-1]["content"])
        content = type(self).replies.pop(0)
        if content == "HTTP500":
            self.send_response(500)
            self.end_headers()
            return
        payload = {
            "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Scripted.replies, _Scripted.prompts = [], []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


ANSWER = Answer(
    answer="LoRA on LLaMA-13B needs about 30 GB [1]; rent an A100 80GB for $1,197/month.",
    language="en",
    tool_calls=[ToolCallRecord(name="estimate_vram", args={"model": "llama-13b"}, result={"per_gpu_gib": 28.1})],
    citations=[Citation(marker=1, doc_id="vram", title="VRAM", section="LoRA", text="LoRA keeps the base frozen.")],
)


def test_judge_scores_supported_claims(server):
    settings = Settings.load(llm_base_url=server, llm_api_key="test-key")
    judge = make_judge(settings, "openai-compatible:judge-model")
    _Scripted.replies = ['```json\n{"claims": [{"claim": "30 GB", "supported": true},'
                         ' {"claim": "$1,197/month", "supported": false}]}\n```']
    verdict = judge.judge("What should I rent?", ANSWER)
    assert verdict.score == 0.5 and verdict.claims == 2 and verdict.unsupported == ["$1,197/month"]
    # the judge saw the evidence: the tool result and the cited passage
    assert '"per_gpu_gib": 28.1' in _Scripted.prompts[0] and "LoRA keeps the base frozen." in _Scripted.prompts[0]
    assert judge.meta["model"] == "openai-compatible:judge-model"


def test_judge_outage_is_reported_not_raised(server):
    settings = Settings.load(llm_base_url=server, llm_api_key="test-key")
    judge = make_judge(settings, "openai-compatible:judge-model")
    _Scripted.replies = ["HTTP500"]
    verdict = judge.judge("q", ANSWER)
    assert verdict.score is None and verdict.error and "Error" in verdict.error


def test_judge_needs_an_llm():
    with pytest.raises(ConfigError, match="--judge needs an LLM"):
        make_judge(Settings.load())


@pytest.mark.parametrize(
    "content, score, error",
    [
        ('{"claims": [{"claim": "a", "supported": true}]}', 1.0, None),
        ('Here: {"claims": [{"claim": "a", "supported": "yes"}]}', 0.0, None),  # only JSON true counts as supported
        ("no json at all", None, "holds no JSON object"),
        ('{"verdict": 1}', None, "is not"),
        ('{"claims": []}', None, "found no claims"),
    ],
)
def test_parse_verdict(content, score, error):
    verdict = parse_verdict(content)
    assert verdict.score == score
    assert (error is None and verdict.error is None) or (error and error in verdict.error)
