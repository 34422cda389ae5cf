"""Affordance filtering (paper III-A8, Eq. 3): 50+ candidate actions → 3-8 for the model.

    F(a) = 0.7·sim(goal, description) + 0.2·prox(a) + 0.1·own(a)

prox = 1 − d/d_max (d_max = the widest search radius, 2400 px, so a candidate's score
does not change while the radius grows; clipped at 0), own = 1 if the
object is in the agent's home building (or the agent owns it). Four stages:
(1) deduplicate by description keeping the closest instance; (2) expanding radius from
300 px, doubling up to three times, keeping candidates scoring ≥ 0.45 plus the top two
regardless of distance; (3) fallback threshold 0.25 when fewer than three pass; (4) cap 8.
Description embeddings are computed once per scene and shared by all agents (IV-D).
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np
from pydantic import BaseModel, Field

# --- tunables (paper III-A8, Eq. 3) ---------------------------------------------------------
W_SIM, W_PROX, W_OWN = 0.7, 0.2, 0.1  # Eq. 3 weights
START_RADIUS_PX = 300.0  # first search radius, map pixels
RADIUS_DOUBLINGS = 3  # 300 → 600 → 1200 → 2400 px
THRESHOLD = 0.45  # keep candidates scoring at least this
TOP_ANYWHERE = 2  # the best two scored candidates are kept regardless of distance
MIN_PASSING = 3  # fewer than this pass → relax the threshold (and stop expanding once reached)
FALLBACK_THRESHOLD = 0.25  # relaxed threshold
CAP = 8  # at most this many candidates go to the model
NOVEL_SLOTS = 3  # candidate slots kept for places new today (one per place; novelty, VI-c)
D_MAX_PX = START_RADIUS_PX * 2 ** RADIUS_DOUBLINGS  # proximity normaliser d_max, map pixels


class Candidate(BaseModel):
    """One affordance instance offered to action choice, with its Eq. 3 factors."""

    object_id: str
    object_name: str = ""
    verb: str
    description: str
    place: str = ""
    distance: float
    sim: float
    prox: float
    own: float
    score: float
    relieves: dict[str, float] = Field(default_factory=dict)
    duration_min: float = 30.0

    def option_text(self) -> str:
        """Short text for the model: what, with what, where."""
        where = f" at {self.place}" if self.place else ""
        return f"{self.description} ({self.object_name}{where})"


class AffordanceEmbeddings:
    """Description → vector, shared by every agent of a scene (paper Table II, IV-D)."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self._vecs: dict[str, np.ndarray] = {}
        self.computed = 0  # descriptions embedded by the model so far (each at most once)

    def vectors(self, descriptions: Iterable[str]) -> dict[str, np.ndarray]:
        wanted = list(dict.fromkeys(descriptions))
        missing = [d for d in wanted if d not in self._vecs]
        if missing:
            vecs = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            for d, v in zip(missing, vecs):
                self._vecs[d] = v
            self.computed += len(missing)
        return {d: self._vecs[d] for d in wanted}

    def reset(self) -> None:
        """Scene reset (Table II eviction)."""
        self._vecs.clear()

    def __len__(self) -> int:
        return len(self._vecs)


def _objects(source) -> list:
    if hasattr(source, "all"):
        return list(source.all())
    return list(source)


def _raw_candidates(objects: list, agent: str | None, x: float, y: float, home: str | None,
                    workplace: str | None = None, leave_out: frozenset[str] = frozenset(),
                    done: frozenset[tuple[str, str]] = frozenset()) -> list[dict]:
    """Every usable (object, affordance) pair; objects full to capacity are left out, and so are the
    staff's affordances for those who do not work there, the customers' for those who do, the verbs in
    `leave_out` and the (object id, verb) uses in `done`."""
    out = []
    for o in objects:
        mine = agent is not None and agent in getattr(o, "users", {})
        affs = o.affordances if mine or not hasattr(o, "available_affordances") else o.available_affordances()
        affs = [a for a in affs if a.offered_to(o.place, workplace) and a.verb not in leave_out
                and (o.id, a.verb) not in done]
        own = 1.0 if (home and o.place == home) or (agent and agent in (o.owners or [])) else 0.0
        d = math.hypot(o.x - x, o.y - y)
        for a in affs:
            out.append(dict(object_id=o.id, object_name=getattr(o, "name", o.type), verb=a.verb,
                            description=a.description, place=o.place, distance=d, own=own,
                            relieves=dict(a.relieves), duration_min=a.duration_min))
    return out


