"""Inspector panels rendered headless: assert on what each tab shows (its rows), not on pixels,
plus one pixel smoke. Minds come from the real modules; the live tests use a real Simulation."""

from __future__ import annotations

import time
import types
from datetime import datetime

import pygame
import pytest

from garp.engine.lmfunction import new_record
from garp.engine.memory_store import MemoryStore
from garp.eventlog import EventLog
from garp.game import view_model as vm
from garp.game.panels.agent_panel import AgentPanel
from garp.mind.action import Decision
from garp.mind.affordance_filter import Candidate
from garp.mind.emotion import EmotionState
from garp.mind.factory import make_mind
from garp.mind.persona import load_persona
from garp.mind.plan_tree import PlanNode, PlanTree
from garp.mind.relationships import RelationshipChange
from garp.paths import PERSONAS
from garp.world.clock import GameClock
from sim_helpers import short_scenario

T0 = 8 * 3600.0  # 08:00 of day 1


@pytest.fixture(scope="module")
def screen():
    pygame.init()
    return pygame.display.set_mode((1280, 720))


def _candidate(oid: str, desc: str, score: float) -> Candidate:
    return Candidate(object_id=oid, object_name=oid.split("/")[-1], verb=desc.split()[0], description=desc,
                     distance=100.0, sim=0.5, prox=0.8, own=1.0, score=score)


@pytest.fixture(scope="module")
def oliver(tmp_path_factory, embedder):
    """Oliver with real subsystems: seed memories in a real store, a plan, a decision, a call."""
    store = MemoryStore(tmp_path_factory.mktemp("mem"))
    persona = load_persona(PERSONAS / "oliver.json")
    mind = make_mind(persona, store=store, embedder=embedder, scheduler=None, t=T0 - 3600)
    mind.emotion.set(EmotionState(label="anxious", intensity=0.7, valence=-0.3, t=T0 + 600,
                                  description="Worried the records will not be filed by noon."))
    rel = mind.relationships.get("Isabel")
    rel.last_change = RelationshipChange(t=T0, partner="Isabel", sentiment=0.1, trust=0.05, familiarity=0.02,
                                         reason="She helped me carry the boxes.")
    mind.refresh_mirrors()  # as the applied commands would
    mind.plan = PlanTree(day=0, nodes=[
        PlanNode(start=7 * 3600, end=9 * 3600, description="breakfast and a crossword", place="Oliver's Flat"),
        PlanNode(start=9 * 3600, end=12 * 3600, description="file the permits at the office", place="Town Office",
                 children=[PlanNode(start=9 * 3600, end=10 * 3600, description="sort the morning post", level="hour"),
                           PlanNode(start=10 * 3600, end=12 * 3600, description="stamp the permits", level="hour")]),
        PlanNode(start=12 * 3600, end=13 * 3600, description="lunch with Isabel", place="Hobbs Cafe",
                 source="commitment", commitment_id="c1"),
    ])
    cands = [_candidate("flat/bookshelf", "read a book", 0.61), _candidate("flat/desk", "do the crossword", 0.58),
             _candidate("flat/bed", "sleep in the bed", 0.31)]
    mind.record_decision(Decision(agent="Oliver", t=T0, plan_item="breakfast and a crossword",
                                  needs=dict(mind.needs.values), candidates=cands, utilities=[0.4, 0.7, 0.1],
                                  chosen=cands[1], chosen_index=1, why="the crossword fits the plan best",
                                  mode="score").model_dump(mode="json"))
    rec = new_record("Oliver", "daily_plan", T0, [{"role": "system", "content": "You plan a day."},
                                                  {"role": "user", "content": "Plan Oliver's Monday."}],
                     retrieved=[{"description": "I prefer a quiet day with a clear list of tasks.", "score": 7.25,
                                 "factors": {"poignancy": 0.8, "similarity": 0.6, "recency": 0.5, "emotion": 0.0}}])
    rec.raw, rec.parsed, rec.queue_wait_s, rec.latency_s = '{"items": []}', {"items": []}, 0.4, 3.2
    mind.record_call(rec)
    mind.needs.values.update(social=0.74, hunger=0.35)
    clock = GameClock(datetime(2025, 3, 3, 9, 30))
    sim = types.SimpleNamespace(minds={"Oliver": mind}, clock=clock, log=EventLog(),
                                world=types.SimpleNamespace(bodies={}))
    yield sim
    store.close()


def test_decisions_tab_shows_plan_item_needs_affordances_and_choice(oliver):
    lines = AgentPanel(oliver, "Oliver").select("Decisions").lines()
    assert lines[1] == "breakfast and a crossword"
    assert "social 0.74 URGENT" in lines and "hunger 0.35" in lines
    assert sum(1 for line in lines if line.split()[0] in vm.NEED_NAMES) == 6
    assert "0.58  do the crossword (desk)   <- chosen" in lines
    assert any(line.startswith("0.61  read a book") for line in lines)
    assert any("Why: the crossword fits the plan best" == line for line in lines)


