"""Where the project's files live. Everything is resolved from the repository root."""

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS = REPO_ROOT / "assets"
MAPS = ASSETS / "maps"
PERSONAS = REPO_ROOT / "personas"
SCENARIOS = REPO_ROOT / "scenarios"
MODELS = REPO_ROOT / "models"
SCHEMAS = REPO_ROOT / "schemas"
RUNS = REPO_ROOT / "runs"
