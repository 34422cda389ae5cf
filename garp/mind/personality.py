"""Graded personality compiled into prompt text, voice exemplars and numbers (paper III-A4).

`compile_personality(persona, traits_override)` is a pure function of the persona's
pre-trait base values (needs profile, authored chat probability) and a traits string,
so re-deriving after a slider edit never compounds. Personality adds no model calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from garp.errors import GarpError
from garp.mind.persona import AXES, GRADES, NEED_NAMES, Persona, Trait, parse_traits

# --- tunables (paper III-A4) ----------------------------------------------------------
NEED_PRESSED_BY_AXIS = {"sociability": "social", "order": "hygiene", "novelty": "fun"}  # Eq. 2
PRESS_SOONER_SLOPE = 0.5     # r' = r(1 + 0.5g) for extraverted / organized / curious (Eq. 2)
PRESS_LATER_SLOPE = 0.4      # r' = r(1 - 0.4g) for introverted / disorganized / conventional (Eq. 2)
RATE_MIN, RATE_MAX = 0.005, 0.08   # need rate clamp, per game-hour (III-A4)
INTROVERT_CHAT_SLOPE = 0.6   # p' = max(p(1 - 0.6g), min(0.3, p)) (III-A4)
CHAT_FLOOR_CAP = 0.3
# Extraversion is not defined by the paper. We mirror the introversion slope upwards,
# p' = min(1, p(1 + 0.6g)): the trait contrast stays symmetric, and a character authored
# at p = 0 ("never initiates") still never initiates, as the paper requires of introverts.
EXTRAVERT_CHAT_SLOPE = 0.6
WARM_POSITIVE_SLOPE = 1.0    # positive sentiment/trust deltas x(1 + g) (III-A4)
WARM_NEGATIVE_SLOPE = 0.3    # negative deltas x(1 - 0.3g) (III-A4)
# "Direct" is the paper's neutral low pole of warmth (not "cold", which the model plays as
# hostile), so it must not amplify slights. Our rule: a direct character is less moved by
# kindness, positive deltas x(1 - 0.3g), and takes negative turns at face value (x1).
DIRECT_POSITIVE_SLOPE = 0.3
SLIDER_STOPS = tuple(i / 4 for i in range(-4, 5))   # nine-stop sliders (III-A4 live editing)

# Appraisal coupling: one rule in the emotion prompt so one event moves temperaments differently.
APPRAISAL_RULE = (  # kept short: it sits in every appraisal prompt
    "Temperament colours feelings: company lifts an extravert and solitude weighs on them sooner; "
    "quiet time alone rests an introvert; novelty delights the curious and the familiar comforts the "
    "conventional; order and kept plans please the organized; kindness moves the warm. Temperament "
    "only colours: a fear or a low mood stays until something in the situation answers it.")

# One content-free example line per (pole, grade): no names, times or places (III-A4).
VOICE_EXEMPLARS: dict[str, dict[str, str]] = {
    "extraverted": {
        "a bit": "Oh, good to see you. How have things been?",
        "quite": "Hey, there you are! Come, tell me what you've been up to.",
        "very": "Hi! I was hoping I'd run into someone. Sit, sit, let's talk!",
        "extremely": "There you are! Oh, I have so much to tell you, and you first, go on!",
    },
    "introverted": {
        "a bit": "Hello. I'm fine, thanks, just taking it easy.",
        "quite": "Oh, hi. Yes, I'm alright. Just a quiet one for me.",
        "very": "Hm. Hi. I'd rather keep it short, if that's okay.",
        "extremely": "...Hi. Sorry, I'm not much for talking right now.",
    },
    "organized": {
        "a bit": "Let me just make a note of that so I don't forget.",
        "quite": "Good, so first this, then that. That works.",
        "very": "I've already sorted out the steps; we only need to follow them.",
        "extremely": "Everything is listed and in order. One thing at a time, exactly as planned.",
    },
    "disorganized": {
        "a bit": "Wait, where did I put that? Never mind, it'll turn up.",
        "quite": "Oh, was that today? I lose track, honestly.",
        "very": "I started three things and finished none, but it's fine, really!",
        "extremely": "Plans? I had some somewhere. Let's just see what happens!",
    },
    "curious": {
        "a bit": "Huh, that's interesting. How does that work?",
        "quite": "Really? Tell me more, I'd like to understand that.",
        "very": "Wait, why is that? I need to know everything about this!",
        "extremely": "Oh, that's fascinating! What if we tried it a completely different way?",
    },
    "conventional": {
        "a bit": "I usually stick with what I know works.",
        "quite": "Why change it? The usual way has always been fine.",
        "very": "No, let's do it the proper way, the way it's always been done.",
        "extremely": "I don't care for new ideas. The old way is the right way.",
    },
    "warm": {
        "a bit": "That's kind of you. Thank you.",
        "quite": "Oh, I'm so glad you're here. How are you, really?",
        "very": "Come here, it's lovely to see you. You matter a lot to me.",
        "extremely": "Oh, my dear, I've missed you so much! You're always welcome with me.",
    },
    "direct": {
        "a bit": "To be honest, I see it a little differently.",
        "quite": "Let's not dance around it: that won't work.",
        "very": "No. Say what you mean and I'll do the same.",
        "extremely": "Straight answer: no. Next question.",
    },
}


@dataclass(frozen=True)
class CompiledPersonality:
    """Everything the traits drive, re-derived from the persona's pre-trait base values."""

    name: str
    personality: str
    traits: tuple[Trait, ...]
    base_rates: dict[str, float] = field(default_factory=dict)
    base_chat_probability: float = 0.5

    # -- prompt text --
    @property
    def temperament_sentence(self) -> str:
        """"By temperament, Ludwig is very curious and a bit disorganized." ("" when silent)."""
        if not self.traits:
            return ""
        return f"By temperament, {self.name} is {_join([t.phrase for t in self.traits])}."

    @property
    def personality_text(self) -> str:
        """Free-text personality plus the temperament sentence (conversation, appraisals, poignancy)."""
        sentence = self.temperament_sentence
        return f"{self.personality.strip()} {sentence}".strip()

    @property
    def adjectives(self) -> str:
        """Bare pole adjectives for planning prompts, e.g. "curious, disorganized"."""
        return ", ".join(t.pole for t in self.traits)

    @property
    def traits_string(self) -> str:
        return ", ".join(t.phrase for t in self.traits)

    @property
    def appraisal_rule(self) -> str:
        return APPRAISAL_RULE

    def strongest(self, n: int = 2) -> list[Trait]:
        """The n strongest traits; ties keep the author's order."""
        return sorted(self.traits, key=lambda t: -t.g)[:n]

    def voice_lines(self) -> list[str]:
        """Exemplar lines of the two strongest traits: tone to match, never words to copy."""
        return [VOICE_EXEMPLARS[t.pole][t.grade] for t in self.strongest(2)]

    def trait(self, axis: str) -> Trait | None:
        return next((t for t in self.traits if t.axis == axis), None)

    def axis_values(self) -> dict[str, float]:
        return trait_axis_values(self.traits)

    # -- simulation parameters --
    @property
    def need_rates(self) -> dict[str, float]:
        """Eq. 2 applied to the base needs profile, clamped to [0.005, 0.08] per game-hour."""
        rates = dict(self.base_rates)
        for t in self.traits:
            need = NEED_PRESSED_BY_AXIS.get(t.axis)
            if need is None:
                continue
            sooner = AXES[t.axis][0] == t.pole
            factor = 1 + PRESS_SOONER_SLOPE * t.g if sooner else 1 - PRESS_LATER_SLOPE * t.g
            rates[need] = rates[need] * factor
        return {n: min(RATE_MAX, max(RATE_MIN, r)) for n, r in rates.items()}

    @property
    def chat_probability(self) -> float:
        return chat_probability(self.base_chat_probability, self.trait("sociability"))

    def scale_relationship_delta(self, delta: float) -> float:
        """Warmth scaling of a sentiment or trust delta (III-A4, III-A6)."""
        return scale_by_warmth(delta, self.trait("warmth"))


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def chat_probability(p: float, sociability: Trait | None) -> float:
    """Chance of starting a conversation after temperament (III-A4)."""
    if sociability is None:
        return p
    if sociability.pole == "introverted":
        return max(p * (1 - INTROVERT_CHAT_SLOPE * sociability.g), min(CHAT_FLOOR_CAP, p))
    return min(1.0, p * (1 + EXTRAVERT_CHAT_SLOPE * sociability.g))


