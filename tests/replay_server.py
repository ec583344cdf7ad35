"""A real OpenAI-compatible chat-completions server on 127.0.0.1 that replays recordings.

BAML sends HTTP from its Rust runtime, so Python-level HTTP mocks never see it; the llm
path is therefore tested against a real socket. Recordings (tests/fixtures/llm_replay/*.json)
hold the full tagged row a request must contain and the chat-completion body a model
returned for it. Faults are scripted per recording so a test can make the first N answers
fenced, wrapped in prose, truncated, an HTTP 500 or too slow, and then watch the
extractor retry, record the failure or reuse its cache. Every request is counted.
``answer_all_with`` answers every request, matched or not, with one fault: a server that
echoes the credentials it received in a 401 body, or one that sends a long HTML page.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURE_DIR = Path(__file__).parent / "fixtures" / "llm_replay"
ROOT = Path(__file__).resolve().parent.parent
BAML_CLI = ROOT / ".venv" / "bin" / "baml-cli"


def ensure_baml_client() -> Path:
    """Generate baml_client from baml_src when missing or older than the .baml sources
    (`make baml` does it too; this keeps a bare pytest run honest)."""
    client = ROOT / "baml_client" / "__init__.py"
    sources = list((ROOT / "baml_src").glob("*.baml"))
    stale = not client.exists() or client.stat().st_mtime < max(p.stat().st_mtime for p in sources)
    if stale:
        subprocess.run(
            [str(BAML_CLI), "generate", "--from", "baml_src"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    return client.parent


# Faults a script may contain, applied to the recorded answer of the matching request.
FAULTS = (
    "ok",  # the recorded answer as is
    "fenced",  # recorded JSON inside a ```json fence, with trailing commas
    "prose",  # recorded JSON with chatty sentences before and after it
    "truncated",  # first part of the answer only, finish_reason "length"
    "garbage",  # prose with no JSON at all (an unparseable answer)
    "missing_field",  # the first item lacks its "role" (a lenient parser would drop it)
    "http500",  # HTTP 500 with an error body
    "slow",  # the recorded answer, after `slow_seconds`
    "echo_auth401",  # HTTP 401 whose JSON body repeats the Authorization header received
    "long_error",  # HTTP 500 with a long HTML page (not JSON) as its body
)
LONG_ERROR_HEAD = "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"


@dataclass
class Recording:
    name: str
    tagged_row: str
    response: dict[str, Any]

    @property
    def content(self) -> str:
        return self.response["choices"][0]["message"]["content"]


def load_recordings(directory: Path = FIXTURE_DIR) -> dict[str, Recording]:
    recordings: dict[str, Recording] = {}
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        recordings[path.stem] = Recording(path.stem, data["tagged_row"], data["response"])
    return recordings


def _prompt_text(body: dict[str, Any]) -> str:
    """All text of the request's messages, whatever the content shape BAML chose."""
    parts: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(p.get("text", "") for p in content if isinstance(p, dict))
    return "\n".join(parts)


def _with_trailing_commas(text: str) -> str:
    return re.sub(r"(\}|\]|\"|\d|true|false|null)(\s*\n\s*[\}\]])", r"\1,\2", text)


@dataclass
class ReplayState:
    recordings: dict[str, Recording]
    scripts: dict[str, list[str]] = field(default_factory=dict)
    calls: Counter = field(default_factory=Counter)
    requests: list[dict[str, Any]] = field(default_factory=list)
    slow_seconds: float = 3.0
    answer_all_with: str | None = None  # a fault for every request, recording or not
    echo_padding: int = 0  # filler characters before the echoed header (echo_auth401)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def match(self, prompt: str) -> Recording | None:
        hits = [r for r in self.recordings.values() if r.tagged_row in prompt]
        # The longest tagged row wins, should one recording's row contain another's.
        return max(hits, key=lambda r: len(r.tagged_row)) if hits else None

    def next_fault(self, name: str) -> str:
        with self.lock:
            self.calls[name] += 1
            queue = self.scripts.get(name)
            return queue.pop(0) if queue else "ok"


