"""MemoryStore: Eq. 1 ranking, mood-congruent recall, Ebbinghaus mode, persistence."""

import math
import time

import numpy as np
import pytest

import garp.engine.memory_store as ms
from garp.engine import memory_persist
from garp.engine.memory_persist import COMPACT_EVERY_WRITES
from garp.engine.memory_store import MemoryRecord, MemoryStore, ebbinghaus_retention, initial_stability
from garp.errors import GarpError

DIM = 384
HOUR = 3600.0


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def orthogonal_to(v: np.ndarray, seed: int) -> np.ndarray:
    w = unit(seed)
    w = w - (w @ v) * v
    return (w / np.linalg.norm(w)).astype(np.float32)


@pytest.fixture
def store(tmp_path):
    s = MemoryStore(tmp_path / "mem")
    yield s
    s.close()


def rec(observer="Ada", description="a memory", created=0.0, **kw) -> MemoryRecord:
    return MemoryRecord(observer=observer, description=description, created=created, **kw)


def check_eq1(results):
    for r in results:
        f = r.factors
        expected = 6.0 * f["poignancy"] + 3.0 * f["similarity"] + 0.5 * f["recency"] + 1.5 * f["emotion"]
        assert r.score == pytest.approx(expected)


def test_poignancy_outweighs_similarity(store):
    q = unit(1)
    store.add(rec(description="poignant", poignancy=10), orthogonal_to(q, 2))
    store.add(rec(description="similar", poignancy=1), q)
    top = store.retrieve("Ada", q, now=HOUR, k=2)
    assert [r.record.description for r in top] == ["poignant", "similar"]
    assert top[0].factors == pytest.approx({"poignancy": 1.0, "similarity": 0.0, "recency": 0.5, "emotion": 0.0,
                                            "cosine": 0.0}, abs=1e-6)  # float32 dot products
    assert top[1].factors["cosine"] == pytest.approx(1.0)  # raw similarity, not min-max over the pool
    assert top[0].score == pytest.approx(6.25) and top[1].score == pytest.approx(3.25)
    check_eq1(top)


def test_similarity_outweighs_recency_when_poignancy_ties(store):
    q = unit(3)
    store.add(rec(description="old but on topic", created=0.0, poignancy=5), q)
    store.add(rec(description="fresh but off topic", created=10 * HOUR, poignancy=5), orthogonal_to(q, 4))
    top = store.retrieve("Ada", q, now=11 * HOUR, k=2)
    assert [r.record.description for r in top] == ["old but on topic", "fresh but off topic"]
    assert top[0].factors["recency"] == 0.0 and top[1].factors["recency"] == 1.0
    check_eq1(top)


def test_mood_congruent_boost(store):
    v = unit(5)  # identical vectors, poignancy and times: only emotion differs
    store.add(rec(description="happy", emotion="joy", emotion_intensity=0.8), v)
    store.add(rec(description="sad", emotion="Sadness", emotion_intensity=0.8), v)
    store.add(rec(description="calm"), v)
    store.add(rec(description="joy label, no intensity", emotion="joy", emotion_intensity=0.0), v)
    by = {r.record.description: r for r in store.retrieve("Ada", v, now=60, k=4, emotion="joy")}
    assert by["happy"].factors["emotion"] == 1.0
    assert by["sad"].factors["emotion"] == 0.5
    assert by["calm"].factors["emotion"] == 0.0
    assert by["joy label, no intensity"].factors["emotion"] == 0.0
    top = store.retrieve("Ada", v, now=120, k=1, emotion="sadness")
    assert top[0].record.description == "sad" and top[0].factors["emotion"] == 1.0
    neutral_mood = store.retrieve("Ada", v, now=180, k=4)
    assert {r.record.description for r in neutral_mood[:2]} == {"happy", "sad"}


def test_ebbinghaus_retention_values():
    assert ebbinghaus_retention(24.0, 1.0) == pytest.approx(math.exp(-0.693))
    assert ebbinghaus_retention(48.0, 2.0) == pytest.approx(math.exp(-0.693))
    assert ebbinghaus_retention(0.0, 3.0) == pytest.approx(1.0)
    assert ebbinghaus_retention(120.0, 5.0) > ebbinghaus_retention(120.0, 1.0)
    assert initial_stability(0.0) == 1.0 and initial_stability(0.5) == 2.0 and initial_stability(1.0) == 3.0
    assert rec(emotion="fear", emotion_intensity=0.5).stability == 2.0
    assert rec(stability=9.0).stability == 5.0 and rec(stability=0.1).stability == 1.0


