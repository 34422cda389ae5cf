"""Scene hooks: rules that belong to one story and last only as long as the scene (III-A6).

- apology_floor: registered with the relationship system's scene hooks (garp.mind.relationships).
- invitation_round: the host holds the event as an own commitment and plans visits to
  the guests; a guest who talks with the host hears the host's own statement (VI-e).
- stage_nerves / private_envy: the scene opens with that emotion in the named agents; stage
  nerves then rise toward the agent's own performance (her first seed commitment) unless
  something has turned her mood positive, such as a friend's support (V-B stage fright).
"""

from __future__ import annotations

from typing import Any

from garp.mind.commitments import Commitment, make_commitment
from garp.mind.plan_repair import COMMITMENT_TRAVEL_LEAD_S
from garp.scenario.schema import Scenario, hhmm_to_seconds
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
INVITE_VISIT_S = 60 * 60.0  # game s the host waits at each guest's home for the guest to be free to talk
INVITE_FIRST_AFTER_S = 30 * 60.0  # first visit starts this long after the scene starts
INVITE_AFTER_WORK_S = 18 * 3600.0  # time of day a guest with a workplace is home (the plain day's
# free time starts 17:30, plus the walk home; planning.routine_activities)
INVITE_WALK_S = COMMITMENT_TRAVEL_LEAD_S  # game s between two visits: a walk across town
OPENING_EMOTIONS = {  # hook -> (label, intensity, valence, description template)
    "stage_nerves": ("anxious", 0.6, -0.4, "nervous about the performance tonight"),
    "private_envy": ("frustrated", 0.5, -0.3, "privately envious of {target}"),
}
NERVES_PEAK_INTENSITY = 0.9  # anxiety (0..1) reached as the performance starts (ours; V-B escalation)
NERVES_PEAK_VALENCE = -0.6  # valence at that moment (ours)
NERVES_STEP = 0.05  # a rise smaller than this is not a new emotional state (keeps the log readable)


class SceneHooks:
    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario

    # --- invitation round -----------------------------------------------------------------
    def invitation(self) -> tuple[str, Commitment, list[str]] | None:
        hook = self.scenario.hook("invitation_round")
        if hook is None or not hook.agents:
            return None
        host = hook.agents[0]
        p = hook.params
        start = hhmm_to_seconds(int(p.get("day", 1)), str(p["start"]))
        end = hhmm_to_seconds(int(p.get("day", 1)), str(p["end"]))
        place = str(p["place"])
        guests = [n for n in self.scenario.cast if n != host]
        event = make_commitment(str(p["what"]), start, place, host, participants=guests, end=end,
                                room=str(p.get("room") or "") or None)
        return host, event, guests

    def invitation_visits(self, homes: dict[str, str], workplaces: dict[str, str | None] | None = None) -> list[Commitment]:
        """The host's errands: one visit per guest home, with a walk between visits. Guests who
        are home all day are visited first; a home whose guest works is visited after work."""
        inv = self.invitation()
        if inv is None:
            return []
        host, event, guests = inv
        working = {g for g in guests if (workplaces or {}).get(g)}
        groups: dict[str, list[str]] = {}
        for g in guests:
            if homes.get(g) and homes.get(g) != homes.get(host):
                groups.setdefault(homes[g], []).append(g)
        day0 = self.scenario.start_seconds - self.scenario.start_seconds % DAY_S
        t = self.scenario.start_seconds + INVITE_FIRST_AFTER_S
        visits = []
        for home, who in sorted(groups.items(), key=lambda hw: bool(working & set(hw[1]))):
            if working & set(who):
                t = max(t, day0 + INVITE_AFTER_WORK_S)
            visits.append(make_commitment(f"invite {' and '.join(who)} to {event.what}", t, home, host,
                                          participants=who, end=t + INVITE_VISIT_S))
            t += INVITE_VISIT_S + INVITE_WALK_S
        return visits

    def heard_from_host(self, host: str, guest: str, t: float) -> Commitment | None:
        inv = self.invitation()
        if inv is None or inv[0] != host or guest not in inv[2]:
            return None
        return inv[1].model_copy(update={"source": "heard-from-host", "heard_from": host, "created_t": t})

    def topic(self, initiator: str, partner: str) -> str:
        inv = self.invitation()
        if inv is None or inv[0] != initiator or partner not in inv[2]:
            return ""
        ev = inv[1]
        day = "tomorrow" if ev.day > 0 else "today"
        return f"{initiator} wants to invite {partner} to {ev.what} at {ev.place} {day} at {_hhmm(ev.start)}."

    # --- opening emotions --------------------------------------------------------------------
    def opening_emotions(self) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for h in self.scenario.hooks:
            if h.name in OPENING_EMOTIONS:
                label, intensity, valence, desc = OPENING_EMOTIONS[h.name]
                text = desc.format(target=h.params.get("target", "someone"))
                out += [(a, {"label": label, "intensity": intensity, "valence": valence, "description": text})
                        for a in h.agents]
        return out

    def performance_t(self, agent: str) -> float | None:
        """Start of the agent's own performance: the first seed commitment she proposed."""
        starts = [hhmm_to_seconds(c.day, c.start) for c in self.scenario.seed_commitments if c.proposer == agent]
        return min(starts) if starts else None

    def rising_nerves(self, agent: str, current: Any, t: float) -> dict[str, Any] | None:
        """The stage_nerves state due at `t`, when it is stronger than the current one.

        Nerves climb linearly from the opening intensity at the scene start to the peak at the
        performance; a positive mood (support, reassurance) holds them off, and after the
        performance starts they stop rising."""
        hook = self.scenario.hook("stage_nerves")
        show = self.performance_t(agent)
        t0 = self.scenario.start_seconds
        if hook is None or agent not in hook.agents or show is None or not t0 <= t < show or current.valence > 0:
            return None
        label, opening, valence, desc = OPENING_EMOTIONS["stage_nerves"]
        share = (t - t0) / (show - t0)
        intensity = opening + (NERVES_PEAK_INTENSITY - opening) * share
        if intensity < current.intensity + (NERVES_STEP if current.label == label else 0.0):
            return None  # already that nervous, or a stronger feeling holds her
        return {"label": label, "intensity": round(intensity, 3),
                "valence": round(valence + (NERVES_PEAK_VALENCE - valence) * share, 3),
                "description": f"{desc}; it starts at {_hhmm(show)}"}


def _hhmm(t: float) -> str:
    s = int(t % DAY_S)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"
