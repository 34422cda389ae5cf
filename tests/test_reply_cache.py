"""Persistent reply cache: hits avoid the model; recordings stay with their model."""

import pytest

from garp.engine.lmfunction import run_choice, run_function
from garp.engine.reply_cache import ReplyCache
from garp.errors import GarpError
from test_lmfunction import Greet


class Counting:
    """Counts real backend calls."""

    def __init__(self, inner):
        self.inner, self.profile, self.model_id = inner, inner.profile, inner.model_id
        self.completes = self.scores = 0

    def count_tokens(self, text):
        return self.inner.count_tokens(text)

    def complete(self, *a, **kw):
        self.completes += 1
        return self.inner.complete(*a, **kw)

    def score_options(self, *a, **kw):
        self.scores += 1
        return self.inner.score_options(*a, **kw)


def test_hit_means_no_model_call_and_survives_reopen(llm_backend, tmp_path):
    backend = Counting(llm_backend)
    path = tmp_path / "replies.sqlite"
    cache = ReplyCache(path, backend.model_id)
    out1, rec1 = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana", cache=cache, seed=3)
    out2, rec2 = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana", cache=cache, seed=3)
    assert backend.completes == 1 and not rec1.cached and rec2.cached and out1 == out2
    run_function(Greet(), {"name": "Tom"}, backend, agent="Ana", cache=cache, seed=4)  # seed is in the key
    assert backend.completes == 2
    msgs = [{"role": "user", "content": "Pick a fruit."}]
    run_choice(backend, msgs, ["apple", "pear"], mode="score", agent="Ana", cache=cache)
    run_choice(backend, msgs, ["apple", "pear"], mode="score", agent="Ana", cache=cache)
    assert backend.scores == 1
    cache.close()
    reopened = ReplyCache(path, backend.model_id)
    out3, rec3 = run_function(Greet(), {"name": "Tom"}, backend, agent="Ana", cache=reopened, seed=3)
    assert rec3.cached and out3 == out1 and backend.completes == 2 and reopened.hits == 1


def test_record_mode_calls_the_model_and_off_stores_nothing(llm_backend, tmp_path):
    backend = Counting(llm_backend)
    path = tmp_path / "r.sqlite"
    rec_cache = ReplyCache(path, backend.model_id, mode="record")
    for _ in range(2):
        run_function(Greet(), {"name": "Lea"}, backend, agent="Ana", cache=rec_cache)
    assert backend.completes == 2 and len(rec_cache) == 1
    off = ReplyCache(tmp_path / "off.sqlite", backend.model_id, mode="off")
    run_function(Greet(), {"name": "Lea"}, backend, agent="Ana", cache=off)
    assert backend.completes == 3 and len(off) == 0 and not (tmp_path / "off.sqlite").exists()


def test_other_models_recording_is_refused(tmp_path):
    path = tmp_path / "replies.sqlite"
    ReplyCache(path, "a" * 64).close()
    with pytest.raises(GarpError, match="recorded with model a+ .*never replayed"):
        ReplyCache(path, "b" * 64)
    with pytest.raises(GarpError, match="must be one of"):
        ReplyCache(path, "a" * 64, mode="sometimes")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(GarpError, match="not a readable cache"):
        ReplyCache(junk, "a" * 64)


def _fill(cache: ReplyCache, n: int, tag: str) -> None:
    for i in range(n):
        cache.put(f"{tag}{i:05d}", {"scores": [float(i)] * (2 + i % 7)})


def test_a_recording_replaced_under_a_left_over_wal_file_is_refused(tmp_path):
    """A check killed mid-recording left replies.sqlite-wal (part of its log already checkpointed into the
    file); `git checkout` then restored the recording beside it, and sqlite read the old file through the
    stale log: rows came back under other keys (8 scores for a choice of 7) and the check took the fallbacks
    for the model's. Such a file is refused, by name, before any reply is read from it."""
    import shutil
    path, model = tmp_path / "replies.sqlite", "a" * 64
    first = ReplyCache(path, model)
    _fill(first, 600, "a")
    first.close()
    committed = tmp_path / "committed.sqlite"
    shutil.copy(path, committed)
    killed = ReplyCache(path, model)
    killed._db.execute("PRAGMA wal_autocheckpoint=20")  # a long recording checkpoints as it goes
    _fill(killed, 2000, "b")
    stale = (tmp_path / "replies.sqlite-wal").read_bytes()
    killed.close()
    shutil.copy(committed, path)  # the checkout
    (tmp_path / "replies.sqlite-wal").write_bytes(stale)
    with pytest.raises(GarpError, match=r"replies\.sqlite: not a readable cache file .*replies\.sqlite-wal"):
        ReplyCache(path, model)


