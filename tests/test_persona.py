"""Persona files: the shipped cast loads; bad files give one message naming file and field."""

import json

import pytest

from garp.errors import GarpError
from garp.mind.persona import (GRADES, Persona, load_persona, load_personas, parse_traits, persona_schema)
from garp.paths import PERSONAS, SCHEMAS

WORKPLACES = {"Hobbs Cafe", "Oak Hill School", "Town Library", "Corner Shop", "Town Office"}


def test_shipped_cast_loads_and_is_varied():
    cast = load_personas(PERSONAS)
    assert len(cast) >= 20
    assert len({p.personality for p in cast.values()}) == len(cast)
    assert len({p.age for p in cast.values()}) >= 15
    for p in cast.values():
        assert p.home
        assert p.workplace is None or p.workplace in WORKPLACES
        for r in p.relationships:
            assert r.name in cast, f"{p.name} knows unknown {r.name}"
    assert sum(1 for p in cast.values() for m in p.seed_memories if m.condition) >= 5
    assert cast["Ludwig"].traits == "very curious, a bit disorganized"
    assert cast["Ludwig"].home == "Ludwig's House"
    assert cast["Ren"].home == "Ren's House" and cast["Mika"].home == "Mika's House"


def test_committed_schema_is_generated_from_model():
    committed = json.loads((SCHEMAS / "persona.schema.json").read_text())
    assert committed == json.loads(json.dumps(persona_schema()))
    assert "traits" in committed["properties"] and "$schema" in committed["properties"]


def _write(tmp_path, **changes):
    data = json.loads((PERSONAS / "ludwig.json").read_text())
    data.update(changes)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("traits, words", [
    ("very extraverted, quite introverted", ["sociability", "extraverted or introverted"]),
    ("super curious", ["a bit, quite, very, extremely"]),
    ("very grumpy", ["extraverted, introverted", "warm, direct"]),
])
def test_bad_traits_name_file_field_and_allowed(tmp_path, traits, words):
    with pytest.raises(GarpError) as e:
        load_persona(_write(tmp_path, traits=traits))
    msg = str(e.value)
    assert "bad.json" in msg and "traits" in msg
    for w in words:
        assert w in msg
    assert "\n" not in msg


def test_bad_fields_give_one_message(tmp_path):
    with pytest.raises(GarpError) as e:
        load_persona(_write(tmp_path, age=-3))
    assert "bad.json" in str(e.value) and "'age'" in str(e.value)
    with pytest.raises(GarpError) as e:
        load_persona(_write(tmp_path, favourite_colour="blue"))
    assert "favourite_colour" in str(e.value)
    with pytest.raises(GarpError) as e:
        load_persona(_write(tmp_path, emotional_baseline={"label": "ecstatic"}))
    assert "emotional_baseline.label" in str(e.value) and "calm" in str(e.value)
    bad = tmp_path / "broken.json"
    bad.write_text("{ not json")
    with pytest.raises(GarpError, match="broken.json.*line 1"):
        load_persona(bad)
    with pytest.raises(GarpError, match="missing.json: persona file not found"):
        load_persona(tmp_path / "missing.json")


def test_duplicate_names_rejected(tmp_path):
    text = (PERSONAS / "ludwig.json").read_text()
    (tmp_path / "a.json").write_text(text)
    (tmp_path / "b.json").write_text(text)
    with pytest.raises(GarpError, match="b.json.*already used"):
        load_personas(tmp_path)


def test_parse_traits_grades_and_silence():
    assert parse_traits("") == ()
    ts = parse_traits("Extremely warm,  a bit organized")
    assert [(t.pole, t.g) for t in ts] == [("warm", 1.0), ("organized", 0.25)]
    assert set(GRADES.values()) == {0.25, 0.5, 0.75, 1.0}
    ts = parse_traits("very extroverted, quite organised")  # common spellings read as the poles
    assert [(t.axis, t.pole) for t in ts] == [("sociability", "extraverted"), ("order", "organized")]
    p = Persona(name="X", age=30, personality="p", home="Somewhere")
    assert p.parsed_traits == () and p.needs_profile.hunger == 0.03 and p.chat_probability == 0.5


def test_homes_and_workplaces_are_places_on_the_town_map():
    import xml.etree.ElementTree as ET
    from garp.paths import MAPS
    names = {el.get("name") for el in ET.parse(MAPS / "town.tmx").iter("object")}
    for p in load_personas(PERSONAS).values():
        assert p.home in names, f"{p.name}'s home {p.home!r} is not on the map"
        assert p.workplace is None or p.workplace in names, p.workplace
