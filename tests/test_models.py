"""Model registry, resolution, GGUF checks and `pull` (offline: file:// URLs)."""

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from garp import paths
from garp.engine import models
from garp.errors import GarpError


def test_registry_validates_and_schema_is_published():
    reg = models.load_registry()
    names = [m.name for m in reg.models]
    assert "smollm2-135m-instruct" in names and "llama-3.2-3b-instruct" in names
    llama = reg.get("llama-3.2-3b-instruct")
    assert llama.url.startswith("https://huggingface.co/") and llama.profile.chat_format == "llama-3"
    published = json.loads((paths.SCHEMAS / "model-registry.schema.json").read_text())
    assert published == models.Registry.model_json_schema()


def test_bundled_model_is_default_when_nothing_better(bundled_model_spec):
    spec = models.resolve_model(None)
    if models.entry_path(models.load_registry().get("llama-3.2-3b-instruct")) is None:
        assert spec.name == "smollm2-135m-instruct-q4_0" and spec.path == bundled_model_spec.path
    assert bundled_model_spec.path.name == "SmolLM2-135M-Instruct.Q4_0.gguf"
    assert bundled_model_spec.profile.chat_format == "chatml"
    assert len(bundled_model_spec.sha256) == 64


def _registry_copy(tmp_path: Path) -> Path:
    d = tmp_path / "models"
    d.mkdir()
    (d / "registry.json").write_text(models.registry_path().read_text())
    return d


def test_requantized_variant_is_made_once_and_named_by_its_source(tmp_path, bundled_model_spec):
    """`--model smollm2-135m-instruct-q4_0` needs no download: the bundled file is requantized into
    models/ on first use, and its identity (what recordings are keyed by) comes from the source file."""
    import llama_cpp

    d = _registry_copy(tmp_path)
    spec = models.resolve_model("smollm2-135m-instruct-q4_0", models_dir=d)
    assert spec.path == d / "SmolLM2-135M-Instruct.Q4_0.gguf" and spec.path.read_bytes()[:4] == b"GGUF"
    assert [p.name for p in d.iterdir() if p.suffix == ".part"] == []
    made = spec.path.stat().st_mtime_ns
    again = models.resolve_model("smollm2-135m-instruct-q4_0", models_dir=d)
    source = models.resolve_model("smollm2-135m-instruct")
    assert again.path.stat().st_mtime_ns == made and again.sha256 == spec.sha256 != source.sha256
    assert source.path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert spec.profile == bundled_model_spec.profile
    llm = llama_cpp.Llama(model_path=str(spec.path), vocab_only=True, verbose=False)
    assert llm.metadata["general.file_type"] == str(llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0)


def test_requantizing_into_an_unwritable_place_names_the_file(tmp_path):
    d = _registry_copy(tmp_path)
    (d / "SmolLM2-135M-Instruct.Q4_0.gguf").mkdir()  # a directory where the file should go
    with pytest.raises(GarpError, match="cannot write the requantized model .*SmolLM2-135M-Instruct.Q4_0.gguf"):
        models.resolve_model("smollm2-135m-instruct-q4_0", models_dir=d)
    assert [p.name for p in d.iterdir() if p.suffix == ".part"] == []


def test_default_falls_back_to_the_bundled_file_where_the_variant_cannot_be_made(tmp_path, caplog):
    d = _registry_copy(tmp_path)
    (d / "SmolLM2-135M-Instruct.Q4_0.gguf").mkdir()
    with caplog.at_level("WARNING", logger="garp.engine.models"):
        spec = models.resolve_model(None, models_dir=d)
    assert spec.name == "smollm2-135m-instruct" and spec.path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "cannot write the requantized model" in caplog.text and "using smollm2-135m-instruct instead" in caplog.text


def test_path_to_known_file_keeps_profile_and_identity(bundled_model_spec):
    """The default's file given by path (models/...Q4_0.gguf) is the registered variant, so a recording
    made with it by name replays; so is the bundled source by its path."""
    spec = models.resolve_model(str(bundled_model_spec.path))
    assert spec.name == "smollm2-135m-instruct-q4_0" and spec.profile == bundled_model_spec.profile
    assert spec.sha256 == bundled_model_spec.sha256
    source = models.resolve_model("smollm2-135m-instruct")
    by_path = models.resolve_model(str(source.path))
    assert by_path.name == "smollm2-135m-instruct" and by_path.sha256 == source.sha256


def test_unknown_name_and_missing_and_corrupt_files(tmp_path):
    with pytest.raises(GarpError, match="unknown model name.*known models: .*smollm2"):
        models.resolve_model("gpt-9")
    with pytest.raises(GarpError, match="file not found"):
        models.resolve_model(str(tmp_path / "nope.gguf"))
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"<html>not a model</html>")
    with pytest.raises(GarpError, match="not a GGUF file"):
        models.resolve_model(str(bad))