# ---- faults: a junk server must not poison the live cache (issue 20 §1) ---------------------
import json  # noqa: E402
import random  # noqa: E402
import sqlite3  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

from garp.engine import servers  # noqa: E402
from garp.engine.backends import OpenAIHTTPBackend  # noqa: E402
from garp.engine.reply_cache import REJECTED  # noqa: E402
from garp.eventlog import EventLog  # noqa: E402
from garp.sim import wiring  # noqa: E402
from test_lmfunction import Reply, Scripted  # noqa: E402

FRUIT = ["apple", "pear"]


class Picky(Greet):
    """A semantic check on top of the schema: a refusal is not an answer."""
    name = "picky"

    def check(self, inputs, out):
        if out.line.startswith("no"):
            raise ValueError("a refusal is not a greeting")
        return out


def chat(content: str | None) -> str:
    return json.dumps({"choices": [{"message": {"content": content}}], "usage": {"prompt_tokens": 5, "completion_tokens": 3}})


def valid_answer(i: int, choosing: bool) -> str:
    return chat(json.dumps({"choice": "pear"} if choosing else {"mood": "glad", "line": f"Hi {i}"}))


def junk_reply(i: int, choosing: bool) -> tuple[int, str | None, bool]:
    """(HTTP status, body or None to drop the connection, whether the content is a valid answer)."""
    kinds = [
        (200, valid_answer(i, choosing), True),
        (200, chat(json.dumps({"mood": "tired", "line": f"Hello {i}"} if choosing else {"choice": "pear"})), False),
        (200, chat('{"mood": "gl'), False),                                   # truncated JSON
        (200, chat(json.dumps({"mood": 3, "line": ["x"]})), False),           # wrong types
        (200, chat(json.dumps({"mood": "angry", "line": "hi"})), False),      # not in the enum
        (200, chat(json.dumps({"mood": "glad", "line": "x" * 80})), False),   # too long
        (200, chat(json.dumps({"mood": "glad", "line": "no thanks"})), False),  # fails the check
        (200, chat(json.dumps({"choice": "banana"})), False),                 # not an option
        (200, chat("[1, 2, 3]"), False),
        (200, chat(None), False),
        (200, '{"choices": [{"message": {"content": "{\\"mood\\"', False),   # truncated body
        (200, json.dumps({"result": "ok"}), False),                          # not a chat completion
        (200, json.dumps({"choices": [{"message": {"content": "{}"}}], "usage": {"prompt_tokens": "many"}}), False),
        (500, "internal error", False),
        (200, None, False),                                                   # connection closed
    ]
    return kinds[random.Random(i).randrange(len(kinds))]


LATE_EVERY, LATE_S, IMPATIENT_S = 100, 0.6, 0.2  # every 100th call answers after the client's timeout


def late(i: int) -> bool:
    return i % LATE_EVERY == LATE_EVERY // 2


