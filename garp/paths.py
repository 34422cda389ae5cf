"""Where the project's files live.

In a checkout (or an editable install) everything is found beside the `garp` package.
A wheel (`pip install .`) carries the same folders under `garp/data/`. `GARP_DATA_DIR`
points elsewhere explicitly. Runs are written under the checkout, or for an installed
package under `GARP_RUNS_DIR` (default `./runs` in the current directory).
"""

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent


def _data_root() -> Path:
    explicit = os.environ.get("GARP_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser().resolve()
    if (REPO_ROOT / "assets").is_dir() and (REPO_ROOT / "scenarios").is_dir():
        return REPO_ROOT  # a checkout
    return PACKAGE_DIR / "data"  # an installed wheel


DATA_ROOT = _data_root()
IN_CHECKOUT = DATA_ROOT == REPO_ROOT
ASSETS = DATA_ROOT / "assets"
MAPS = ASSETS / "maps"
PERSONAS = DATA_ROOT / "personas"
SCENARIOS = DATA_ROOT / "scenarios"
MODELS = DATA_ROOT / "models"
SCHEMAS = DATA_ROOT / "schemas"
RUNS = Path(os.environ.get("GARP_RUNS_DIR") or (REPO_ROOT / "runs" if IN_CHECKOUT else Path.cwd() / "runs"))
