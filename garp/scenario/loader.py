"""Load a scenario by name or path, with one clear `GarpError` for a bad file."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from garp import paths
from garp.errors import GarpError, describe_validation_error
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
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise GarpError(f"{path}: not valid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as err:
        raise GarpError(describe_validation_error(path, err)) from None
    if scenario.name != path.stem:
        raise GarpError(f"{path}: field 'name' is '{scenario.name}' but must equal the file name '{path.stem}'")
    return scenario


def write_schema(target: Path | None = None) -> Path:
    target = target or paths.SCHEMAS / "scenario.schema.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(scenario_json_schema(), indent=2) + "\n", encoding="utf-8")
    return target


if __name__ == "__main__":
    print(write_schema())
