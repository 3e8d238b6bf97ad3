"""A scripted OpenAI-compatible chat endpoint on loopback, for driving the LLM agents in tests.

``FakeLLM(policy)`` serves ``POST /v1/chat/completions``; ``policy(request_body)`` returns a
reply: ``{"content": str}``, ``{"tool_calls": [(name, arguments_json), ...]}``, or
``{"status": 500}`` for an error answer (the client retries 429 and 5xx, not 401). Every
request body is kept in ``requests``. ``GET /v1/models`` lists ``models`` (the OpenAI API's
model list, https://platform.openai.com/docs/api-reference/models/list) and is counted in
``model_lists``; with ``api_key`` every request must bear it (``Authorization: Bearer``) or is
answered 401 as OpenAI answers a wrong key.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeLLM:
    def __init__(self, policy, delay: float = 0.0, api_key: str | None = None, models=("fake",)) -> None:
        self.policy = policy
        self.delay = delay
        self.api_key = api_key
        self.models = list(models)
        self.requests: list[dict] = []
        self.model_lists = 0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def _refused(self) -> bool:
                if fake.api_key is None or self.headers.get("Authorization") == f"Bearer {fake.api_key}":
                    return False
                self._send(
                    401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
                )
                return True

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self._refused():
                    return
                if self.path.rstrip("/") != "/v1/models":
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                with fake._lock:
                    fake.model_lists += 1
                models = [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in fake.models]
                self._send(200, {"object": "list", "data": models})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                if self._refused():
                    return
                with fake._lock:
                    fake.requests.append(body)
                    reply = fake.policy(body)
                if fake.delay:
                    time.sleep(fake.delay)
                status = reply.get("status", 200)
                if status != 200:
                    payload = {"error": {"message": "scripted failure", "type": "server_error"}}
                else:
                    payload = _completion(body, reply)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after-ms", "10")
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _completion(body: dict, reply: dict) -> dict:
    message: dict = {"role": "assistant", "content": reply.get("content")}
    if reply.get("tool_calls"):
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": arguments}}
            for i, (name, arguments) in enumerate(reply["tool_calls"])
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


def last_user_text(body: dict) -> str:
    """The latest user or tool message the agent sent."""
    for message in reversed(body["messages"]):
        if message["role"] in ("user", "tool"):
            return message.get("content") or ""
    return ""
