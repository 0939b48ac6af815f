"""A scripted OpenAI-compatible chat endpoint on 127.0.0.1 (stdlib http.server in a thread)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: responder(request body, choice number across the whole server's life) -> message dict
Responder = Callable[[dict[str, Any], int], dict[str, Any]]


class StubOpenAI:
    def __init__(self, responder: Responder, *, max_n: int | None = None, fail_first: int = 0) -> None:
        self.responder, self.max_n, self.fail_left = responder, max_n, fail_first
        self.requests: list[dict[str, Any]] = []
        self.choices_served = 0
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _reply(self, code: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                self._reply(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with stub.lock:
                    stub.requests.append(body)
                    if stub.fail_left > 0:
                        stub.fail_left -= 1
                        self._reply(503, {"error": {"message": "warming up"}})
                        return
                    n = body.get("n", 1) if stub.max_n is None else min(body.get("n", 1), stub.max_n)
                    choices = []
                    for i in range(n):
                        message = {"role": "assistant", **stub.responder(body, stub.choices_served)}
                        stub.choices_served += 1
                        choices.append({"index": i, "message": message, "finish_reason": "stop"})
                self._reply(200, {"id": "chatcmpl-stub", "object": "chat.completion", "model": body.get("model"),
                                  "choices": choices, "usage": {"prompt_tokens": 1, "completion_tokens": 1}})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> StubOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