def test_ebbinghaus_mode_prefers_stable_memories_and_consolidates(tmp_path):
    v = unit(6)
    now = 48 * HOUR
    stores = []
    for name in ("recency", "ebbinghaus"):  # a retrieval touches what it returns: one store per mode
        s = MemoryStore(tmp_path / name)
        s.add(rec(description="stable, older", created=0.0, stability=4.0), v)  # R = exp(-.693*48/96)
        s.add(rec(description="fragile, newer", created=24 * HOUR, stability=1.0), v)  # R = exp(-.693)
        stores.append(s)
    assert stores[0].retrieve("Ada", v, now=now, k=1)[0].record.description == "fragile, newer"
    stores[0].close()
    store = stores[1]
    top = store.retrieve("Ada", v, now=now + 60, k=2, mode="ebbinghaus")
    assert top[0].record.description == "stable, older"
    assert top[0].record.stability == pytest.approx(4.2) and top[0].record.retrievals == 1
    assert top[1].record.stability == pytest.approx(1.2)
    for i in range(10):  # σ grows by 0.2 per retrieval and stops at 5
        store.retrieve("Ada", v, now=now + 120 + 60 * i, k=2, mode="ebbinghaus")
    got = {r.description: r for r in store.records("Ada")}
    assert got["stable, older"].stability == 5.0 and got["stable, older"].retrievals == 11
    assert got["fragile, newer"].stability == pytest.approx(3.2)
    store.close()


def test_recency_mode_leaves_stability_alone(store):
    v = unit(7)
    store.add(rec(stability=2.0), v)
    r = store.retrieve("Ada", v, now=HOUR, k=1)[0].record
    assert r.stability == 2.0 and r.retrievals == 0


def test_type_filter(store):
    v = unit(8)
    for t in ["event", "thought", "chat", "chat", "preference"]:
        store.add(rec(description=t, type=t, poignancy=10 if t == "event" else 2), v)
    chats = store.retrieve("Ada", v, now=60, k=5, types=["chat"])
    assert [r.record.type for r in chats] == ["chat", "chat"]
    assert {r.record.type for r in store.retrieve("Ada", v, now=60, k=5, types=["thought", "preference"])} == {
        "thought", "preference"}
    assert [r.type for r in store.records("Ada", types=["chat"])] == ["chat", "chat"]
    with pytest.raises(GarpError, match="allowed: event, thought, chat, preference"):
        store.retrieve("Ada", v, now=60, types=["dream"])


def test_last_accessed_updated_only_on_returned(store):
    q = unit(9)
    store.add(rec(description="hit", poignancy=9, created=0.0), q)
    store.add(rec(description="miss", poignancy=1, created=0.0), orthogonal_to(q, 10))
    top = store.retrieve("Ada", q, now=5 * HOUR, k=1)
    assert top[0].record.last_accessed == 5 * HOUR
    got = {r.description: r for r in store.records("Ada")}
    assert got["hit"].last_accessed == 5 * HOUR and got["miss"].last_accessed == 0.0


def test_retrieval_cache_hits_and_invalidation(store):
    v = unit(11)
    store.add(rec(), v)
    store.retrieve("Ada", v, now=100.0, k=1)
    store.retrieve("Ada", v, now=110.0, k=1)  # same minute bucket
    assert store.cache_hits == 1
    store.retrieve("Ada", v, now=100.0, k=1, types=["event"])  # other key
    assert store.cache_hits == 1
    store.add(rec(description="new"), v)  # Ada's memories changed: entry is stale
    assert len(store.retrieve("Ada", v, now=100.0, k=2)) == 2
    store.retrieve("Ada", v, now=100.0, k=1)
    assert store.cache_hits == 1
    for i in range(ms.RETRIEVAL_CACHE_SIZE + 1):  # LRU of 50
        store.retrieve("Ada", unit(100 + i), now=100.0, k=1)
    hits = store.cache_hits
    store.retrieve("Ada", unit(100), now=100.0, k=1)  # evicted
    assert store.cache_hits == hits


@pytest.mark.parametrize("name", ["O'Brien", 'x" OR 1=1', "back\\slash '; DROP TABLE memories; --"])
def test_names_with_quotes_are_safe(tmp_path, name):
    v = unit(12)
    s = MemoryStore(tmp_path / "mem")
    s.add(rec(observer=name, description=f'{name} said "hi" \\ there'), v)
    s.add(rec(observer="Bob", description="bob's memory"), v)
    assert [r.record.observer for r in s.retrieve(name, v, now=60, k=5)] == [name]
    s.close()
    s2 = MemoryStore(tmp_path / "mem")
    assert [r.description for r in s2.records(name)] == [f'{name} said "hi" \\ there']
    assert s2.count("Bob") == 1 and s2.count() == 2
    s2.close()


