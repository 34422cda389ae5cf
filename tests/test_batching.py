"""The embedded model decodes concurrent requests together (issue #17 §1-2): what comes out
must not depend on what else was in the batch, a full cache fails one request with a clear
error instead of the game, and the thread budget never gives out more threads than cores."""

from __future__ import annotations

import json
import threading
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor

import pytest

from garp.engine.threads import FairLock, thread_budget
from garp.errors import GarpError

SCHEMA = {"title": "greeting", "type": "object", "additionalProperties": False,
          "properties": {"line": {"type": "string", "maxLength": 40}}, "required": ["line"]}
BUDGET = 56  # the longest line or place the schemas allow (40 characters, a token each) and its JSON
PLACES = ("the bakery", "the park", "the library", "the harbour", "the school", "the cafe", "the pub", "the farm")


def messages(i: int) -> list[dict]:
    return [{"role": "system", "content": "You are a villager. Answer with JSON only."},
            {"role": "user", "content": f"You meet your neighbour at {PLACES[i]}. Say hello in one short line."}]


PLACE = {"title": "place", "type": "object", "additionalProperties": False,
         "properties": {"place": {"type": "string", "maxLength": 40}}, "required": ["place"]}


def test_eight_requests_at_once_each_answer_their_own_prompt(llm_backend):
    """Eight sequences decode in one batch and none reads another's cells: each names the
    place its own prompt gave. (Each sequence has a KV stream of its own, but bit-exactness is
    not promised: several rows may go through other matrix kernels than one, so lockstep runs
    still ask one request at a time, sim/wiring.py.)"""
    def ask(i: int) -> str:
        msgs = [{"role": "system", "content": "Answer with JSON only."},
                {"role": "user", "content": f"I am standing in {PLACES[i]}. Where am I standing? Give the place."}]
        place = json.loads(llm_backend.complete(msgs, schema=PLACE, max_tokens=BUDGET).text)["place"]
        return unicodedata.normalize("NFKD", place).encode("ascii", "ignore").decode().lower()  # Café: cafe

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(8)))
    words = [p.split()[-1] for p in PLACES]
    for own, answer in zip(words, answers):  # another prompt's place in a reply is cross-talk
        assert not [w for w in words if w != own and w in answer], answers
    assert sum(own in answer for own, answer in zip(words, answers)) >= 6, answers


def test_isolated_engine_repeats_a_run_exactly(llm_backend):
    """Headless (lockstep) runs rely on this: isolated, the same requests in the same order give
    the same replies, whatever the engine served before (play batches in between)."""
    def run() -> list[str]:
        llm_backend.engine.isolate(True)
        return [llm_backend.complete(messages(i), schema=SCHEMA, max_tokens=BUDGET).text for i in (3, 5, 3)]

    try:
        first = run()
        llm_backend.engine.isolate(False)
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda i: llm_backend.complete(messages(i), schema=SCHEMA, max_tokens=BUDGET), range(8)))
        assert run() == first
    finally:
        llm_backend.engine.isolate(False)


def test_sampled_replies_follow_their_own_seed(llm_backend):
    """At temperature > 0 a lone request's seed decides its reply; batched ones stay valid."""
    def sample(seed: int) -> str:
        return llm_backend.complete(messages(0), schema=SCHEMA, temperature=0.9, max_tokens=BUDGET, seed=seed).text

    assert sample(11) == sample(11)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(sample, [11, 12, 13, 14]))
    assert len(set(together)) > 1  # four seeds, not one sampler shared by the batch


def test_scoring_waits_between_batch_steps_and_is_unchanged(llm_backend):
    opts = ["hello there", "go away"]
    expected = llm_backend.score_options(messages(1), opts)
    with ThreadPoolExecutor(6) as pool:
        gen = [pool.submit(llm_backend.complete, messages(i), schema=SCHEMA, max_tokens=BUDGET) for i in range(4)]
        scores = [pool.submit(llm_backend.score_options, messages(1), opts) for _ in range(2)]
        assert all(s.result() == pytest.approx(expected, abs=1e-4) for s in scores)
        assert all(json.loads(g.result().text) for g in gen)


def test_a_head_copied_from_another_slot_carries_none_of_its_tail(llm_backend):
    """A request sharing a long prompt head with a busy slot takes that slot's cache and cuts it
    at the head: its reply names its own place, never the place in the other slot's tail."""
    head = "You are a villager in a small town by the sea. " * 12 + "Answer with JSON only."

    def ask(place: str) -> str:
        msgs = [{"role": "system", "content": head},
                {"role": "user", "content": f"I am standing in {place}. Where am I standing? Give the place."}]
        return json.loads(llm_backend.complete(msgs, schema=PLACE, max_tokens=BUDGET).text)["place"].lower()

    ask("the bakery")  # one slot now holds the head and the bakery
    before = llm_backend.engine.stats()["reused_tokens"]
    with ThreadPoolExecutor(2) as pool:
        busy = pool.submit(ask, "the bakery")  # takes the slot holding its whole prompt
        time.sleep(0.05)
        answer = pool.submit(ask, "the harbour").result()  # another slot, the head copied over
        busy.result()
    head_tokens = llm_backend.count_tokens(head)
    assert llm_backend.engine.stats()["reused_tokens"] - before >= 2 * head_tokens
    assert "bakery" not in answer and "harbour" in answer, answer


def test_a_request_the_cache_cannot_hold_fails_alone(llm_backend):
    """A prompt larger than the batched cache is refused with a message naming the sizes; the
    engine goes on serving the others."""
    engine = llm_backend.engine
    huge = [llm_backend.llm.token_bos()] * (engine.n_ctx + 10)
    from garp.engine.batch_engine import Generation

    with pytest.raises(GarpError, match="does not fit"):
        engine.submit(Generation(huge, 8))
    assert json.loads(llm_backend.complete(messages(2), schema=SCHEMA, max_tokens=BUDGET).text)


def test_backend_says_how_many_requests_it_takes_at_once(llm_backend):
    """The scheduler runs this many workers for the embedded model (it used to run one)."""
    from garp.engine.scheduler import InferenceScheduler

    assert llm_backend.max_in_flight == llm_backend.profile.parallel >= 4
    assert InferenceScheduler(llm_backend).workers == llm_backend.max_in_flight


@pytest.mark.parametrize("cores", [1, 2, 4, 16])
def test_thread_budget_gives_llama_and_torch_the_cores_in_turn(cores):
    b = thread_budget(cores)
    assert b.llama == b.torch == cores  # they never run together: both compute under COMPUTE


def test_fair_lock_serves_waiters_in_arrival_order():
    """The batch loop re-takes the compute lock after every step; a scorer or the embedder
    waiting for it must get its turn rather than starve."""
    lock, order = FairLock(), []
    stop = threading.Event()

    def batch_loop():
        while not stop.is_set():
            with lock:
                time.sleep(0.001)

    loop = threading.Thread(target=batch_loop)
    loop.start()
    try:
        def waiter(i):
            with lock:
                order.append(i)

        threads = [threading.Thread(target=waiter, args=(i,)) for i in range(5)]
        for t in threads:
            t.start()
            time.sleep(0.02)
        for t in threads:
            t.join(timeout=5)
        assert order == [0, 1, 2, 3, 4]
    finally:
        stop.set()
        loop.join()