def scale_by_warmth(delta: float, warmth: Trait | None) -> float:
    if warmth is None or delta == 0:
        return delta
    if warmth.pole == "warm":
        return delta * (1 + WARM_POSITIVE_SLOPE * warmth.g) if delta > 0 else delta * (1 - WARM_NEGATIVE_SLOPE * warmth.g)
    return delta * (1 - DIRECT_POSITIVE_SLOPE * warmth.g) if delta > 0 else delta


def compile_personality(persona: Persona, traits_override: str | None = None) -> CompiledPersonality:
    """Compile a persona's traits (or an edited traits string) from its pre-trait base values."""
    text = persona.traits if traits_override is None else traits_override
    try:
        traits = parse_traits(text)
    except ValueError as e:
        raise GarpError(f"persona {persona.name}: field 'traits': {e}") from None
    return CompiledPersonality(
        name=persona.name,
        personality=persona.personality,
        traits=traits,
        base_rates=persona.needs_profile.rates(),
        base_chat_probability=persona.chat_probability,
    )


# --- nine-stop sliders (III-A4 live editing) --------------------------------------------

def trait_axis_values(traits: str | tuple[Trait, ...]) -> dict[str, float]:
    """Signed slider value per axis: +g for the first pole, -g for the second, 0 if silent."""
    parsed = parse_traits(traits) if isinstance(traits, str) else traits
    values = {axis: 0.0 for axis in AXES}
    for t in parsed:
        values[t.axis] = t.signed
    return values


