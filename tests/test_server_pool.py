"""Server pool against fake OpenAI-compatible servers on 127.0.0.1 (no model needed)."""

import json
import socket
import time
from pathlib import Path

import pytest

from fake_openai import FakeServer
from garp.engine.backends import make_backend
from garp.engine.health import health_verdict
from garp.engine.lmfunction import run_function
from garp.engine.scheduler import InferenceScheduler
from garp.engine.servers import EndpointConfig, ServerPool, ServerUnreachable, endpoint_configs
from garp.errors import GarpError
from test_lmfunction import Greet, Reply

EXCHANGES = Path(__file__).parent / "data" / "json_schema_exchanges.json"
MSGS = [{"role": "user", "content": "Ana sees the oven is hot. What now?"}]


@pytest.fixture
def fakes():
    made: list[FakeServer] = []

    def make(**kw) -> FakeServer:
        made.append(FakeServer(**kw))
        return made[-1]

    yield make
    for f in made:
        f.close()


def pool(*servers, **kw) -> ServerPool:
    kw.setdefault("notify", None)
    return ServerPool([EndpointConfig(url=s.url, model="m") for s in servers], **kw)


def dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/v1"


def test_json_schema_form_is_chosen_and_enforced_with_the_api_key(fakes, monkeypatch):
    fake = fakes(api_key="sekrit")
    monkeypatch.setenv("GARP_API_KEY", "sekrit")
    p = pool(fake)
    try:
        assert p.stats()[0]["form"] == "json_schema" and p.stats()[0]["enforced"]
        out, rec = run_function(Greet(), {"name": "Tom"}, p, agent="Ana")
        assert isinstance(out, Reply) and not rec.fallback_used and out.mood == "glad"
        sent = fake.chat_paths()[-1]["response_format"]
        assert sent["json_schema"]["name"] == "greet_Reply" and sent["json_schema"]["strict"] is True
        assert fake.problems == []
    finally:
        p.close()
    wrong = pool(fake, api_key="other")  # --api-key wins over the environment: the server refuses it
    try:
        assert wrong.stats()[0]["enforced"] is False
    finally:
        wrong.close()


def test_recorded_vllm_and_ollama_json_schema_exchanges_parse(fakes):
    for ex in json.loads(EXCHANGES.read_text())["exchanges"]:
        fake = fakes(reply=ex["response"])
        p = ServerPool([EndpointConfig(url=fake.url, model=ex["request"]["model"])], notify=None, probe=False)
        try:
            out, rec = run_function(Greet(), {"name": "Tom"}, p, agent="Ana")
            sent = fake.chat_paths()[-1]
            assert {k: sent[k] for k in ex["request"]} == ex["request"], ex["server"]
            assert not rec.fallback_used and out.model_dump() == ex["expected"], (ex["server"], rec.error)
            assert rec.completion_tokens == ex["response"]["usage"]["completion_tokens"]
        finally:
            p.close()


def test_choices_are_generated_per_call_on_an_endpoint_that_cannot_score(fakes):
    plain, scorer = fakes(), fakes(scoring=True)
    p = pool(plain, scorer)
    sched = InferenceScheduler(p).start()
    try:
        recs = [sched.choose_sync(MSGS, ["open a window", "bake bread"], agent="Ana", mode="score")[1]
                for _ in range(4)]
    finally:
        sched.stop()
        p.close()
    by_ep = {r.endpoint: r for r in recs}
    assert set(by_ep) == {f"127.0.0.1:{plain.port}", f"127.0.0.1:{scorer.port}"}
    gen, score = by_ep[f"127.0.0.1:{plain.port}"], by_ep[f"127.0.0.1:{scorer.port}"]
    assert gen.mode == "generate" and "cannot score" in gen.note and not gen.fallback_used
    assert score.mode == "score" and score.note == "" and not score.fallback_used
    assert sum(r.mode == "score" for r in recs) == 2  # the run never switched to generate as a whole


