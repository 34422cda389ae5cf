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
