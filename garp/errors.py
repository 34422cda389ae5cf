"""User-facing errors.

A `GarpError` message says which file, field or setting is wrong, what is wrong and
what is allowed. The CLI prints it as one line and exits non-zero, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError


class GarpError(Exception):
    """An error the user can fix: bad input, missing model, unreachable server."""


def describe_validation_error(source: str | Path, err: ValidationError) -> str:
    """Turn a pydantic error into one message naming the file, the field and what is allowed."""
    parts = []
    for e in err.errors():
        field = ".".join(str(p) for p in e["loc"]) or "(top level)"
        got = e.get("input")
        shown = f" (got {got!r})" if got is not None and not isinstance(got, dict) else ""
        parts.append(f"field '{field}': {e['msg']}{shown}")
    return f"{source}: " + "; ".join(parts)
