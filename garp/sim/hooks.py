"""Scene hooks: rules that belong to one story and last only as long as the scene (III-A6).

- apology_floor: registered with the relationship system's scene hooks (garp.mind.relationships).
- invitation_round: the host holds the event as an own commitment and plans visits to
  the guests; a guest who talks with the host hears the host's own statement (VI-e).
- stage_nerves / private_envy: the scene opens with that emotion in the named agents.
"""

from __future__ import annotations

from typing import Any

from garp.mind.commitments import Commitment, make_commitment
from garp.scenario.schema import Scenario, hhmm_to_seconds

# --- tunables ---------------------------------------------------------------------------
INVITE_VISIT_S = 30 * 60.0  # game s the host spends at each guest's home
INVITE_FIRST_AFTER_S = 30 * 60.0  # first visit starts this long after the scene starts
OPENING_EMOTIONS = {  # hook -> (label, intensity, valence, description template)
    "stage_nerves": ("anxious", 0.6, -0.4, "nervous about the performance tonight"),
    "private_envy": ("frustrated", 0.5, -0.3, "privately envious of {target}"),
}


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
        event = make_commitment(str(p["what"]), start, place, host, participants=guests, end=end)
        return host, event, guests

    def invitation_visits(self, homes: dict[str, str]) -> list[Commitment]:
        """The host's errands: one visit per guest home, spread through the first afternoon."""
        inv = self.invitation()
        if inv is None:
            return []
        host, event, guests = inv
        t = self.scenario.start_seconds + INVITE_FIRST_AFTER_S
        visits, seen = [], set()
        for g in guests:
            home = homes.get(g)
            if not home or home == homes.get(host) or home in seen:
                continue
            seen.add(home)
            who = [x for x in guests if homes.get(x) == home]
            visits.append(make_commitment(f"invite {' and '.join(who)} to {event.what}", t, home, host,
                                          participants=who, end=t + INVITE_VISIT_S))
            t += INVITE_VISIT_S + 15 * 60.0
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


def _hhmm(t: float) -> str:
    s = int(t % 86400)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}"