def _answer(recording: Recording, fault: str) -> dict[str, Any]:
    response = json.loads(json.dumps(recording.response))
    choice = response["choices"][0]
    content = choice["message"]["content"]
    if fault == "fenced":
        bare = re.sub(r"^```(?:json)?\s*|\s*```$", "", content.strip())
        content = "```json\n" + _with_trailing_commas(bare) + "\n```"
    elif fault == "prose":
        content = (
            "Sure. Here are the concepts I found in this recommendation row:\n\n"
            + content
            + "\n\nLet me know if you need the SNOMED CT grounding as well."
        )
    elif fault == "truncated":
        content = content[: max(1, len(content) // 2)]
        choice["finish_reason"] = "length"
    elif fault == "garbage":
        content = "I am unable to identify structured concepts in this row."
    elif fault == "missing_field":
        content = re.sub(r'"role":\s*"[^"]*",\s*', "", content, count=1)
    choice["message"]["content"] = content
    return response


class _Handler(BaseHTTPRequestHandler):
    server: _ReplayHTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        return  # keep test output clean

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)

    def _send_fault(self, fault: str) -> None:
        """The faults that need no recording: an echoing 401 or a long non-JSON 500."""
        state = self.server.state
        if fault == "echo_auth401":
            received = self.headers.get("Authorization") or "(none)"
            message = "x" * state.echo_padding + f"Incorrect API key provided: {received}"
            self._send_json(401, {"error": {"message": message, "type": "invalid_request_error"}})
            return
        if fault == "long_error":
            page = LONG_ERROR_HEAD + "<p>upstream sent no valid answer</p>" * 400 + "</body></html>"
            data = page.encode("utf-8")
            self.send_response(500)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        raise ValueError(f"fault {fault!r} needs a recording")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        with state.lock:
            state.requests.append(
                {
                    "path": self.path,
                    "model": body.get("model"),
                    "authorization": self.headers.get("Authorization"),
                    "body": body,
                }
            )
        if not self.path.endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})
            return
        if state.answer_all_with is not None:
            with state.lock:
                state.calls["<all>"] += 1
            self._send_fault(state.answer_all_with)
            return
        recording = state.match(_prompt_text(body))
        if recording is None:
            with state.lock:
                state.calls["<unmatched>"] += 1
            self._send_json(404, {"error": {"message": "no recording matches this prompt"}})
            return
        fault = state.next_fault(recording.name)
        with state.lock:
            state.in_flight += 1
            state.max_in_flight = max(state.max_in_flight, state.in_flight)
        try:
            if fault == "http500":
                self._send_json(500, {"error": {"message": "replay: scripted internal error"}})
                return
            if fault in ("echo_auth401", "long_error"):
                self._send_fault(fault)
                return
            if fault == "slow":
                time.sleep(state.slow_seconds)
            response = _answer(recording, fault)
            response["model"] = body.get("model", response.get("model"))
            self._send_json(200, response)
        finally:
            with state.lock:
                state.in_flight -= 1


class _ReplayHTTPServer(ThreadingHTTPServer):
    daemon_threads = True  # a sleeping "slow" handler must not block shutdown
    state: ReplayState


class ReplayServer:
    """Start with ``with ReplayServer() as server:``; ``server.base_url`` ends in /v1."""

    def __init__(self, recordings: dict[str, Recording] | None = None) -> None:
        self.state = ReplayState(recordings if recordings is not None else load_recordings())
        self._httpd = _ReplayHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.state = self.state
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, recording: str, faults: list[str]) -> None:
        """The next answers for `recording`, in order; "ok" after the script runs out."""
        unknown = [f for f in faults if f not in FAULTS]
        if unknown or recording not in self.state.recordings:
            raise ValueError(f"unknown fault {unknown} or recording {recording!r}")
        with self.state.lock:
            self.state.scripts[recording] = list(faults)

    def calls(self, recording: str | None = None) -> int:
        with self.state.lock:
            if recording is None:
                return sum(self.state.calls.values())
            return self.state.calls[recording]

    def reset(self) -> None:
        with self.state.lock:
            self.state.calls.clear()
            self.state.scripts.clear()
            self.state.requests.clear()
            self.state.max_in_flight = 0
            self.state.answer_all_with = None
            self.state.echo_padding = 0

    def start(self) -> ReplayServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
