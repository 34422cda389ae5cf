"""OpenAI-compatible HTTP backend against a real `python -m llama_cpp.server` on 127.0.0.1."""

import json
import time

import pytest

from garp.engine.backends import OpenAIHTTPBackend
from garp.engine.local_server import LocalServer, free_port
from garp.engine.lmfunction import run_function
from garp.engine.scheduler import InferenceScheduler
from garp.errors import GarpError
from test_backends import BUDGET, SCHEMA
from test_lmfunction import Greet, Reply


@pytest.fixture(scope="module")
def server_url(bundled_model_spec, tmp_path_factory):
    with LocalServer(bundled_model_spec.path, tmp_path_factory.mktemp("server") / "server.log", threads=2,
                     n_ctx=2048) as server:
        yield server.url


def test_schema_completion_over_http(server_url):
    backend = OpenAIHTTPBackend(server_url, model="smollm2")
    try:
        # llama.cpp's server refuses the json_schema form; the start probe picks its json_object form
        assert backend.stats()[0]["form"] == "json_object" and backend.stats()[0]["enforced"]
        msgs = [{"role": "system", "content": "You are Ana, a baker. Reply in JSON."},
                {"role": "user", "content": "Tom says hello. Answer briefly."}]
        c = backend.complete(msgs, schema=SCHEMA, max_tokens=BUDGET, seed=1)
        data = json.loads(c.text)
        assert data["mood"] in {"glad", "tired", "busy"} and c.completion_tokens > 0
        assert backend.model_id == f"server:{server_url}:smollm2"
        out, rec = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana")
        assert isinstance(out, Reply) and not rec.fallback_used
        scores = backend.score_options([{"role": "user", "content": "What is the opposite of hot?"}],
                                       ["cold", "purple sandwich engine"], prefix="The opposite of hot is")
        assert scores[0] > scores[1]
    finally:
        backend.close()


def test_several_requests_in_flight(server_url):
    backend = OpenAIHTTPBackend(server_url, model="smollm2", max_in_flight=3)
    sched = InferenceScheduler(backend).start()
    try:
        assert sched.workers == 3
        futs = [sched.submit_function(Greet(), {"name": n}, agent=n)[1] for n in ("Tom", "Lea", "Max")]
        results = [f.result(120) for f in futs]
        assert all(isinstance(o, Reply) and not r.fallback_used for o, r in results)
    finally:
        sched.stop()
        backend.close()


def test_server_down_is_a_clear_error_at_once():
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = OpenAIHTTPBackend(url, retries=2, timeout_s=2, notify=None)
    t0 = time.monotonic()
    with pytest.raises(GarpError, match=r"no model server reachable.*cannot reach server at .*start one with"):
        backend.complete([{"role": "user", "content": "hi"}], max_tokens=4)
    assert time.monotonic() - t0 < 1.0  # the start probe marked it down; no request waits on it
    out, rec = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana")  # never escapes a call
    assert rec.fallback_used and "no model server reachable" in rec.error
    backend.close()
