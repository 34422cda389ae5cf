"""Reading the project's JSON data files (personas, scenarios, object types, model registry)
through their pydantic models, and publishing those models' JSON Schemas.

Every problem becomes one `GarpError` that names the file and, for a bad value, the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from garp.errors import GarpError, describe_validation_error

M = TypeVar("M", bound=BaseModel)


def read_json_object(path: str | Path, what: str) -> dict[str, Any]:
    """The file's JSON object; `what` names the kind of file in messages ("persona file")."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GarpError(f"{path}: {what} not found") from None
    except OSError as e:
        raise GarpError(f"{path}: cannot read {what} ({e.strerror or e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise GarpError(f"{path}: not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise GarpError(f"{path}: a {what} must hold one JSON object")
    return data


def load_model_file(path: str | Path, model: type[M], what: str) -> M:
    """Read `path` and validate it as `model`."""
    data = read_json_object(path, what)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise GarpError(describe_validation_error(path, e)) from None


def write_json_schema(schema: dict[str, Any], path: str | Path) -> Path:
    """Publish a model's JSON Schema so editors can complete and check data files."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    return path
