"""Load a scenario by name or path, with one clear `GarpError` for a bad file."""

from __future__ import annotations

from pathlib import Path


from garp import paths
from garp.datafile import load_model_file, write_json_schema
from garp.errors import GarpError
from garp.scenario.schema import Scenario, scenario_json_schema


def scenario_path(name_or_path: str | Path) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".json" and p.exists():
        return p
    candidate = paths.SCENARIOS / f"{p.stem if p.suffix == '.json' else name_or_path}.json"
    if candidate.exists():
        return candidate
    raise GarpError(
        f"scenario '{name_or_path}': no such file ({candidate}); available: {', '.join(list_scenarios()) or 'none'}"
    )


def list_scenarios() -> list[str]:
    return sorted(p.stem for p in paths.SCENARIOS.glob("*.json"))


def load_scenario(name_or_path: str | Path) -> Scenario:
    path = scenario_path(name_or_path)
    scenario = load_model_file(path, Scenario, "scenario file")
    if scenario.name != path.stem:
        raise GarpError(f"{path}: field 'name' is '{scenario.name}' but must equal the file name '{path.stem}'")
    return scenario


def write_schema(target: Path | None = None) -> Path:
    return write_json_schema(scenario_json_schema(), target or paths.SCHEMAS / "scenario.schema.json")


if __name__ == "__main__":
    print(write_schema())
