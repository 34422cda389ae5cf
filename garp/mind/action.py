"""Action choice among filtered affordances (paper III-A8), validated, with a utility fallback.

The model picks from the 3-8 candidates the affordance filter left, with the plan item,
personality (with its temperament sentence), emotion and urgent needs in the prompt.
Score mode ranks the option texts by log-likelihood blended with a utility (need relief
weighted by need urgency, plus the Eq. 3 score) and with each option's similarity to the goal
(Eq. 3's sim: the embedder tells the words of a situation apart better than the small model);
generate mode asks `ActionChoice` for
an option number that code validates against the set. Any failure → the best utility.
Every decision is kept as a `Decision` record for the inspector.
"""

from __future__ import annotations

import json
from typing import ClassVar, Iterable, Literal

from pydantic import BaseModel, Field

from garp.engine.lmfunction import LMFunction, chat
from garp.mind.affordance_filter import CAP, Candidate
from garp.mind.needs import URGENT_THRESHOLD

# --- tunables -------------------------------------------------------------------------
URGENT_WEIGHT = 2.0  # urgent needs count double in the utility (our choice: make them win)
W_FILTER_SCORE = 0.5  # weight of the Eq. 3 score (goal fit) in the utility
# Novelty preference (the paper's VI-c suggestion): a place not yet visited today adds
# NOVELTY_WEIGHT x the signed novelty axis (+g curious, -g conventional) to the utility.
NOVELTY_WEIGHT = 1.0
# Call reduction (IV-B, our rule): the model is skipped when code already knows the answer:
# one candidate, or a best utility ahead of the runner-up by at least this margin (utility
# units: need relief x urgency + goal fit). benchmarks/decision_modes.py measures the rule.
UTILITY_MARGIN = 0.3
# Carrying on (our rule): when the plan still says the same thing, an open-ended activity (one
# whose natural length is at least KEEP_MIN_DURATION_MIN game minutes: reading, working, a meal)
# goes on without a new choice, at most MAX_CARRY_ON times in a row; a short task (a shower, a
# snack) is never repeated by default, nor offered again in the same plan block (pipeline.done_in_block).
KEEP_MIN_DURATION_MIN = 30.0
MAX_CARRY_ON = 2


class Decision(BaseModel):
    """Why an agent does what it does: shown by the inspector's Decisions panel."""

    agent: str
    t: float
    plan_item: str
    needs: dict[str, float]
    candidates: list[Candidate]
    utilities: list[float]
    chosen: Candidate | None
    chosen_index: int
    why: str
    mode: Literal["score", "generate", "fallback", "none", "utility", "continue"]
    call_id: int | None = None


def utility(c: Candidate, needs: dict[str, float], novelty: float = 0.0, visited: Iterable[str] = ()) -> float:
    """Need relief weighted by how pressing each need is, plus the goal fit, plus the
    temperament's pull towards (curious) or away from (conventional) places new today."""
    relief = 0.0
    for need, amount in c.relieves.items():
        level = needs.get(need, 0.0)
        relief += amount * level * (URGENT_WEIGHT if level > URGENT_THRESHOLD else 1.0)
    new_place = bool(c.place) and c.place not in set(visited)
    return relief + W_FILTER_SCORE * c.score + (NOVELTY_WEIGHT * novelty if new_place else 0.0)


class ChoiceInputs(BaseModel):
    agent: str
    plan_item: str
    personality_text: str
    emotion: str
    urgent_needs: str
    options: list[str]
    utilities: list[float]


class ChoiceOut(BaseModel):
    choice: Literal[tuple(range(1, CAP + 1))] = Field(..., description="number of the chosen option")  # type: ignore[valid-type]


def _context_lines(i: ChoiceInputs) -> list[str]:
    lines = [i.personality_text, f"Plan now: {i.plan_item}", f"Mood: {i.emotion}"]
    return lines + ([f"Needs: {i.urgent_needs}"] if i.urgent_needs else [])


class ActionChoice(LMFunction):
    """Generate mode: the number of one listed option, checked against the set."""

    name: ClassVar[str] = "action_choice"
    value: ClassVar[str] = "choice"
    Output: ClassVar[type[BaseModel]] = ChoiceOut
    priority: ClassVar[int] = 3
    temperature: ClassVar[float] = 0.0
    max_tokens: ClassVar[int] = 40

    def messages(self, inputs: ChoiceInputs, reasoning: bool) -> list[dict]:
        system = ("You choose what a character does next from numbered options. Pick the option that best "
                  "fits the plan, the mood and any pressing need. Answer with the option number.")
        opts = "\n".join(f"{n}. {o}" for n, o in enumerate(inputs.options, 1))
        user = "\n".join(_context_lines(inputs) + [f"Options:\n{opts}", f"What does {inputs.agent} do next?"])
        return chat(system, user)

    def fallback(self, inputs: ChoiceInputs) -> ChoiceOut:
        best = max(range(len(inputs.options)), key=lambda k: inputs.utilities[k]) if inputs.options else 0
        return ChoiceOut(choice=best + 1)

    def check(self, inputs: ChoiceInputs, out: ChoiceOut) -> ChoiceOut:
        if not 1 <= out.choice <= len(inputs.options):
            raise ValueError(f"option {out.choice} is not one of the {len(inputs.options)} listed")
        return out


