"""Scene hooks: rules that belong to one story and last only as long as the scene (III-A6).

- apology_floor: registered with the relationship system's scene hooks (garp.mind.relationships).
- invitation_round (a demo option, used by no scenario's passing goals): the host holds the event and
  plans visits to the guests, and a guest who talks with the host is handed the event as a
  commitment whatever was said. That scripts the outcome; scenarios use `intentions` instead,
  which spread only through what is said (garp.mind.news, issue 19).
- stage_nerves / private_envy: the scene opens with that emotion in the named agents; stage
  nerves then rise toward the agent's own performance (her first seed commitment) unless
  something has turned her mood positive, such as a friend's support (V-B stage fright).
"""

from __future__ import annotations

from typing import Any

from garp.mind.commitments import Commitment, make_commitment
from garp.mind.news import invitation_visits
from garp.scenario.schema import Scenario, hhmm_to_seconds
from garp.units import DAY_S

# --- tunables ---------------------------------------------------------------------------
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
        """The host's errands: the same visits any intention gets (garp.mind.news.invitation_visits)."""
        inv = self.invitation()
        if inv is None:
            return []
        host, event, guests = inv
        return invitation_visits(event, guests, homes, workplaces or {}, self.scenario.start_seconds)

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