def deduplicate(raw: list[dict]) -> list[dict]:
    """Stage 1: one instance per description, the closest (ties: lowest object id)."""
    best: dict[str, dict] = {}
    for c in raw:
        key = " ".join(c["description"].lower().split())
        if key not in best or (c["distance"], c["object_id"]) < (best[key]["distance"], best[key]["object_id"]):
            best[key] = c
    return list(best.values())


def _score(c: dict, sim: float) -> Candidate:
    prox = max(0.0, 1.0 - c["distance"] / D_MAX_PX)
    score = W_SIM * sim + W_PROX * prox + W_OWN * c["own"]
    return Candidate(**c, sim=sim, prox=prox, score=score)


def filter_affordances(goal_vec: np.ndarray, agent_xy: tuple[float, float], home: str | None,
                       registry_or_list, embeddings: AffordanceEmbeddings, *,
                       agent: str | None = None, workplace: str | None = None,
                       leave_out: frozenset[str] = frozenset(), done: frozenset[tuple[str, str]] = frozenset(),
                       stats: dict | None = None) -> list[Candidate]:
    """Eq. 3 filter → at most 8 candidates, best first (stages in the module docstring); `leave_out`: verbs never
    offered (so they take no place among the best two), `done`: (object id, verb) uses not offered again;
    `stats` receives the stage counts for the inspector."""
    x, y = agent_xy
    raw = _raw_candidates(_objects(registry_or_list), agent, x, y, home, workplace, leave_out, done)
    pool = deduplicate(raw)
    if stats is not None:
        stats.update(raw=len(raw), deduped=len(pool), radius=0.0, relaxed=False)
    if not pool:
        return []
    vecs = embeddings.vectors(c["description"] for c in pool)
    goal = np.asarray(goal_vec, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(goal)) or 1.0
    sims = {d: float(np.dot(v, goal) / (norm * (float(np.linalg.norm(v)) or 1.0))) for d, v in vecs.items()}

    scored = [_score(c, sims[c["description"]]) for c in pool]
    radius = START_RADIUS_PX
    for step in range(RADIUS_DOUBLINGS + 1):  # stage 2: expanding radius
        radius = START_RADIUS_PX * (2 ** step)
        in_range = [c for c in scored if c.distance <= radius]
        passing = [c for c in in_range if c.score >= THRESHOLD]
        if len(passing) >= MIN_PASSING:
            break
    chosen = {(c.object_id, c.verb): c for c in passing}
    for c in sorted(scored, key=lambda c: -c.score)[:TOP_ANYWHERE]:  # top two, any distance
        chosen.setdefault((c.object_id, c.verb), c)
    relaxed = len(passing) < MIN_PASSING
    if relaxed:  # stage 3: relaxed threshold
        for c in in_range:
            if c.score >= FALLBACK_THRESHOLD:
                chosen.setdefault((c.object_id, c.verb), c)
    if stats is not None:
        stats.update(radius=radius, relaxed=relaxed, passing=len(passing))
    ranked = sorted(chosen.values(), key=lambda c: (-c.score, c.distance, c.object_id))
    return ranked[:CAP]  # stage 4: cap


def with_novel(base: list[Candidate], novel: list[Candidate], slots: int = NOVEL_SLOTS) -> list[Candidate]:
    """Reserve up to `slots` of the cap for the best candidate of each place new today."""
    picked: dict[str, Candidate] = {}
    for c in novel:
        if c.place not in picked and len(picked) < slots:
            picked[c.place] = c
    extra = list(picked.values())
    return base[:CAP - len(extra)] + extra