def test_reopen_round_trip_is_exact(tmp_path):
    s = MemoryStore(tmp_path / "mem")
    written = []
    for i in range(30):
        r = rec(observer=["Ada", "Bo"][i % 2], description=f"m{i} ünïcode ✓", subject="Ada", predicate="saw",
                object=f"thing {i}", created=i * 123.456789, location="cafe", type=ms.TYPES[i % 4],
                poignancy=1 + i % 10, poignancy_scored=bool(i % 3), emotion=["joy", "neutral"][i % 2],
                emotion_intensity=(i % 7) / 7, retrievals=i, evidence=[f"id-{j}" for j in range(i % 3)],
                header="if it rains" if i % 5 == 0 else "")
        v = np.random.default_rng(i).standard_normal(DIM).astype(np.float32)  # not unit: stored as given
        s.add(r, v)
        written.append(r.id)
    s.flush()
    s.update(written[3], poignancy=8, poignancy_scored=True)  # update after it is on disk
    s.retrieve("Ada", unit(13), now=99999.0, k=3, mode="ebbinghaus")
    before = {i: (s.get(i).model_dump(), s.vector(i)) for i in written}
    order = {o: [r.id for r in s.records(o)] for o in ("Ada", "Bo")}
    s.close()
    s2 = MemoryStore(tmp_path / "mem")
    assert s2.count() == 30
    for i in written:
        assert s2.get(i).model_dump() == before[i][0]
        assert np.array_equal(s2.vector(i), before[i][1])
    assert {o: [r.id for r in s2.records(o)] for o in ("Ada", "Bo")} == order
    assert s2.get(written[3]).poignancy == 8
    s2.close()


def test_update_validates(store):
    r = rec()
    store.add(r, unit(14))
    assert store.update(r.id, poignancy=7, poignancy_scored=True).poignancy == 7
    with pytest.raises(GarpError, match="poignancy"):
        store.update(r.id, poignancy=11)
    with pytest.raises(GarpError, match="mood"):
        store.update(r.id, mood="happy")
    with pytest.raises(GarpError, match="no memory with id"):
        store.update("nope", poignancy=2)
    with pytest.raises(GarpError, match="cannot change"):
        store.update(r.id, observer="Eve")
    with pytest.raises(GarpError, match="already exists"):
        store.add(r, unit(14))
    with pytest.raises(GarpError, match="384 finite floats"):
        store.add(rec(), np.zeros(10, np.float32))


def test_background_writer_flushes_on_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(memory_persist, "FLUSH_SECONDS", 0.05)
    s = MemoryStore(tmp_path / "mem")
    s.add(rec(), unit(15))
    deadline = time.monotonic() + 10
    while s.storage_stats()["rows"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s.storage_stats()["rows"] == 1
    s.close()


def test_compaction_keeps_versions_bounded(tmp_path):
    s = MemoryStore(tmp_path / "mem")
    for i in range(3 * COMPACT_EVERY_WRITES):
        s.add(rec(description=f"m{i}"), unit(i))
        s.flush()  # one LanceDB version per flush
        assert s.storage_stats()["versions"] <= COMPACT_EVERY_WRITES + 2
    s.compact()
    st = s.storage_stats()
    assert st["rows"] == 3 * COMPACT_EVERY_WRITES and st["versions"] == 1 and st["fragments"] == 1
    s.close()


def test_other_vector_size_on_disk_is_a_clear_error(tmp_path):
    MemoryStore(tmp_path / "mem").close()
    with pytest.raises(GarpError, match="new save directory"):
        MemoryStore(tmp_path / "mem", dim=8)


def test_concurrent_adds_and_retrievals(tmp_path):
    import threading

    s = MemoryStore(tmp_path / "mem")
    errors = []

    def writer(name):
        try:
            for i in range(200):
                s.add(rec(observer=name, description=f"{name} {i}", created=float(i)), unit(i))
                s.retrieve(name, unit(1000 + i), now=float(i), k=3)
        except Exception as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"agent{j}",)) for j in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    s.close()
    s2 = MemoryStore(tmp_path / "mem")
    assert s2.count() == 800 and all(s2.count(f"agent{j}") == 200 for j in range(4))
    s2.close()


def test_unclosed_store_flushes_at_exit(tmp_path):
    import subprocess
    import sys

    code = ("import numpy as np; from garp.engine.memory_store import MemoryStore, MemoryRecord; "
            f"s = MemoryStore({str(tmp_path / 'mem')!r}); "
            "s.add(MemoryRecord(observer='Ada', description='kept', created=0.0), np.ones(384, np.float32))")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    s = MemoryStore(tmp_path / "mem")
    assert [r.description for r in s.records("Ada")] == ["kept"]
    s.close()
