"""The SSE fan-out: every viewer gets every message; a stuck viewer is told to resync."""

from __future__ import annotations

import json

from webui.hub import QUEUE_SIZE, Hub


def _data(text: str) -> dict:
    return json.loads(text.split("data: ", 1)[1])


def test_every_viewer_gets_every_message_in_order():
    hub = Hub()
    viewers = [hub.subscribe() for _ in range(3)]
    for n in range(5):
        hub.publish("update", {"n": n})
    for viewer in viewers:
        received = [_data(viewer.queue.get_nowait())["n"] for _ in range(5)]
        assert received == [0, 1, 2, 3, 4]


def test_a_stuck_viewer_gets_resync_and_does_not_block_others():
    hub = Hub()
    stuck, live = hub.subscribe(), hub.subscribe()
    for n in range(QUEUE_SIZE + 5):
        hub.publish("update", {"n": n})
        if n % 10 == 0:
            while not live.queue.empty():
                live.queue.get_nowait()
    assert stuck.queue.qsize() <= QUEUE_SIZE
    texts = [stuck.queue.get_nowait() for _ in range(stuck.queue.qsize())]
    assert any("event: resync" in t for t in texts)


def test_stream_starts_with_the_state_and_unsubscribes_when_closed():
    hub = Hub()
    viewer = hub.subscribe()
    stream = viewer.stream("event: state\ndata: {}\n\n")
    assert next(stream).startswith("event: state")
    hub.publish("update", {"n": 1})
    assert _data(next(stream)) == {"n": 1}
    stream.close()
    assert hub.viewers == 0