def traits_from_axis_values(values: dict[str, float]) -> str:
    """Turn slider values into a traits string, strongest first (ties in axis order).

    Raises GarpError on an unknown axis or a value that is not one of the nine stops.
    """
    grade_by_g = {g: w for w, g in GRADES.items()}
    traits: list[tuple[float, int, str]] = []
    for axis, value in values.items():
        if axis not in AXES:
            raise GarpError(f"trait slider '{axis}': unknown axis; allowed: {', '.join(AXES)}")
        stop = next((s for s in SLIDER_STOPS if abs(s - float(value)) < 1e-6), None)
        if stop is None:
            raise GarpError(f"trait slider '{axis}': value {value} is not a stop; allowed: "
                            + ", ".join(f"{s:g}" for s in SLIDER_STOPS))
        if stop == 0:
            continue
        pole = AXES[axis][0] if stop > 0 else AXES[axis][1]
        traits.append((abs(stop), list(AXES).index(axis), f"{grade_by_g[abs(stop)]} {pole}"))
    traits.sort(key=lambda x: (-x[0], x[1]))
    return ", ".join(phrase for _, _, phrase in traits)


def with_axis(traits: str, axis: str, value: float) -> str:
    """The traits string after moving one slider (what Simulation.set_trait needs)."""
    values = trait_axis_values(traits)
    if axis not in AXES:
        raise GarpError(f"trait slider '{axis}': unknown axis; allowed: {', '.join(AXES)}")
    values[axis] = value
    return traits_from_axis_values(values)


__all__ = [
    "APPRAISAL_RULE", "VOICE_EXEMPLARS", "CompiledPersonality", "chat_probability",
    "compile_personality", "scale_by_warmth", "trait_axis_values", "traits_from_axis_values",
    "with_axis", "NEED_NAMES",
]