def score_messages(i: ChoiceInputs) -> list[dict]:
    system = "You decide what a character does next. Reply with the action."
    user = "\n".join(_context_lines(i) + [f"What does {i.agent} do next?"])
    return chat(system, user)


async def choose_action(scheduler, *, agent: str, plan_item: str, personality_text: str, emotion: str,
                        needs: dict[str, float], urgent_needs: str, candidates: list[Candidate],
                        t: float = 0.0, mode: str = "score", deadline: float | None = None,
                        novelty: float = 0.0, visited: Iterable[str] = (),
                        keep: tuple[str, str, int] | None = None) -> Decision:
    """Pick one candidate; never raises (utility fallback) and always returns a Decision.

    `keep` is the (object id, verb, times carried on so far) the agent is already using for this
    same plan item: if the filter still offers it, the agent carries on without asking the model."""
    candidates = list(candidates)[:CAP]  # the choice schema numbers at most CAP options
    visited = list(visited)
    utils = [round(utility(c, needs, novelty, visited), 4) for c in candidates]
    base = dict(agent=agent, t=t, plan_item=plan_item, needs=dict(needs), candidates=candidates, utilities=utils)
    if not candidates:
        return Decision(**base, chosen=None, chosen_index=-1, why="no usable affordance in range", mode="none")
    best = max(range(len(candidates)), key=lambda k: utils[k])
    skip = _without_model(candidates, utils, best, keep)
    if skip is not None:
        index, mode, why = skip
        return Decision(**base, chosen=candidates[index], chosen_index=index, mode=mode, why=why)
    inputs = ChoiceInputs(agent=agent, plan_item=plan_item, personality_text=personality_text, emotion=emotion,
                          urgent_needs=urgent_needs, options=[c.option_text() for c in candidates], utilities=utils)
    try:
        if mode == "generate":
            out, rec = await scheduler.call(ActionChoice(), inputs, agent=agent, deadline=deadline, game_time=t)
            index = out.choice - 1
        else:
            index, rec = await scheduler.choose(score_messages(inputs), inputs.options, agent=agent, utilities=utils,
                                                relevance=[c.sim for c in candidates], mode="score",
                                                deadline=deadline, game_time=t)
    except Exception as e:  # noqa: BLE001 — a failed decision must not freeze the agent
        return Decision(**base, chosen=candidates[best], chosen_index=best, mode="fallback",
                        why=f"utility fallback: {type(e).__name__}: {e}; best utility {utils[best]:.2f}")
    if rec.fallback_used or not 0 <= index < len(candidates):
        return Decision(**base, chosen=candidates[best], chosen_index=best, mode="fallback", call_id=rec.id,
                        why=f"utility fallback: {rec.error or 'invalid choice'}; best utility {utils[best]:.2f}")
    return Decision(**base, chosen=candidates[index], chosen_index=index, mode=mode, call_id=rec.id,
                    why=_why(rec, mode, utils[index]))


def _without_model(candidates: list[Candidate], utils: list[float], best: int,
                   keep: tuple[str, str, int] | None) -> tuple[int, str, str] | None:
    """(index, mode, why) when code can decide without the model, else None (IV-B call reduction)."""
    if keep is not None and keep[2] < MAX_CARRY_ON:
        index = next((k for k, c in enumerate(candidates) if (c.object_id, c.verb) == keep[:2]), None)
        if index is not None and candidates[index].duration_min >= KEEP_MIN_DURATION_MIN:
            return index, "continue", f"model skipped: same plan item, carries on: {keep[1]} {keep[0]}"
    if len(candidates) == 1:
        return best, "utility", "model skipped: the only candidate"
    runner_up = max(u for k, u in enumerate(utils) if k != best)
    if utils[best] - runner_up >= UTILITY_MARGIN:
        return best, "utility", (f"model skipped: utility {utils[best]:.2f} leads the next best "
                                 f"{runner_up:.2f} by >= {UTILITY_MARGIN}")
    return None


def _why(rec, mode: str, util: float) -> str:
    try:
        raw = json.loads(rec.raw) if rec.raw else {}
    except ValueError:
        raw = {}
    reasoning = raw.get("reasoning") if isinstance(raw, dict) else None
    if reasoning:
        return str(reasoning)
    if mode == "score":
        return f"model likelihood blended with utility {util:.2f}: {rec.raw}"
    return f"model chose option {(rec.parsed or {}).get('choice')}"
