"""How a scene opens: each agent already doing what its persona's routine says (code, no model).

Before the first routine block of the day the night's block goes on (a town that opens at 06:00
is asleep until its 07:00 wake-ups). In play, an opening activity that names an object the agent
may use where it stands starts with that object in use: a sleeper is in its bed from the first
frame. Headless runs keep the plain opening their recordings were made with (Requests.start_activity).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from garp.mind.agent import Activity, AgentMind
from garp.mind.plan_tree import PlanNode
from garp.units import DAY_S

_WORD = re.compile(r"[a-z]+")
MayUse = Callable[[Any, AgentMind], bool]  # whether an agent may use an object (garp.sim.requests.may_use)


def overnight(nodes: list[PlanNode], t: float) -> PlanNode | None:
    """The day's last block carried over the night to the first one, when `t` falls before it."""
    if not nodes or t >= nodes[0].start:
        return None
    last = nodes[-1]
    return last.piece(last.start - DAY_S, nodes[0].start)


def routine_object(world: Any, mind: AgentMind, description: str, may_use: MayUse) -> tuple[Any, Any] | None:
    """(object, affordance) here whose verb the routine's words name ("sleep" -> a bed), the agent's
    own first, then the nearest; None when the words name none it may use now."""
    body = world.bodies[mind.name]
    words = set(_WORD.findall(description.lower()))
    found = [(mind.name not in (o.owners or []), (o.x - body.x) ** 2 + (o.y - body.y) ** 2, o.id, o, a)
             for o in world.objects.in_place(body.place) if may_use(o, mind)
             for a in o.available_affordances()
             if set(a.verb.split()) <= words and a.offered_to(o.place, mind.persona.workplace)]
    return min(found)[3:] if found else None


def open_with_object(world: Any, mind: AgentMind, block: PlanNode | None, act: Activity, t: float,
                     may_use: MayUse) -> Activity:
    """The opening stay as a use of the object its routine block names here, or `act` unchanged."""
    here = world.bodies[mind.name].place
    if block is None or (block.place and block.place != here):
        return act
    found = routine_object(world, mind, block.description, may_use)
    if found is None or not world.settle(mind.name, found[0].id, found[1].verb, t):
        return act
    obj, aff = found
    share = min(1.0, (act.end_t - t) / (aff.duration_min * 60.0))  # relief for the part it does
    return Activity("use", act.description, world.bodies[mind.name].place, obj.id, aff.verb, t, act.end_t,
                    {k: v * share for k, v in aff.relieves.items()})
