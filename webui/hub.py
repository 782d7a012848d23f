"""Fan-out of live messages to every open page (Server-Sent Events).

At most ``MAX_VIEWERS`` are served at once. Each viewer has a bounded queue. A viewer too
slow to keep up is not allowed to slow the others or grow memory: its queue is cleared and
it is sent one ``resync`` instead, after which the page fetches the full state again.
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Any, Iterator

QUEUE_SIZE = 64
KEEPALIVE_SECONDS = 15.0
MAX_VIEWERS = 100  # each open page holds a server thread


class HubFull(RuntimeError):
    """As many viewers as the hub serves are already connected."""


class Subscription:
    """One viewer's stream of messages."""

    def __init__(self, hub: "Hub") -> None:
        self._hub = hub
        self.queue: queue.Queue[str] = queue.Queue(QUEUE_SIZE)

    def stream(self, first: str) -> Iterator[str]:
        """SSE text: ``first``, then every message, with keep-alive comments when idle."""
        try:
            yield first
            while not self._hub.closed:
                try:
                    yield self.queue.get(timeout=KEEPALIVE_SECONDS)
                except queue.Empty:
                    yield ": keep-alive\n\n"
        finally:
            self._hub.unsubscribe(self)


class Hub:
    """Publishes messages to all subscriptions; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: set[Subscription] = set()
        self._sequence = 0
        self.closed = False

    def subscribe(self) -> Subscription:
        """A new viewer's subscription; ``HubFull`` when ``MAX_VIEWERS`` are connected."""
        subscription = Subscription(self)
        with self._lock:
            if len(self._subscribers) >= MAX_VIEWERS:
                raise HubFull(f"{MAX_VIEWERS} pages are open already: close one and reload")
            self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    @property
    def viewers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def publish(self, name: str, data: Any) -> None:
        """Send one SSE message named ``name`` with ``data`` as JSON to every viewer."""
        with self._lock:
            self._sequence += 1
            text = format_message(name, data, self._sequence)
            for subscription in self._subscribers:
                try:
                    subscription.queue.put_nowait(text)
                except queue.Full:
                    _drain(subscription.queue)
                    subscription.queue.put_nowait(format_message("resync", {}, self._sequence))

    def close(self) -> None:
        self.closed = True


def format_message(name: str, data: Any, sequence: int | None = None) -> str:
    """One SSE message (the JSON has no newlines, so it fits one ``data:`` line)."""
    head = f"id: {sequence}\n" if sequence is not None else ""
    return f"{head}event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _drain(q: queue.Queue[str]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return