class JunkServer:
    """An OpenAI-compatible server on 127.0.0.1 that answers call i with junk_reply(i), or a
    valid answer too late for a client that waits IMPATIENT_S. Like a real server it answers
    GET /models and the pool's structured-output probe (neither counts as a call)."""

    def __init__(self):
        self.valid_texts: set[str] = set()
        self.served = self.valid_served = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                self._send(200, json.dumps({"data": [{"id": "default"}]}))

            def _send(self, status, body):
                data = body.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # a late answer to a client that timed out
                    pass

            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                form = request["response_format"]
                title = (form.get("schema") or form["json_schema"]["schema"])["title"]
                if title == servers.PROBE_SCHEMA["title"]:
                    self._send(200, chat(json.dumps({"probe": servers.PROBE_VALUE})))
                    return
                choosing = title == "choose.Choice"
                i = outer.served
                outer.served += 1
                status, body, valid = junk_reply(i, choosing)
                if late(i):  # the client has given up by the time this arrives
                    time.sleep(LATE_S)
                    status, body, valid = 200, valid_answer(i, choosing), False
                if body is None:
                    self.close_connection = True
                    return
                outer.valid_served += valid
                if valid:
                    outer.valid_texts.add(json.loads(body)["choices"][0]["message"]["content"])
                self._send(status, body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def wait_until_up(*pools, timeout_s: float = 10.0) -> None:
    """A failed call takes the server out of its pool until the prober brings it back; the
    next call waits for that, so every one of the calls reaches the junk server."""
    end = time.monotonic() + timeout_s
    while not all(e.up for pool in pools for e in pool.endpoints):
        assert time.monotonic() < end, "the pool's prober did not bring the junk server back"
        time.sleep(0.005)


def test_junk_server_never_poisons_the_live_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(wiring, "LOCAL_REPLIES", tmp_path / "replies")
    monkeypatch.setattr(servers, "PROBE_BACKOFF_S", 0.01)
    server = JunkServer()
    patient = OpenAIHTTPBackend(server.url, retries=0, timeout_s=5)
    impatient = OpenAIHTTPBackend(server.url, retries=0, timeout_s=IMPATIENT_S)  # same server, same cache
    cache = wiring.cache_for(types.SimpleNamespace(), patient.model_id, tmp_path)
    try:
        for i in range(1000):
            wait_until_up(patient, impatient)
            backend = impatient if late(i) else patient
            if i % 3:
                _, rec = run_function(Picky(), {"name": f"Tom {i}"}, backend, agent="Ana", cache=cache)
            else:
                _, rec = run_choice(backend, [{"role": "user", "content": f"Snack {i}?"}], FRUIT, mode="generate",
                                    agent="Ana", cache=cache)
            assert not late(i) or "timed out" in rec.error.lower() or "timeout" in rec.error.lower(), rec.error
    finally:
        patient.close()
        impatient.close()
        server.close()
    assert server.served == 1000
    db = sqlite3.connect(cache.path)
    stored = [json.loads(v) for (v,) in db.execute("SELECT value FROM replies")]
    invalid = [v for v in stored if REJECTED in v or v["text"] not in server.valid_texts]
    # every stored reply is one the server sent as a valid answer, and each valid answer (one per call) was kept
    assert invalid == [] and len(stored) == server.valid_served > 30
    for v in stored:
        data = json.loads(v["text"])
        assert data.get("choice") in FRUIT or Picky().parse({}, v["text"], False).line.startswith("Hi")
    cache.close()


def test_server_run_after_a_local_run_gets_its_own_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(wiring, "LOCAL_REPLIES", tmp_path / "replies")
    local = wiring.cache_for(types.SimpleNamespace(), "a" * 64, tmp_path)
    local.put("k", {"text": "{}", "prompt_tokens": 1, "completion_tokens": 1})
    local.close()
    server = wiring.cache_for(types.SimpleNamespace(), "server:http://127.0.0.1:8080/v1:default", tmp_path)
    assert server.path != local.path and len(server) == 0 and not server.keep_rejected
    server.close()
    again = wiring.cache_for(types.SimpleNamespace(), "a" * 64, tmp_path)
    assert len(again) == 1
    again.close()


def test_recording_keeps_rejected_replies_flagged_and_replays_them(tmp_path):
    junk = Scripted('{"mood": "angry"}')
    path = tmp_path / "rec.sqlite"
    rec_cache = ReplyCache(path, junk.model_id, mode="record")
    out1, rec1 = run_function(Greet(), {"name": "Lea"}, junk, agent="Ana", cache=rec_cache)
    rec_cache.close()
    (value,), = sqlite3.connect(path).execute("SELECT value FROM replies").fetchall()
    assert rec1.fallback_used and json.loads(value)[REJECTED] == rec1.error
    replay = ReplyCache(path, junk.model_id)
    out2, rec2 = run_function(Greet(), {"name": "Lea"}, Scripted("never asked"), agent="Ana", cache=replay)
    assert rec2.cached and rec2.fallback_used and rec2.raw == rec1.raw and out2 == out1 == Reply(mood="busy", line="Morning!")
    replay.close()
    live = ReplyCache(path, junk.model_id, keep_rejected=False)  # a live cache drops what a recording flagged
    assert live.repaired == 1 and len(live) == 0
    live.close()


def test_unparseable_entries_are_dropped_on_open_and_reported(tmp_path, capsys):
    path = tmp_path / "r.sqlite"
    cache = ReplyCache(path, "m")
    cache.put("good", {"text": "{}", "prompt_tokens": 1, "completion_tokens": 1})
    cache.put("scores", {"scores": [-1.5, float("-inf")]})
    cache.close()
    db = sqlite3.connect(path)
    db.executemany("INSERT INTO replies VALUES (?, ?, ?)",
                   [("trunc", '{"text": "{\\"mo', time.time()), ("types", '{"text": 5}', time.time()),
                    ("list", "[1, 2]", time.time()), ("null", None, time.time())])
    db.commit()
    db.close()
    reopened = ReplyCache(path, "m")
    assert reopened.repaired == 4 and len(reopened) == 2 and reopened.get("good") is not None
    log = EventLog()
    wiring.report_cache_repair(reopened, log, 10.0)
    (event,) = log.of_kind("cache_repair")
    assert event["dropped"] == 4 and "dropped 4 unusable entries" in capsys.readouterr().err
    assert ReplyCache(path, "m").repaired == 0
