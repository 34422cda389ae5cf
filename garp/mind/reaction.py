"""The agent side of perception (paper III-A7): what an observed change means for a mind.

Perception delivers events; this decides, by rules and without a model call, whether the
change becomes a memory, whether it is salient enough for an emotion appraisal, whether
the agent's affordance map must be refreshed and whether active cognition should replan
(e.g. the object the agent was going to use is now taken or broken).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

# --- tunables -------------------------------------------------------------------------
# New object states that are worth an emotion appraisal (III-A7 step 4, "salient events").
SALIENT_STATE = re.compile(r"broken|fire|burn|smok|flood|leak|spill|out of order|alarm|crash", re.I)
# New object states in which nobody can use the object.
UNUSABLE_STATE = re.compile(r"broken|out of order|fire|burn|flood|closed", re.I)


class Reaction(BaseModel):
    memory_text: str | None = None  # III-A7 step 3: observation memory, None = not worth one
    appraise: bool = False  # step 4: ask the emotion system
    replan: bool = False  # step 5: active cognition should replan the current window
    update_affordances: bool = False  # step 2: refresh the agent's affordance candidates
    reason: str = ""


def _lookup(registry: Any, object_id: str) -> Any:
    if registry is None:
        return None
    try:
        return registry.get(object_id)
    except Exception:  # noqa: BLE001 — an unknown id just means no extra detail
        return None


def react_to_state_change(event: Any, *, agent: str, planned_object_id: str | None = None,
                          planned_verb: str | None = None, home: str | None = None,
                          registry: Any = None) -> Reaction:
    """Rules for one perception event (kind, object_id, description, old, new)."""
    kind = getattr(event, "kind", "object_state")
    if kind in ("object_enter", "object_leave"):
        return Reaction(update_affordances=True, reason=kind)
    if kind != "object_state":
        return Reaction(reason=f"{kind}: handled by conversation initiation")
    obj = _lookup(registry, event.object_id)
    users = dict(getattr(obj, "users", {}) or {})
    desc = str(getattr(event, "description", "")) or f"{event.object_id} is {event.new}"
    self_caused = agent in users or (not users and re.search(rf"\bby {re.escape(agent)}\b", desc) is not None)
    if self_caused and not SALIENT_STATE.search(str(event.new)):
        return Reaction(update_affordances=True, reason="own use")
    appraise = bool(SALIENT_STATE.search(str(event.new)))
    if home and obj is not None and obj.place == home and users and not any(
            u in (obj.owners or []) or u == agent for u in users):
        appraise = True  # someone else using things in my home
    replan, why = False, "observed"
    if planned_object_id and event.object_id == planned_object_id:
        if obj is not None and planned_verb:
            blocked = agent not in users and not registry.can_use(event.object_id, planned_verb)
        else:
            blocked = bool(UNUSABLE_STATE.search(str(event.new))) or (str(event.new) == "in use" and not self_caused)
        if blocked:
            replan, why = True, f"planned object {event.object_id} became unavailable ({event.new})"
    return Reaction(memory_text=remembered(agent, obj, users, desc), appraise=appraise, replan=replan,
                    update_affordances=True, reason=why)


def remembered(agent: str, obj: Any, users: dict, desc: str) -> str | None:
    """An object's change as a person remembers it ("Maya saw Sam using the stove in Maya's House
    kitchen"), not the world's state line ("the stove ... is in use by Sam")."""
    if obj is None:
        return desc
    kind = getattr(getattr(obj, "kind", None), "name", "") or "thing"
    where = obj.where() if callable(getattr(obj, "where", None)) else ""
    thing = f"the {kind}" + (f" in {where}" if where else "")
    others = [u for u in users if u != agent]
    if others:
        return f"{agent} saw {' and '.join(others)} using {thing}"
    state = str(getattr(obj, "state", "")).replace("_", " ")
    if state in ("idle", "free", ""):
        return None  # a thing nobody uses any more is nothing a person remembers
    return f"{agent} noticed {thing} was {state}"
