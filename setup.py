"""Packs the game's data folders into the wheel as `garp/data/` (see garp/paths.py).

Everything else is declared in pyproject.toml. An editable install reads the folders
in place, so they are copied only for a real build (`pip install .`, `pip wheel .`).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_DIRS = ("assets", "personas", "scenarios", "schemas")
MODEL_FILES = ("models/registry.json",)  # downloaded GGUF files never go into a wheel
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.sqlite-wal", "*.sqlite-shm")


class BuildWithData(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "garp" / "data"
        for name in DATA_DIRS:
            shutil.copytree(name, target / name, ignore=SKIP, dirs_exist_ok=True)
        for name in MODEL_FILES:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(name, target / name)


setup(cmdclass={"build_py": BuildWithData})
