"""What keeps one client from stalling the server: a cap on a request's
body, read before the application sees it, and a cap on the searches
running at once, refused rather than queued."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

from fastapi import HTTPException

from .settings import MAX_BODY


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413
    before the application sees it, whether its length is declared or the
    body comes in chunks (at most ``limit`` bytes are ever held)."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(send)
        held, size = [], 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                return await self._refuse(send)
            if not message.get("more_body"):
                break

        async def replay():
            return held.pop(0) if held else await receive()

        return await self.app(scope, replay, send)

    async def _refuse(self, send):
        body = json.dumps(
            {"detail": f"request body over {self.limit:,} bytes: expected a state, a method and at most 500 moves"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


class Gate:
    """At most ``limit`` searches at once; more are refused at once rather
    than queued, so one user cannot stall the server."""

    def __init__(self, limit: int):
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)

    @contextmanager
    def slot(self):
        if not self._slots.acquire(blocking=False):
            raise HTTPException(503, f"the server is busy ({self.limit} searches running): try again in a moment")
        try:
            yield
        finally:
            self._slots.release()