def test_failing_endpoint_is_taken_out_and_probed_back_in(fakes):
    a, b = fakes(), fakes()
    lines: list[str] = []
    p = pool(a, b, notify=lines.append)
    try:
        a.status = 503
        recs = [run_function(Greet(), {"name": n}, p, agent=n)[1] for n in ("Tom", "Lea", "Max")]
        assert not any(r.fallback_used for r in recs)  # the failed request moved to b
        assert [s["up"] for s in p.stats()] == [False, True]
        assert any("unreachable" in line and str(a.port) in line for line in lines)
        a.status = 200
        deadline = time.monotonic() + 10
        while not p.stats()[0]["up"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert p.stats()[0]["up"] and any("is back" in line for line in lines)
    finally:
        p.close()


def test_least_loaded_endpoint_and_in_flight_limits(fakes):
    a, b = fakes(), fakes()
    a.delay_s = b.delay_s = 0.3
    p = ServerPool([EndpointConfig(url=a.url, max_in_flight=1), EndpointConfig(url=b.url, max_in_flight=2)],
                   notify=None, probe=False)
    sched = InferenceScheduler(p).start()
    try:
        assert sched.workers == 3
        futs = [sched.submit_function(Greet(), {"name": str(i)}, agent=str(i))[1] for i in range(6)]
        recs = [f.result(30)[1] for f in futs]
        stats = sched.stats()["endpoints"]
    finally:
        sched.stop()
        p.close()
    assert not any(r.fallback_used for r in recs)
    assert len(a.requests) == 2 and len(b.requests) == 4  # in proportion to the slots
    assert [(e["calls"], e["tokens"], e["in_flight"]) for e in stats] == [(2, 14, 0), (4, 28, 0)]


def test_no_server_up_fails_at_once_without_blocking_and_counts_as_unreachable():
    p = ServerPool([EndpointConfig(url=dead_url()), EndpointConfig(url=dead_url())], notify=None, timeout_s=2)
    sched = InferenceScheduler(p).start()
    try:
        assert [s["up"] for s in p.stats()] == [False, False]
        t0 = time.monotonic()
        futs = [sched.submit_function(Greet(), {"name": str(i)}, agent=str(i))[1] for i in range(20)]
        recs = [f.result(10)[1] for f in futs]
        assert time.monotonic() - t0 < 2.0  # no request sleeps on a dead server
        assert all(r.fallback_used and r.unreachable and "no model server reachable" in r.error for r in recs)
        with pytest.raises(ServerUnreachable, match="start one with"):
            p.complete(MSGS, max_tokens=4)
    finally:
        sched.stop()
        p.close()
    events = [{"kind": "llm_call", "unreachable": True}] * 2 + [{"kind": "llm_call"}] * 18
    assert health_verdict(events)[0] is True
    ok, line = health_verdict(events + [{"kind": "llm_call", "unreachable": True}] * 2)
    assert not ok and "4 of 22 model calls" in line and "10%" in line


def test_endpoints_file_and_bad_values(tmp_path, fakes):
    fake = fakes()
    f = tmp_path / "servers.toml"
    f.write_text(f'[[endpoints]]\nurl = "{fake.url}"\nmodel = "qwen"\nweight = 2\nmax_in_flight = 8\n')
    (cfg,) = endpoint_configs([str(f)], None)
    assert cfg.model == "qwen" and cfg.weight == 2 and cfg.max_in_flight == 8
    backend = make_backend(server=[str(f), fake.url])
    try:
        assert backend.max_in_flight == 12 and backend.model_id == "server:" + "|".join(
            sorted([f"{fake.url}:qwen", f"{fake.url}:default"]))
    finally:
        backend.close()
    f.write_text('[[endpoints]]\nurl = "ftp://x"\nwieght = 2\n')
    with pytest.raises(GarpError, match=r"servers.toml.*endpoints.0.url.*endpoints.0.wieght"):
        endpoint_configs([str(f)], None)
    j = tmp_path / "servers.json"
    j.write_text('{"endpoints": [{"url": "http://h/v1", "api_key_env": "GARP_TEST_NO_SUCH_KEY"}]}')
    with pytest.raises(GarpError, match="api_key_env.*GARP_TEST_NO_SUCH_KEY"):
        ServerPool(endpoint_configs([str(j)], None), probe=False)
    with pytest.raises(GarpError, match="not an http"):
        endpoint_configs(["localhost:8080"], None)


def test_hud_shows_each_server_and_a_banner_while_one_is_down(fakes):
    import types

    import pygame

    from garp.game import text as T
    from garp.game.hud import BANNER_H, HUD_H, Hud

    up = fakes()
    p = ServerPool([EndpointConfig(url=up.url), EndpointConfig(url=dead_url())], notify=None, timeout_s=2)
    sched = InferenceScheduler(p).start()
    try:
        pygame.init()
        hud = Hud(types.SimpleNamespace(scheduler=sched, minds={"Ana": None}))
        assert f"127.0.0.1:{up.port} json_schema 0/4 0 calls" in hud.line() and "DOWN" in hud.line()
        assert hud.banner().startswith("Model server unreachable: 127.0.0.1:") and "other servers" in hud.banner()
        surface = pygame.Surface((1280, 200))
        hud.draw(surface)
        assert tuple(surface.get_at((1270, HUD_H + BANNER_H - 2)))[:3] == T.BAD
        up.status = 503  # now none is up: the banner says the fallbacks answer
        p.mark_down(p.endpoints[0], "HTTP 503")
        hud.update(1.0)
        assert "fallbacks" in hud.banner()
    finally:
        sched.stop()
        p.close()


def test_published_servers_schema_is_current():
    from garp import paths
    from garp.engine.servers import ServersFile
    assert json.loads((paths.SCHEMAS / "servers.schema.json").read_text()) == ServersFile.model_json_schema()