def _temp_registry(tmp_path: Path, sha: str | None, url: str) -> Path:
    d = tmp_path / "models"
    d.mkdir()
    entry = {"name": "tiny", "file": "tiny.gguf", "url": url, "sha256": sha, "preference": 5,
             "profile": {"chat_format": "chatml", "n_ctx": 2048, "reasoning_field": False, "n_threads": 1}}
    (d / "registry.json").write_text(json.dumps({"models": [entry]}))
    return d


def _fake_gguf(tmp_path: Path) -> tuple[Path, str]:
    src = tmp_path / "src.gguf"
    src.write_bytes(b"GGUF" + bytes(range(256)) * 2000)
    return src, hashlib.sha256(src.read_bytes()).hexdigest()


def test_pull_from_file_url_checks_sha_and_renames(tmp_path):
    src, sha = _fake_gguf(tmp_path)
    d = _temp_registry(tmp_path, sha, src.as_uri())
    with pytest.raises(GarpError, match="not installed.*garp models pull tiny"):
        models.resolve_model("tiny", models_dir=d)
    out = models.pull("tiny", models_dir=d, progress=None)
    assert out == d / "tiny.gguf" and out.read_bytes() == src.read_bytes()
    assert not (d / "tiny.gguf.part").exists()
    spec = models.resolve_model(None, models_dir=d)
    assert spec.name == "tiny" and spec.sha256 == sha


def test_pull_wrong_hash_leaves_nothing(tmp_path):
    src, _ = _fake_gguf(tmp_path)
    d = _temp_registry(tmp_path, "0" * 64, "file:///nonexistent/x.gguf")
    with pytest.raises(GarpError, match="cannot download"):
        models.pull("tiny", models_dir=d, progress=None)
    with pytest.raises(GarpError, match="does not match"):
        models.pull("tiny", url=src.as_uri(), models_dir=d, progress=None)
    assert not (d / "tiny.gguf").exists() and not (d / "tiny.gguf.part").exists()


def test_pull_rejects_non_gguf_download(tmp_path):
    html = tmp_path / "page.html"
    html.write_text("<html>login required</html>")
    d = _temp_registry(tmp_path, None, html.as_uri())
    with pytest.raises(GarpError, match="not a GGUF file"):
        models.pull("tiny", models_dir=d, progress=None)
    with pytest.raises(GarpError, match="unknown model name"):
        models.pull("nope", models_dir=d, progress=None)


def test_cmd_models_list_marks_default(capsys):
    assert models.cmd_models(SimpleNamespace(models_command="list")) == 0
    out = capsys.readouterr().out
    default = models.default_entry(models.load_registry())
    assert f"* {default.name}" in out and "llama-3.2-3b-instruct" in out


# --- resumable download from 127.0.0.1 ---------------------------------------------------
class _RangeServer:
    """Serves one file on 127.0.0.1 with HTTP Range; can ignore Range or cut the body short."""

    def __init__(self, data: bytes):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.data, self.ranges, self.honour_range, self.cut_at = data, [], True, None
        srv = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                rng = self.headers.get("Range")
                srv.ranges.append(rng)
                start = int(rng.split("=")[1].rstrip("-")) if rng and srv.honour_range else 0
                body = srv.data[start:]
                self.send_response(206 if start else 200)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(srv.data) - 1}/{len(srv.data)}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[:srv.cut_at] if srv.cut_at else body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/tiny.gguf"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def range_server(tmp_path):
    src, sha = _fake_gguf(tmp_path)
    srv = _RangeServer(src.read_bytes())
    yield srv, sha
    srv.close()


def test_pull_over_http_resumes_a_partial_download_with_a_progress_bar(tmp_path, range_server, capsys):
    srv, sha = range_server
    d = _temp_registry(tmp_path, sha, srv.url)
    (d / "tiny.gguf.part").write_bytes(srv.data[:200_000])
    out = models.pull("tiny", models_dir=d, progress=True)
    assert out.read_bytes() == srv.data and srv.ranges == ["bytes=200000-"]
    bar = capsys.readouterr().err
    assert "tiny.gguf" in bar and "100%" in bar  # tqdm's bar, not a hand-made line


def test_pull_broken_connection_keeps_the_part_and_the_next_pull_resumes(tmp_path, range_server):
    srv, sha = range_server
    d = _temp_registry(tmp_path, sha, srv.url)
    srv.cut_at = 300_000
    with pytest.raises(GarpError, match="cannot download.*300000 bytes kept.*again to resume"):
        models.pull("tiny", models_dir=d, progress=None)
    assert (d / "tiny.gguf.part").stat().st_size == 300_000
    srv.cut_at = None
    assert models.pull("tiny", models_dir=d, progress=None).read_bytes() == srv.data
    assert srv.ranges == [None, "bytes=300000-"]


def test_pull_from_a_server_that_ignores_range_starts_again(tmp_path, range_server):
    srv, sha = range_server
    d = _temp_registry(tmp_path, sha, srv.url)
    (d / "tiny.gguf.part").write_bytes(b"junk" * 1000)  # not a prefix of the file: must not survive
    srv.honour_range = False
    assert models.pull("tiny", models_dir=d, progress=None).read_bytes() == srv.data
