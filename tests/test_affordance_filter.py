"""Affordance filter stages (III-A8, Eq. 3) on scenes with 50+ affordances."""

import asyncio
import math

import numpy as np
import pytest

from garp.mind.affordance_filter import (
    CAP, D_MAX_PX, FALLBACK_THRESHOLD, THRESHOLD, AffordanceEmbeddings, filter_affordances,
)
from garp.paths import ASSETS
from garp.world.objects import Affordance, ObjectRegistry, ObjectType, WorldObject, load_object_types

DIM = 384


class TableEmbedder:
    """Vectors with an exact cosine to the goal e0: sim·e0 + sqrt(1 − sim²)·e_k (k unique per text)."""

    def __init__(self, sims: dict[str, float]) -> None:
        self.sims, self.embedded = sims, []
        self._dims = {d: i + 1 for i, d in enumerate(sims)}

    def embed(self, texts):
        self.embedded += list(texts)
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, t in enumerate(texts):
            s = self.sims[t]
            out[row, 0], out[row, self._dims[t]] = s, math.sqrt(1 - s * s)
        return out


GOAL = np.eye(DIM, dtype=np.float32)[0]


def obj(oid, desc, x, y=0.0, place="Street", owners=(), capacity=1, relieves=None):
    kind = ObjectType(name=oid.split("-")[0], sprite="x.png", blocks=False,
                      affordances=[Affordance(verb="use", description=desc, duration_min=10,
                                              relieves=relieves or {}, capacity=capacity)])
    return WorldObject(id=oid, type=kind.name, name=kind.name, kind=kind, x=x, y=y,
                       tile=(int(x) // 32, int(y) // 32), place=place, owners=list(owners))


def run(objects, sims, xy=(0.0, 0.0), home=None, agent=None):
    emb = AffordanceEmbeddings(TableEmbedder(sims))
    stats: dict = {}
    out = filter_affordances(GOAL, xy, home, ObjectRegistry(objects), emb, agent=agent, stats=stats)
    return out, stats


def test_radius_expands_until_three_pass_and_top_two_come_from_anywhere():
    sims = {"near": 0.3, "mid a": 0.5, "mid b": 0.5, "mid c": 0.5, "far best": 0.9, "far junk": 0.1}
    objects = [obj("near-1", "near", 100), obj("mid-1", "mid a", 500), obj("mid-2", "mid b", 0, 500),
               obj("mid-3", "mid c", -500), obj("far-1", "far best", 2000), obj("far-2", "far junk", 3000)]
    out, stats = run(objects, sims)
    assert stats["radius"] == 600 and not stats["relaxed"]
    assert {c.object_id for c in out} == {"mid-1", "mid-2", "mid-3", "far-1"}
    assert out[0].object_id == "far-1"  # top scored, kept although beyond the radius
    near_score = 0.7 * 0.3 + 0.2 * (1 - 100 / D_MAX_PX)
    assert near_score < THRESHOLD  # the near one does not pass and is not needed
    assert all(c.score >= THRESHOLD for c in out)
    c = out[0]
    assert c.score == pytest.approx(0.7 * c.sim + 0.2 * c.prox + 0.1 * c.own)


def test_fallback_threshold_when_fewer_than_three_pass():
    sims = {"good": 0.6, "meh": 0.3, "weak": 0.2, "junk": 0.05, "far junk": 0.0}
    objects = [obj("good-1", "good", 200), obj("meh-1", "meh", 100), obj("weak-1", "weak", 150),
               obj("junk-1", "junk", 50), obj("junk-2", "far junk", 2300)]
    out, stats = run(objects, sims)
    assert stats["relaxed"] and stats["radius"] == 2400
    ids = [c.object_id for c in out]
    assert ids == ["good-1", "meh-1", "weak-1"]
    assert out[-1].score < THRESHOLD and out[-1].score >= FALLBACK_THRESHOLD
    assert all(c.object_id != "junk-1" for c in out)  # below 0.25: never forwarded


def test_dedup_keeps_closest_and_cap_is_eight_on_sixty_affordances():
    descs = [f"activity {i}" for i in range(20)]
    sims = {d: 0.8 for d in descs}
    objects = []
    for i, d in enumerate(descs):
        for k, dist in enumerate((400 + 10 * i, 150 + 10 * i, 900 + 10 * i)):  # three copies each
            objects.append(obj(f"o{i}-{k}", d, dist))
    out, stats = run(objects, sims)
    assert stats["raw"] == 60 and stats["deduped"] == 20
    assert len(out) == CAP
    assert len({c.description for c in out}) == CAP
    assert all(c.object_id.endswith("-1") for c in out)  # the closest copy of each description
    assert [c.description for c in out] == descs[:CAP]  # equal sims: the nearest win


def test_ownership_weight_and_capacity():
    sims = {"sleep in the bed": 0.7, "nap on the sofa": 0.7, "read a book": 0.7}
    mine = obj("bed-mine", "sleep in the bed", 300, place="Maya's House")
    theirs = obj("bed-theirs", "nap on the sofa", 300, place="Tom's House")
    owned = obj("book-owned", "read a book", 300, place="Library", owners=["Maya"])
    out, _ = run([mine, theirs, owned], sims, home="Maya's House", agent="Maya")
    by = {c.object_id: c for c in out}
    assert by["bed-mine"].own == 1.0 and by["book-owned"].own == 1.0 and by["bed-theirs"].own == 0.0
    assert by["bed-mine"].score - by["bed-theirs"].score == pytest.approx(0.1)
    reg = ObjectRegistry([mine, theirs])
    reg.occupy("bed-theirs", "Tom", 0.0)  # full (capacity 1): not offered to Maya ...
    emb = AffordanceEmbeddings(TableEmbedder(sims))
    assert [c.object_id for c in filter_affordances(GOAL, (0, 0), None, reg, emb, agent="Maya")] == ["bed-mine"]
    # ... but still offered to Tom, who is using it
    assert "bed-theirs" in [c.object_id for c in filter_affordances(GOAL, (0, 0), None, reg, emb, agent="Tom")]


def _town(types):
    """Three homes and a cafe from the real object types: 50+ affordances."""
    objects = []
    for h, (hx, owner) in enumerate([(0, "Maya"), (1500, "Tom"), (3000, "Ana")]):
        for k, tname in enumerate(["bed", "stove", "fridge", "shower", "sofa", "tv", "bookshelf", "desk"]):
            if tname in types:
                kind = types[tname]
                objects.append(WorldObject(id=f"{tname}-{h}", type=tname, name=kind.name, kind=kind, x=hx + 40 * k,
                                           y=100, tile=((hx + 40 * k) // 32, 3), place=f"{owner}'s House",
                                           owners=[owner]))
    for k, tname in enumerate(sorted(types)):
        kind = types[tname]
        objects.append(WorldObject(id=f"cafe-{tname}", type=tname, name=kind.name, kind=kind, x=800 + 40 * k,
                                   y=900, tile=((800 + 40 * k) // 32, 28), place="Cafe"))
    return objects


def test_real_embeddings_shared_cache_and_sensible_result(embedder):
    types = load_object_types(ASSETS / "objects.json")
    objects = _town(types)
    n_affordances = sum(len(o.affordances) for o in objects)
    assert n_affordances >= 50

    class Counting:
        def __init__(self):
            self.texts = []

        def embed(self, texts):
            self.texts += list(texts)
            return embedder.embed(list(texts))

    counting = Counting()
    shared = AffordanceEmbeddings(counting)
    hungry = embedder.embed(["I am hungry and want to eat a meal"])[0]
    stats: dict = {}
    out = filter_affordances(hungry, (60, 100), "Maya's House", objects, shared, agent="Maya", stats=stats)
    assert 1 <= len(out) <= CAP and stats["deduped"] < stats["raw"]
    assert out[0].relieves.get("hunger", 0) > 0, [c.description for c in out]
    unique = {a.description for o in objects for a in o.available_affordances() if a.offered_to(o.place, None)}
    assert sorted(counting.texts) == sorted(unique)  # each description offered to Maya embedded exactly once
    tired = embedder.embed(["I am exhausted and need to sleep"])[0]
    out2 = filter_affordances(tired, (1560, 100), "Tom's House", objects, shared, agent="Tom")
    assert len(counting.texts) == len(unique) and shared.computed == len(unique)  # second agent: no new embeddings
    assert out2[0].relieves.get("rest", 0) > 0, [c.description for c in out2]
    assert out2[0].place == "Tom's House"


def test_the_counter_serves_its_staff_and_its_customers_apart(embedder):
    """A played town's cafe cook "had been ordering at the cafe counter since 07:27" at 10:44: those who
    work at a place are offered its staff side (serve, the till) and those who do not, its customer side."""
    types = load_object_types(ASSETS / "objects.json")
    counter = WorldObject(id="counter", type="cafe_counter", name="cafe counter", kind=types["cafe_counter"],
                          x=100.0, y=100.0, tile=(3, 3), place="Hobbs Cafe")
    shared = AffordanceEmbeddings(embedder)
    goal = embedder.embed(["work my shift at Hobbs Cafe"])[0]
    offered = {w: [c.verb for c in filter_affordances(goal, (100, 100), "Home", [counter], shared, agent="Erica",
                                                      workplace=w)]
               for w in ("Hobbs Cafe", "Corner Shop", None)}
    assert offered == {"Hobbs Cafe": ["serve"], "Corner Shop": ["order"], None: ["order"]}


def test_just_up_for_breakfast_the_kitchen_is_offered_not_the_bed(embedder):
    """A played town's cook took a nap at 06:02 for "wake up and have breakfast": the waking drew the bed and
    the bedroom's desk and chair passed the filter before the kitchen. Whoever decides is up: the goal is
    the breakfast."""
    from garp.mind.plan_tree import goal_text

    types = load_object_types(ASSETS / "objects.json")
    room = [("bed", 0.0, 0.0), ("desk", 0.0, 96.0), ("chair", 32.0, 96.0), ("fridge", 192.0, -160.0),
            ("stove", 256.0, -160.0), ("dining_table", 288.0, -96.0)]
    objects = [WorldObject(id=f"home/{t}", type=t, name=t.replace("_", " "), kind=types[t], x=x, y=y,
                           tile=(0, 0), place="Erica's House") for t, x, y in room]
    shared = AffordanceEmbeddings(embedder)
    item = "wake up and have breakfast"
    goal = embedder.embed([goal_text(item, "Erica's House")])[0]
    offered = filter_affordances(goal, (0.0, 0.0), "Erica's House", objects, shared, agent="Erica")
    assert goal_text(item) == "have breakfast"
    assert offered[0].relieves.get("hunger", 0) > 0, [c.description for c in offered]
    assert "nap" not in [c.verb for c in offered[:2]], [c.description for c in offered]


def test_a_verb_left_out_takes_no_place_among_the_best_two(embedder):
    """The town's characters napped at 06:02: three bedroom uses passed the first radius, the bed's sleep and
    nap were the best two anywhere, and the night's sleep, dropped after the filter, had taken the place the
    kitchen would have had. Left out before ranking, it takes none."""
    types = load_object_types(ASSETS / "objects.json")
    room = [("bed", 0.0, 0.0), ("desk", 0.0, 96.0), ("chair", 32.0, 96.0), ("wardrobe", 96.0, 0.0),
            ("fridge", 300.0, -200.0), ("dining_table", 340.0, -160.0)]
    objects = [WorldObject(id=f"home/{t}", type=t, name=t.replace("_", " "), kind=types[t], x=x, y=y,
                           tile=(0, 0), place="Erica's House") for t, x, y in room]
    shared = AffordanceEmbeddings(embedder)
    goal = embedder.embed(["have breakfast. Erica is tired and needs rest."])[0]
    everything = filter_affordances(goal, (0.0, 0.0), "Erica's House", objects, shared, agent="Erica")
    awake = filter_affordances(goal, (0.0, 0.0), "Erica's House", objects, shared, agent="Erica",
                               leave_out=frozenset(("sleep",)))
    assert "sleep" in [c.verb for c in everything] and "sleep" not in [c.verb for c in awake]
    assert {"eat", "snack"} & {c.verb for c in awake}, [c.description for c in awake]
    assert len(awake) >= len([c for c in everything if c.verb != "sleep"])


def test_a_short_task_done_in_this_block_is_not_offered_again(embedder):
    """Jonah's "painting" block at home had no easel, and the model chose his shower every 15 minutes from
    08:08 to 12:30. A short task chosen in this block (its steps included) is done; an open-ended one (work at
    the desk) goes on being offered, and the next block offers the shower again."""
    from garp.sim.messages import ChosenUse
    from garp.sim.pipeline import done_in_block
    types = load_object_types(ASSETS / "objects.json")
    room = [("shower", 0.0, 0.0), ("desk", 64.0, 0.0), ("plant", 96.0, 32.0), ("chair", 64.0, 32.0)]
    objects = [WorldObject(id=f"home/{t}", type=t, name=t, kind=types[t], x=x, y=y, tile=(0, 0),
                           place="Jonah's House") for t, x, y in room]
    shower = ChosenUse(plan_item="painting", object_id="home/shower", verb="shower", duration_min=15)
    desk = ChosenUse(plan_item="get started: painting", object_id="home/desk", verb="work", duration_min=120)
    earlier = ChosenUse(plan_item="wake up and have breakfast", object_id="home/plant", verb="water",
                        duration_min=3)
    done = done_in_block((desk, shower, earlier), "finish up: painting")
    assert done == frozenset({("home/shower", "shower")})
    assert done_in_block((shower,), "eat lunch") == frozenset()
    goal, shared = embedder.embed(["painting"])[0], AffordanceEmbeddings(embedder)
    every = {(c.object_id, c.verb) for c in filter_affordances(goal, (0.0, 0.0), "Jonah's House", objects, shared)}
    offered = filter_affordances(goal, (0.0, 0.0), "Jonah's House", objects, shared, agent="Jonah", done=done)
    uses = {(c.object_id, c.verb) for c in offered}
    assert ("home/shower", "shower") in every and ("home/shower", "shower") not in uses, uses
    assert every - {("home/shower", "shower")} <= uses and ("home/desk", "work") in uses, uses


# --- action choice over the filtered set (III-A8) -------------------------------------------
def _candidates():
    from garp.mind.affordance_filter import Candidate
    return [Candidate(object_id="shelf-1", object_name="bookshelf", verb="read", description="read a book",
                      place="Library", distance=50, sim=0.5, prox=0.98, own=0, score=0.55, relieves={"fun": 0.3}),
            Candidate(object_id="stove-1", object_name="stove", verb="cook", description="cook a meal at the stove",
                      place="Maya's House", distance=90, sim=0.4, prox=0.96, own=1, score=0.57,
                      relieves={"hunger": 0.7})]


def test_utility_fallback_when_the_model_call_fails():
    from garp.mind.action import choose_action

    class Broken:
        async def choose(self, *a, **k):
            raise RuntimeError("backend down")

    needs = {"hunger": 0.5, "fun": 0.3}  # close utilities: the model is asked (and fails)
    d = asyncio.run(choose_action(Broken(), agent="Maya", plan_item="read", personality_text="Maya.",
                                  emotion="calm", needs=needs, urgent_needs="Maya is very hungry",
                                  candidates=_candidates(), t=0.0))
    assert d.mode == "fallback" and d.chosen.object_id == "stove-1" and d.why.startswith("utility fallback")
    assert d.utilities[1] > d.utilities[0] and d.needs == needs
    empty = asyncio.run(choose_action(Broken(), agent="Maya", plan_item="x", personality_text="", emotion="",
                                      needs=needs, urgent_needs="", candidates=[]))
    assert empty.chosen is None and empty.mode == "none"


class _NoModel:
    """A scheduler that fails the test if the model is asked."""

    async def choose(self, *a, **k):
        raise AssertionError("the model was asked")

    async def call(self, *a, **k):
        raise AssertionError("the model was asked")


def test_a_continued_activity_and_a_decisive_utility_make_no_model_call():
    from garp.mind.action import MAX_CARRY_ON, UTILITY_MARGIN, choose_action
    kw = dict(agent="Maya", plan_item="read", personality_text="Maya.", emotion="calm", urgent_needs="")
    close = {"hunger": 0.5, "fun": 0.3}
    kept = asyncio.run(choose_action(_NoModel(), needs=close, candidates=_candidates(), keep=("shelf-1", "read", 0), **kw))
    assert kept.mode == "continue" and kept.chosen.object_id == "shelf-1" and "model skipped" in kept.why
    for tired_of_it in (("shelf-1", "read", MAX_CARRY_ON), ("stove-1", "cook", 0)):  # long enough; a short task
        short = [c.model_copy(update={"duration_min": 10.0}) if c.verb == "cook" else c for c in _candidates()]
        again = asyncio.run(choose_action(_Broken(), needs=close, candidates=short, keep=tired_of_it, **kw))
        assert again.mode == "fallback", tired_of_it  # a real choice: the model is asked
    hungry = {"hunger": 0.9, "fun": 0.3}  # urgent hunger: cooking leads by more than the margin
    d = asyncio.run(choose_action(_NoModel(), needs=hungry, candidates=_candidates(), **kw))
    assert d.mode == "utility" and d.chosen.object_id == "stove-1" and d.call_id is None
    assert d.utilities[1] - d.utilities[0] >= UTILITY_MARGIN and "leads" in d.why
    one = asyncio.run(choose_action(_NoModel(), needs=close, candidates=_candidates()[:1], **kw))
    assert one.mode == "utility" and "only candidate" in one.why
    gone = asyncio.run(choose_action(_Broken(), needs=close, candidates=_candidates(), keep=("tv-1", "watch", 0), **kw))
    assert gone.mode == "fallback"  # what it was doing is no longer offered: a real choice


class _Broken:
    async def choose(self, *a, **k):
        raise RuntimeError("backend down")


@pytest.mark.model
@pytest.mark.parametrize("mode", ["score", "generate"])
def test_choice_with_the_real_model_is_one_of_the_candidates(scheduler, mode):
    from garp.mind.action import choose_action

    d = asyncio.run(choose_action(scheduler, agent="Maya", plan_item="have lunch at home",
                                  personality_text="Maya is a nurse. By temperament, Maya is quite organized.",
                                  emotion="calm", needs={"hunger": 0.5, "fun": 0.3},
                                  urgent_needs="", candidates=_candidates(), t=43200.0, mode=mode))
    assert d.chosen is not None and d.chosen in d.candidates and d.call_id is not None
    assert d.mode in (mode, "fallback") and d.why


def test_an_options_nearness_to_the_situation_weighs_as_much_as_its_utility():
    """The 135M model barely tells a situation's words apart (a choice development set: 21 of 30 without the
    embedder's similarity, 24 with it); without similarities the blend is what it always was."""
    from garp.engine.lmfunction import blend_scores
    flat = blend_scores([-2.0, -2.0], [1.0, 1.0], 0.5, relevance=[0.2, 0.6])
    assert flat[1] > flat[0]  # all else equal, the option nearer the situation wins
    pulled = blend_scores([-2.0, -2.0], [1.0, 0.0], 0.5, relevance=[0.2, 0.6])
    assert pulled[0] == pytest.approx(pulled[1])  # as much as the utility: a tie
    assert blend_scores([-1.0, -3.0], [0.0, 1.0], 0.5) == pytest.approx(blend_scores([-1.0, -3.0], [0.0, 1.0], 0.5, None))
    plain = blend_scores([-1.0, -3.0], [0.0, 1.0], 0.5)
    assert plain[0] == pytest.approx(0.5 * math.exp(-1) / (math.exp(-1) + math.exp(-3)))


@pytest.mark.model
def test_action_choice_blends_each_candidates_goal_similarity(scheduler):
    import json
    from garp.mind.action import choose_action

    d = asyncio.run(choose_action(scheduler, agent="Maya", plan_item="have lunch at home",
                                  personality_text="Maya is a nurse.", emotion="calm",
                                  needs={"hunger": 0.5, "fun": 0.3}, urgent_needs="", candidates=_candidates(),
                                  t=43200.0, mode="score"))
    assert d.mode == "score", d.why
    scores = json.loads(d.why.split(": ", 1)[1])
    assert scores["relevance"] == [c.sim for c in _candidates()]
    assert sum(scores["combined"]) == pytest.approx(1.0, abs=1e-3)
