"""Plays a few matches and watches them live across a database failover (used by scripts/ha).

    python3 stream_resume.py PLAY_URL WATCH_URL MATCHES SECONDS SIGNAL_FILE OUT_JSON

Creates MATCHES Plump matches on PLAY_URL (a person in seat 0, bots in seats 1 and 2, whose
turns the service plays within each move) and plays seat 0 for SECONDS: legal moves, then the
first of them with If-Match and an Idempotency-Key; a 503 or a network failure is sent again
with the same key. Meanwhile each match is streamed from WATCH_URL
(GET /v1/matches/{id}/stream). A stream that ends or fails is opened again with
`Last-Event-ID` set to the last `id:` received, as an EventSource does; once SIGNAL_FILE appears
(the script creates it as it kills the primary) every stream is also closed once on purpose and
resumed so, during the outage.

At the end, each stream must have received every event of its match from 1 to the match's
version, each exactly once, across all its connections. Writes OUT_JSON with the figures and a
list of problems (empty when all is well).
"""

import http.client
import json
import os
import sys
import threading
import time
import urllib.parse
import uuid


def request(base, method, path, token=None, body=None, headers=None, timeout=10):
    """(status, parsed body or None); status 0 when nothing answered."""
    u = urllib.parse.urlsplit(base)
    h = {"accept": "application/json"}
    if token:
        h["authorization"] = f"Bearer {token}"
    if body is not None:
        h["content-type"] = "application/json"
    h.update(headers or {})
    try:
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
        c.request(method, path, body=None if body is None else json.dumps(body), headers=h)
        r = c.getresponse()
        raw = r.read()
        c.close()
        try:
            return r.status, json.loads(raw) if raw else None
        except ValueError:
            return r.status, None
    except (OSError, http.client.HTTPException):
        return 0, None


class Watch:
    """One match's stream, reconnecting with Last-Event-ID."""

    def __init__(self, base, match_id, token, signal, stop):
        self.base, self.id, self.token, self.signal, self.stop = base, match_id, token, signal, stop
        self.seen = []          # every id received, over all connections, in order
        self.connections = 0
        self.resumed = 0        # connections opened with Last-Event-ID
        self.refused = {}       # status -> count, for openings that did not give a stream
        self.dropped_on_purpose = False
        self.lock = threading.Lock()

    def last(self):
        with self.lock:
            return self.seen[-1] if self.seen else None

    def run(self):
        u = urllib.parse.urlsplit(self.base)
        while not self.stop.is_set():
            last = self.last()
            headers = {"accept": "text/event-stream", "authorization": f"Bearer {self.token}"}
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            try:
                c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
                c.request("GET", f"/v1/matches/{self.id}/stream", headers=headers)
                r = c.getresponse()
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)
                continue
            if r.status != 200:
                self.refused[r.status] = self.refused.get(r.status, 0) + 1
                r.read()
                c.close()
                time.sleep(0.3)
                continue
            self.connections += 1
            if last is not None:
                self.resumed += 1
            try:
                while not self.stop.is_set():
                    if not self.dropped_on_purpose and os.path.exists(self.signal):
                        # The failover is under way: leave and come back with Last-Event-ID.
                        self.dropped_on_purpose = True
                        break
                    line = r.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\r\n")
                    if line.startswith("id:"):
                        with self.lock:
                            self.seen.append(int(line[3:].strip()))
            except (OSError, http.client.HTTPException, ValueError):
                pass
            finally:
                c.close()


def play(base, match_id, token, deadline, stats):
    """Seat 0's moves until the deadline or the match's end."""
    while time.time() < deadline:
        status, body = request(base, "GET", f"/v1/matches/{match_id}/legal-moves?seat=0", token)
        if status != 200:
            stats["retries"] += 1
            time.sleep(0.3)
            continue
        if not body["moves"]:
            if body.get("phase") == "finished":
                return
            time.sleep(0.05)
            continue
        key = str(uuid.uuid4())
        move = {"seat": 0, "move": body["moves"][0]}
        headers = {"If-Match": f'"{body["version"]}"', "Idempotency-Key": key}
        while time.time() < deadline + 30:
            status, answer = request(base, "POST", f"/v1/matches/{match_id}/moves", token, move, headers)
            if status in (0, 503):
                stats["retries"] += 1
                time.sleep(0.3)
                continue
            if status == 200:
                stats["moves"] += 1
                # A person's pace, about four moves a second: the match is still being played
                # when the fault comes, so its stream has events to carry through the failover.
                time.sleep(0.25)
            elif status not in (409, 412):
                stats["odd"].append(status)
            break


def main():
    play_url, watch_url, matches, seconds, signal, out = sys.argv[1:7]
    matches, seconds = int(matches), float(seconds)
    problems = []
    status, body = request(play_url, "POST", "/v1/auth/guest", body={"name": "Watcher"})
    if status != 201:
        json.dump({"problems": [f"no guest token: {status}"]}, open(out, "w"))
        return
    token = body["token"]
    ids = []
    for _ in range(matches):
        status, body = request(play_url, "POST", "/v1/matches", token,
                               {"game": "plump", "seats": [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]})
        if status != 201:
            problems.append(f"a match was not created: {status}")
            continue
        ids.append(body["id"])
    stop = threading.Event()
    watches = [Watch(watch_url, i, token, signal, stop) for i in ids]
    threads = [threading.Thread(target=w.run, daemon=True) for w in watches]
    for t in threads:
        t.start()
    stats = {"moves": 0, "retries": 0, "odd": []}
    deadline = time.time() + seconds
    players = [threading.Thread(target=play, args=(play_url, i, token, deadline, stats)) for i in ids]
    for t in players:
        t.start()
    for t in players:
        t.join()
    # Every stream must reach its match's version (read from the primary) by itself.
    versions = {}
    for w in watches:
        for _ in range(50):
            status, view = request(watch_url, "GET", f"/v1/matches/{w.id}", token)
            if status == 200:
                versions[w.id] = view["version"]
                break
            time.sleep(0.2)
    caught_up_by = time.time() + 15
    while time.time() < caught_up_by and any(w.last() != versions.get(w.id) for w in watches):
        time.sleep(0.1)
    stop.set()
    for w in watches:
        v = versions.get(w.id)
        if v is None:
            problems.append(f"{w.id}: the match could not be read at the end")
            continue
        seen = list(w.seen)
        doubled = len(seen) - len(set(seen))
        missing = sorted(set(range(1, v + 1)) - set(seen))
        if doubled:
            problems.append(f"{w.id}: {doubled} events received twice")
        if missing:
            problems.append(f"{w.id}: {len(missing)} of {v} events never received (first {missing[:3]})")
        if seen != sorted(seen):
            problems.append(f"{w.id}: events out of order")
        if w.resumed == 0:
            problems.append(f"{w.id}: the stream was never resumed with Last-Event-ID")
    if stats["odd"]:
        problems.append(f"moves answered {sorted(set(stats['odd']))}")
    report = {
        "matches": len(ids),
        "moves": stats["moves"],
        "move_retries": stats["retries"],
        "events_streamed": sum(len(w.seen) for w in watches),
        "connections": sum(w.connections for w in watches),
        "resumed_with_last_event_id": sum(w.resumed for w in watches),
        "openings_refused": {str(k): sum(w.refused.get(k, 0) for w in watches)
                             for k in sorted({k for w in watches for k in w.refused})},
        "problems": problems,
    }
    json.dump(report, open(out, "w"))


if __name__ == "__main__":
    main()
