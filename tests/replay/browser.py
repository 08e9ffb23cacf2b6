#!/usr/bin/env python3
"""The replay viewer in a real browser (run by scripts/replay-browser).

    browser.py BASE_URL OUT_DIR CHROMIUM

Plays a match of every playable game (a person choosing legal moves at random, bots in the
other seats) against the service at BASE_URL, then opens each match's replay page in headless
Chromium, driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no websocket,
Python's standard library only). Per game it steps through a deal with the arrow keys and the
buttons, jumps to a trick and checks the cards in the middle are that trick's, checks the hands
drawn are the step's, the scores at the end are the record's, the Swedish switch, the narrow
(phone) layout, and that no script error was thrown; screenshots go to OUT_DIR. Exit status 0
when every check passed.
"""

import base64
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

BASE, OUT, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(ok, what):
    print(("  ok   " if ok else "  FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


# --- the API ---------------------------------------------------------------------------------
def call(method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {path}: {e.code} {e.read()[:400]!r}")


def play_match(token, game, players, rng):
    seats = [{"kind": "me"}] + [{"kind": "bot"}] * (players - 1)
    match = call("POST", "/v1/matches", {"game": game, "seats": seats}, token)
    mid = match["id"]
    for _ in range(20000):
        view = call("GET", f"/v1/matches/{mid}", token=token)
        if view["phase"] == "finished":
            return mid, view
        moves = call("GET", f"/v1/matches/{mid}/legal-moves?seat=0", token=token)
        moves = moves if isinstance(moves, list) else moves.get("moves", [])
        call("POST", f"/v1/matches/{mid}/moves", {"move": rng.choice(moves), "seat": 0}, token)
    raise SystemExit(f"{game} with {players} players does not end")


# --- Chromium over the DevTools pipe ---------------------------------------------------------
class Browser:
    def __init__(self, chromium, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():  # the protocol's pipe is fds 3 (commands in) and 4 (answers out)
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", "--lang=en-US", "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(OUT, "chromium.log"), "wb"))
        os.close(to_child_r)
        os.close(from_child_w)
        self.next_id = 0
        self.answers = {}
        self.events = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.session = None

    def _read(self):
        buf = b""
        while True:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                break
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self.cond:
                    if "id" in msg:
                        self.answers[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                    self.cond.notify_all()

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        with self.cond:
            while mid not in self.answers:
                left = deadline - time.time()
                if left <= 0:
                    raise SystemExit(f"chromium did not answer {method}")
                self.cond.wait(left)
            answer = self.answers.pop(mid)
        if "error" in answer:
            raise SystemExit(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def open_tab(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def size(self, width, height, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})

    def go(self, url):
        self.send("Page.navigate", {"url": url})

    def js(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise SystemExit(f"script failed: {expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait(self, expression, what, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.js(expression):
                    return True
            except SystemExit:
                pass
            time.sleep(0.05)
        check(False, f"waited for {what}")
        return False

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": {"ArrowRight": 39, "ArrowLeft": 37, "End": 35, "Home": 36}[key]})

    def screenshot(self, name):
        path = os.path.join(OUT, name)
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def script_errors(self):
        with self.cond:
            errs = [e for e in self.events if e.get("method") == "Runtime.exceptionThrown"]
            self.events.clear()
        return errs

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except SystemExit:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# --- the checks ------------------------------------------------------------------------------
READY = "document.body.dataset.ready === '1'"


def at_step(b, n):
    if b.wait(f"{READY} && document.body.dataset.at === '{n}'", f"step {n}"):
        return True
    print("       the page says:", b.js("document.getElementById('status').textContent"), flush=True)
    return False


def cards_in(b, selector):
    return b.js(f"Array.from(document.querySelectorAll({json.dumps(selector)})).map(c => c.dataset.card || null)")


def norm_play(p):
    return {"seat": p[0], "card": p[1]} if isinstance(p, list) else p


def check_game(b, name, mid, deal):
    record = call("GET", f"/v1/matches/{mid}/deals/{deal}")
    events = record["events"]
    steps = len(events)
    end = record["end"]
    tricks = [(i, e) for i, e in enumerate(events) if e["type"] == "trick_won"]
    url = f"{BASE}/replay/{mid}/deals/{deal}"
    print(f"{name}: match {mid}, deal {deal}, {steps} steps, {len(tricks)} tricks", flush=True)

    b.size(1280, 1000)
    b.go(url + "?lang=en")
    if not at_step(b, 0):
        status = b.js("document.getElementById('status').textContent")
        check(False, f"{name}: the page did not load: {status}")
        return
    check(b.js("document.getElementById('counter').textContent") == f"0 / {steps}", f"{name}: the counter shows 0 / {steps}")
    check(b.js("document.getElementById('raw').getAttribute('href')") == f"/v1/matches/{mid}/deals/{deal}",
          f"{name}: the raw record is linked")

    # Forward with the arrow key and the button, back with the arrow key.
    b.key("ArrowRight", "ArrowRight")
    at_step(b, 1)
    b.js("document.getElementById('next').click()")
    at_step(b, 2)
    b.key("ArrowLeft", "ArrowLeft")
    at_step(b, 1)
    step = call("GET", f"/v1/matches/{mid}/deals/{deal}/replay?at=1")
    words = b.js("document.getElementById('event-text').textContent")
    check(bool(words) and not words.startswith("{"), f"{name}: step 1 is told in words: {words!r}")
    # Hands face up as the step shows them.
    hands = step["table"].get("hands")
    if isinstance(hands, list):
        ok = all(cards_in(b, f"#hand-{s} .card") == [c if c is not None else None for c in h]
                 for s, h in enumerate(hands) if isinstance(h, list))
        check(ok, f"{name}: the hands drawn at step 1 are the step's")

    if tricks:
        k = len(tricks) // 2
        i, won = tricks[k]
        expected = sorted(norm_play(p)["card"] or "" for p in won["data"]["plays"])
        b.js(f"{{ const j = document.getElementById('jump'); j.value = '{i}'; j.dispatchEvent(new Event('change')); }}")
        at_step(b, i)
        shown = sorted(c or "" for c in cards_in(b, "#trick .card"))
        check(shown == expected, f"{name}: trick {won['data'].get('trick_number')} shows its cards {expected} (drawn {shown})")
        b.screenshot(f"{name}-trick.png")
        b.js("document.getElementById('next').click()")
        at_step(b, i + 1)
        text = b.js("document.getElementById('event-text').textContent")
        winner = won["data"]["winner"]
        check(f"Seat {winner}" in text and "wins trick" in text, f"{name}: the trick's winner is told: {text!r}")
        check(b.js(f"!!document.querySelector('#trick .play.won[data-seat=\"{winner}\"]')"),
              f"{name}: the winning card is marked")

    # The end: the scores, balances and pot are the record's.
    b.key("End", "End")
    at_step(b, steps)
    by_seat = b.js("Array.from(document.querySelectorAll('#score-table .score')).map(td => Number(td.dataset.score))")
    if isinstance(end.get("scores"), list):
        check(by_seat == end["scores"], f"{name}: the scores at the end are the record's {end['scores']} (drawn {by_seat})")
    if isinstance(end.get("balances"), list):
        bal = b.js("Array.from(document.querySelectorAll('#score-table .balance')).map(td => Number(td.dataset.balance))")
        check(bal == end["balances"], f"{name}: the balances at the end are the record's {end['balances']} (drawn {bal})")
    if isinstance(end.get("pot"), (int, float)):
        check(b.js("document.querySelector('[data-pot]') && Number(document.querySelector('[data-pot]').dataset.pot)") == end["pot"],
              f"{name}: the pot is shown ({end['pot']})")
    b.screenshot(f"{name}-end.png")

    # In Swedish, through the switch.
    b.js("{ const l = document.getElementById('lang'); l.value = 'sv'; l.dispatchEvent(new Event('change')); }")
    check(b.js("document.documentElement.lang") == "sv" and "Poäng" in b.js("document.getElementById('scores').textContent"),
          f"{name}: the language switch gives Swedish")
    b.js("{ const l = document.getElementById('lang'); l.value = 'en'; l.dispatchEvent(new Event('change')); }")

    # A phone: the layout fits the width.
    b.size(390, 844, mobile=True)
    b.go(url + f"?lang=sv&at={tricks[0][0] if tricks else steps}")
    b.wait(READY, f"{name} on a phone")
    width = b.js("document.documentElement.scrollWidth")
    check(width <= 392, f"{name}: nothing overflows a phone's width (page {width}px wide)")
    b.screenshot(f"{name}-phone.png")
    errs = b.script_errors()
    check(not errs, f"{name}: no script errors {[e['params']['exceptionDetails'].get('text') for e in errs]}")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    token = call("POST", "/v1/auth/guest", {"name": "Ada"})["token"]
    games = [g for g in call("GET", "/v1/games") if g["status"] == "playable"]
    matches = []
    for g in games:
        sizes = sorted({g["min_players"], g["max_players"]}) if g["id"] == "tarot" else [g["min_players"]]
        for players in sizes:
            started = time.time()
            mid, _ = play_match(token, g["id"], players, rng)
            # The first deal that had tricks (a deal everyone passed has none).
            deal, best = 1, -1
            for k in range(1, 50):
                try:
                    rec = call("GET", f"/v1/matches/{mid}/deals/{k}")
                except SystemExit:
                    break
                n = sum(1 for e in rec["events"] if e["type"] == "trick_won")
                if n > best:
                    deal, best = k, n
                if n > 0:
                    break
            print(f"played {g['id']} with {players} players in {time.time() - started:.1f}s", flush=True)
            matches.append((f"{g['id']}-{players}", mid, deal))

    b = Browser(CHROMIUM, os.path.join(OUT, "profile"))
    try:
        b.open_tab()
        for name, mid, deal in matches:
            check_game(b, name, mid, deal)
        # A match that does not exist: a page saying so.
        b.size(1280, 800)
        b.go(f"{BASE}/replay/00000000-0000-4000-8000-000000000000/deals/1")
        b.wait("document.readyState === 'complete'", "the missing match's page")
        check("No such match" in b.js("document.body.textContent"), "a missing match's page says so")
        # A deal that does not exist: the page says what the API says.
        name, mid, _ = matches[0]
        b.go(f"{BASE}/replay/{mid}/deals/999")
        b.wait("document.body.dataset.ready === 'error'", "the missing deal's message")
        check("999" in b.js("document.getElementById('status').textContent"), "a missing deal is reported on the page")
    finally:
        b.close()
    print(f"screenshots in {OUT}")
    if failures:
        print(f"{len(failures)} check(s) failed:", *failures, sep="\n  ")
        sys.exit(1)
    print("every check passed")


main()