def test_plan_tab_lists_the_day_and_expands_blocks(oliver):
    panel = AgentPanel(oliver, "Oliver")
    tab = panel.select("Plan")
    lines = tab.lines()
    assert any("09:00-12:00  file the permits at the office  @ Town Office" in line and "<- now" in line
               for line in lines)
    assert any("lunch with Isabel" in line and line.rstrip().endswith("*") for line in lines)  # commitment
    assert not any("stamp the permits" in line for line in lines)  # collapsed
    key = vm.plan_blocks(oliver.minds["Oliver"])[1].key
    tab.toggle(key)
    lines = tab.lines()
    assert any("10:00-12:00  stamp the permits" in line and "<- now" not in line for line in lines)
    assert any("09:00-10:00  sort the morning post" in line and "<- now" in line for line in lines)


def test_plan_tab_lists_arrangements_with_how_they_were_heard_of(oliver):
    """A party Oliver heard of second-hand, his own errand to pass it on, and a lunch over by now:
    the Plan tab shows the two still ahead, soonest first, with who told him."""
    from garp.mind.commitments import make_commitment
    from garp.mind.news import heard
    mind = oliver.minds["Oliver"]
    party = make_commitment("Maya's party", 19 * 3600, "Hobbs Cafe", "Maya", participants=["Priya"], end=21.5 * 3600)
    errand = make_commitment("tell Sam about Maya's party", 17.5 * 3600, "Greta's House", "Oliver",
                             participants=["Sam"], end=18.5 * 3600)
    over = make_commitment("coffee with Isabel", 7 * 3600, "Hobbs Cafe", "Isabel", participants=["Oliver"],
                           end=8 * 3600, source="heard-from-host")
    saved = mind.commitment_view
    mind.commitment_view = {c.id: c for c in (heard(party, "Oliver", "Isabel", T0), errand, over)}
    try:
        lines = AgentPanel(oliver, "Oliver").select("Plan").lines()
    finally:
        mind.commitment_view = saved
    first = lines.index("Arrangements, and how it knows of them:")
    assert lines[first + 1:] == [
        "day 1 17:30-18:30  tell Sam about Maya's party @ Greta's House with Sam (yours)",
        "day 1 19:00-21:30  Maya's party @ Hobbs Cafe with Maya, Priya (second-hand, from Isabel)"]


def test_memories_tab_newest_first_with_type_filter_and_rule_header(oliver):
    tab = AgentPanel(oliver, "Oliver").select("Memories")
    persona = oliver.minds["Oliver"].persona
    rows = [line for line in tab.lines() if "\n" in line]
    assert len(rows) == len(persona.seed_memories)
    for seed in persona.seed_memories:
        assert any(seed.text in r and f"| {seed.type} |" in r for r in rows)
        if seed.condition:  # an authored rule's condition is the card header
            assert any(r.startswith(seed.condition + "\n") for r in rows)
    tab.toggle("preference")
    rows = [line for line in tab.lines() if "\n" in line]
    assert rows and all("| preference |" not in r for r in rows)


def test_emotions_tab_shows_label_intensity_valence_change_and_explanation(oliver):
    lines = AgentPanel(oliver, "Oliver").select("Emotions").lines()
    assert "Anxious" in lines and "intensity 0.70" in lines and "valence -0.30" in lines
    assert "Valence change: -0.40 (falling)" in lines  # from Oliver's calm baseline (+0.1)
    assert "Worried the records will not be filed by noon." in lines


def test_relationships_tab_shows_bars_and_last_change(oliver):
    lines = AgentPanel(oliver, "Oliver").select("Relations").lines()
    i = lines.index("Isabel")
    assert lines[i + 1:i + 4] == ["familiarity 0.60", "trust 0.60", "sentiment 0.20"]
    assert "Last change: sentiment +0.10, trust +0.05, familiarity +0.02" in lines
    assert "Reason: She helped me carry the boxes." in lines


def test_how_it_decided_shows_retrieval_prompt_reply_and_timing(oliver):
    tab = AgentPanel(oliver, "Oliver").select("How it decided")
    lines = tab.lines()
    assert any("daily_plan  ok  3.2s  mem 1" in line for line in lines)
    assert not any("Plan Oliver's Monday." in line for line in lines)
    c = vm.calls(oliver.minds["Oliver"])[0]
    tab.select((c.function, c.t, c.raw[:40]))
    lines = tab.lines()
    assert "queue wait 0.40 s | latency 3.20 s" in lines
    assert any(line.startswith("7.25  I prefer a quiet day") and "similarity 0.60" in line for line in lines)
    assert "[user]\nPlan Oliver's Monday." in lines
    assert '{"items": []}' in lines and "Parsed result" in lines


