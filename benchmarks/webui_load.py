"""Load test of the live page: many SSE viewers on loopback while the demo game plays.

    python benchmarks/webui_load.py [--viewers 50] [--seconds 40] [--demo-speed 3]

Starts ``hivecam serve --source demo`` in a subprocess (its own data folder), opens
``--viewers`` Server-Sent-Event streams, and reports: whether every viewer received every
update (same message ids as the server sent), event latency (from the referee producing
an event to a viewer parsing it), and the server's CPU (share of one core) and resident
memory. The server does the whole job meanwhile: rendering and recognising the camera
frames, refereeing, logging to SQLite.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "webui"))

from webhelpers import start_server  # noqa: E402

TICKS = 100  # os.sysconf("SC_CLK_TCK") on Linux


class Viewer(threading.Thread):
    """One SSE client: records each update's id and latency."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.ids: list[int] = []
        self.latencies: list[float] = []
        self.error: str | None = None

    def run(self) -> None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            message: dict[str, str] = {}
            while not self.stop.is_set():
                line = response.fp.readline().decode()
                if not line:
                    self.error = "stream closed"
                    return
                line = line.rstrip("\n")
                if line:
                    field, _, value = line.partition(": ")
                    message[field] = value
                    continue
                if message.get("event") == "update":
                    self.latencies.append(time.time() - json.loads(message["data"])["made"])
                    self.ids.append(int(message["id"]))
                message = {}
            connection.close()
        except OSError as exc:
            self.error = str(exc)


def proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds used, resident KiB) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICKS
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return cpu, rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--demo-speed", default="3")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        process, base = start_server(Path(data), "--source", "demo", "--demo-speed", args.demo_speed)
        port = int(base.rsplit(":", 1)[1])
        try:
            stop = threading.Event()
            viewers = [Viewer(port, stop) for _ in range(args.viewers)]
            for viewer in viewers:
                viewer.start()
            time.sleep(2.0)  # all connected
            cpu0, _ = proc_stats(process.pid)
            start, peak = time.monotonic(), 0
            while time.monotonic() - start < args.seconds:
                time.sleep(0.5)
                peak = max(peak, proc_stats(process.pid)[1])
            cpu1, rss = proc_stats(process.pid)
            wall = time.monotonic() - start
            time.sleep(1.0)  # let the last messages arrive
            stop.set()
        finally:
            process.terminate()
            process.wait(10)
    # a viewer's first message is the state snapshot: it needs the updates published from then on
    joined = max((v.ids[0] for v in viewers if v.ids), default=0)
    every = sorted(i for i in set().union(*(v.ids for v in viewers)) if i >= joined)
    complete = sum(1 for v in viewers if [i for i in v.ids if i >= joined] == every
                   and v.error in (None, "stream closed"))
    latencies = sorted(x for v in viewers for x in v.latencies)
    print(f"viewers: {args.viewers}, updates sent once all were connected: {len(every)}, "
          f"viewers that got every one: {complete}")
    if latencies:
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(f"event latency: median {statistics.median(latencies) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {latencies[-1] * 1000:.1f} ms ({len(latencies)} deliveries)")
    print(f"server CPU: {100 * (cpu1 - cpu0) / wall:.0f}% of one core over {wall:.0f} s "
          f"(camera rendering + vision + referee + SSE); resident memory: {rss / 1024:.0f} MB "
          f"(peak {peak / 1024:.0f} MB)")
    errors = [v.error for v in viewers if v.error not in (None, "stream closed")]
    if errors:
        print(f"viewer errors: {errors[:3]}")
    return 0 if complete == args.viewers and every else 1


if __name__ == "__main__":
    sys.exit(main())
