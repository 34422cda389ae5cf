"""Embedder: bundled all-MiniLM-L6-v2 offline, unit vectors, LRU cache, batch-independent vectors."""

import asyncio

import numpy as np
import pytest

from garp.engine.embedder import DIM, Embedder
from garp.errors import GarpError


def test_similar_sentences_are_closer_than_unrelated(embedder):
    v = embedder.embed(["Isabella is baking bread in the kitchen",
                        "Isabella bakes a loaf of bread at home",
                        "The stock market fell sharply on Tuesday"])
    assert v.shape == (3, DIM) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.3


def test_cache_hit_costs_no_model_call(embedder):
    text = "Klaus reads a paper about gentrification at the library"
    embedder.embed_one(text)
    calls, requests = embedder.calls, embedder.requests
    again = embedder.embed([text, text])
    assert embedder.calls == calls
    assert embedder.requests == requests + 2
    assert np.array_equal(again[0], again[1])


def test_duplicates_in_one_batch_are_encoded_once(embedder):
    calls = embedder.calls
    embedder.embed(["a unique sentence about a red kite", "a unique sentence about a red kite"])
    assert embedder.calls == calls + 1


def test_a_vector_does_not_depend_on_its_batch_mates(embedder):
    """Bit-identical, not just close: a replay's retrievals must rank exactly as recorded."""
    texts = [f"Agent number {i} walks to the park" + " to meet a good old friend" * i for i in range(5)]
    batched, single = _cold_copy(embedder), _cold_copy(embedder)
    batch = batched.embed(texts)
    singles = np.stack([single.embed_one(t) for t in texts])
    assert batched.calls == single.calls == 5  # both really encoded (empty caches)
    assert np.array_equal(batch, singles)


def _cold_copy(embedder):
    """An embedder with an empty cache that reuses the loaded model (saves a 5 s load)."""
    e = Embedder()
    e._model = embedder._model
    return e


def test_lru_evicts_oldest():
    e = Embedder(cache_size=2)
    e._remember("a", np.ones(DIM, np.float32))
    e._remember("b", np.ones(DIM, np.float32))
    e.embed(["a"])  # touch a: b becomes oldest
    e._remember("c", np.ones(DIM, np.float32))
    assert list(e._cache) == ["a", "c"]
    assert e.calls == 0


def test_async_embed_runs_on_one_worker_thread(embedder):
    async def go():
        return await asyncio.gather(embedder.aembed(["morning coffee"]), embedder.aembed(["evening tea"]))

    a, b = asyncio.run(go())
    assert a.shape == (1, DIM) and b.shape == (1, DIM)
    assert embedder._executor is not None and embedder._executor._max_workers == 1


def test_missing_model_dir_is_a_clear_error(tmp_path):
    e = Embedder(model_dir=tmp_path / "nowhere")
    with pytest.raises(GarpError, match="nowhere.*missing"):
        e.embed(["x"])


def test_non_string_input_is_rejected(embedder):
    with pytest.raises(GarpError, match="list of strings"):
        embedder.embed("just a string")