def test_panel_draws_legible_pixels(oliver, screen):
    panel = AgentPanel(oliver, "Oliver")
    for title in ("Decisions", "Plan", "Memories", "Emotions", "Persona", "Relations", "How it decided", "Interview"):
        panel.select(title)
        screen.fill((0, 0, 0))
        panel.update(1.0)
        panel.draw(screen)
        area = pygame.surfarray.array3d(screen.subsurface(panel.rect))
        colors = {tuple(c) for c in area.reshape(-1, 3)[::7]}
        assert panel.rect.width >= 460 and panel.rect.x >= 1280 * 0.55
        assert len(colors) > 20, f"{title} tab looks blank"


# ----------------------------------------------------------------------------- live simulation
@pytest.fixture(scope="module")
def live(tmp_path_factory, sim_engine):
    from garp.sim.wiring import build

    backend, embedder = sim_engine
    tmp = tmp_path_factory.mktemp("live")
    args = types.SimpleNamespace(out=str(tmp / "run"), seed=3, cache=str(tmp / "replies.sqlite"))
    sim = build(short_scenario(tmp), args, lockstep=True, backend=backend, embedder=embedder)
    assert sim.cognition.wait_idle(timeout=120), "the seed jobs did not finish"  # seed memories written
    yield sim
    sim.close()


def test_live_panels_read_the_simulation(live):
    mind = live.minds["Mika"]
    panel = AgentPanel(live, "Mika")
    decisions = panel.select("Decisions").lines()
    for need, value in mind.needs.values.items():
        assert any(line.startswith(f"{need} {value:.2f}") for line in decisions)
    memories = "\n".join(panel.select("Memories").lines())
    assert all(s.text in memories for s in mind.persona.seed_memories)
    relations = panel.select("Relations").lines()
    assert "Ren" in relations and "Maya" in relations
    persona = panel.select("Persona").lines()
    assert "By temperament, Mika is very extraverted and a bit curious." in persona
    assert "sociability: very extraverted   (introverted .. extraverted) +3" in persona


def test_map_label_shows_what_an_idle_body_is_doing(live):
    """A scene opens with each agent's routine activity (a mind-level stay): the map label must
    say it, not 'idle', while the body has no object or walk of its own."""
    from garp.game import view_model as vm
    shown = {b.name: b.activity for b in vm.bodies(live.world, live.clock.t, live.minds)}
    idle_bodies = [n for n in live.minds if live.world.bodies[n].activity == "idle"]
    assert idle_bodies  # nobody has walked or used anything yet
    for name in idle_bodies:
        act = live.minds[name].activity
        assert act.kind == "stay" and shown[name] == act.description != "idle"


def _slider_rect(tab, axis: str) -> pygame.Rect:
    return next(r for r, row, _ in tab.list._hits if row.kind == "slider" and row.text.startswith(axis))


def test_persona_slider_release_changes_social_decay_and_offers_replan(live, screen):
    mind = live.minds["Mika"]
    base_social = mind.persona.needs_profile.social
    panel = AgentPanel(live, "Mika")
    tab = panel.select("Persona")
    panel.update(1.0)
    panel.draw(screen)
    assert mind.needs.rates["social"] == pytest.approx(base_social * (1 + 0.5 * 0.75))  # very extraverted
    r = _slider_rect(tab, "sociability")
    left = (r.x + 8 + 1, r.centery)  # the first stop: extremely introverted
    for ev in (pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=left),
               pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=left)):
        assert panel.handle_event(ev)
    assert mind.needs.rates["social"] == pytest.approx(base_social * (1 - 0.4 * 1.0))  # Eq. 2
    assert "extremely introverted" in mind.traits
    lines = tab.lines()
    assert "sociability: extremely introverted   (introverted .. extraverted) -4" in lines
    assert "[Replan now?]*" in lines
    panel.draw(screen)
    button = next(r for r, row, b in tab.list._hits if b is not None and b.label == "Replan now?")
    mind.planned_day = 0
    panel.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.center))
    assert mind.planned_day == -1 and "Replan requested." in tab.lines()


@pytest.mark.model
def test_interview_tab_shows_answer_and_memories_used(live):
    panel = AgentPanel(live, "Ren")
    tab = panel.select("Interview")
    for ch in "What do you do in the evenings?":
        tab.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    tab.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r", mod=0))
    ex = tab.history[-1]
    assert ex.question == "What do you do in the evenings?" and tab.input == ""
    deadline = time.monotonic() + 600
    while not ex.done and time.monotonic() < deadline:
        panel.update(0.1)  # polls the future without blocking
        time.sleep(0.1)
    lines = tab.lines()
    assert ex.answer and f"Ren: {ex.answer}" in lines
    assert ex.memories and any(line.startswith(f"{ex.memories[0].score:.2f}  {ex.memories[0].description}")
                               for line in lines)
    assert any(line.startswith("Sources, best first (score = fit") for line in lines)  # how the ranking works
    assert any("\nfit " in line and " cos " in line for line in lines)  # each source's raw cosine, visible
    chats = live.sv.store.records("Ren", ["chat"])
    assert any("I was interviewed and asked: \"What do you do in the evenings?\"" in r.description for r in chats)
    live.step_lockstep()  # the main thread sees the answer has come: Ren may talk again
    assert not live.minds["Ren"].interviewed
