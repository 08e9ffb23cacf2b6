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
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

BASE, OUT, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []
# Pot games played by three, where more is on the table than by two.
POT_GAMES = {"gurka", "femkort", "trettioett", "norrlandsknack"}
# Games drawn at set table sizes: Vändåtta by two (one pack) and by five (two packs, each card
# twice: a pile and a hand may show the same card).
SIZES = {"vandatta": [2, 5]}


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
        if not moves:
            # A reaction game lists seats with nothing to do, and its bots react after a delay.
            time.sleep(0.1)
            continue
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
        self.record_events = []

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
# A card code as the engine writes it: "AS", "TD", tarot's "1H", "CH", "T1".."T21", "EX", jokers.
CARD = re.compile(r"^(?:[2-9TJQKA1C][CDHS]|T(?:[1-9]|1\d|2[01])|EX|JK\d?)$")
# Words the Swedish page may share with the English one: names, words both languages have, and
# the Swedish terms the English page keeps (a game's own words). The rules' explanations (the
# engine's own Swedish and English texts) are not the page's labels and are left out.
SHARED_WORDS = {"bot", "ada", "json", "kortbord", "pass", "rita", "ritor", "slam", "sang", "spel", "noll",
                "limpor", "lurat", "trumfmant", "rödskägg", "poignée", "in", "hand", "per", "under",
                "partner", "minus", "bonus", "bet", "misère", "tarot", "whist", "wieder", "la", "vola",
                "tjog", "blind", "stopp", "tabbe", "tabbar", "sistan", "jan",
                "dubbeltabbe", "dukningar", "muggins", "stortok", "skitgubbe",
                "svarte", "petter", "fusk", "rummy", "poker", "ante", "sökö", "chicago", "royal",
                "jazz", "fan", "tan", "gris",
                "blackjack", "even", "money", "hej", "knekt", "goddag", "dam", "ms"}


def at_step(b, n):
    if b.wait(f"{READY} && document.body.dataset.at === '{n}'", f"step {n}"):
        return True
    print("       the page says:", b.js("document.getElementById('status').textContent"), flush=True)
    return False


def go_step(b, n):
    b.js(f"location.hash = '#at={n}'")
    return at_step(b, n)


def cards_in(b, selector):
    return b.js(f"Array.from(document.querySelectorAll({json.dumps(selector)})).map(c => c.dataset.card || null)")


def norm_play(p):
    return {"seat": p[0], "card": p[1]} if isinstance(p, list) else p


def card_slots(v, key=None, in_list=False):
    """The cards a zone drawn from this value shows, in order: card codes, and null where a
    card is hidden (an item of a list of cards, or a play's `card`). A trick is its plays."""
    if isinstance(v, str):
        return [v] if CARD.match(v) else []
    if v is None:
        return [None] if in_list or key == "card" else []
    if isinstance(v, list):
        return [c for x in v for c in card_slots(x, None, True)]
    if isinstance(v, dict):
        if isinstance(v.get("plays"), list):
            return card_slots(v["plays"])
        return [c for k, x in v.items() for c in card_slots(x, k)]
    return []


def card_paths(v, path):
    """Every path (dotted) in a JSON value that holds a card code."""
    if isinstance(v, str):
        return [path] if CARD.match(v) else []
    if isinstance(v, list):
        return [p for i, x in enumerate(v) for p in card_paths(x, f"{path}.{i}")]
    if isinstance(v, dict):
        return [p for k, x in v.items() for p in card_paths(x, f"{path}.{k}")]
    return []


def resolve(step, path):
    v = step
    for part in path.split("."):
        if isinstance(v, list) and part.isdigit() and int(part) < len(v):
            v = v[int(part)]
        elif isinstance(v, dict) and part in v:
            v = v[part]
        else:
            return KeyError
    return v


ZONES = """Array.from(document.querySelectorAll('#table [data-from], #facts [data-from]')).map(z => ({
  from: z.dataset.from,
  cards: z.classList.contains('card') ? [z.dataset.card || null]
    : Array.from(z.querySelectorAll('.card')).map(c => c.dataset.card || null)}))"""

# The page's words, less card faces, rule ids and the language switch; hidden parts left out.
WORDS = """(() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest('.card, .rule-id, #explanation, #lang, [hidden], script, style')) continue;
    out.push(n.textContent);
  }
  return out.join(' ');
})()"""


def words_of(text):
    return {w.lower() for w in re.findall(r"[A-Za-zÅÄÖåäöéèÉ0-9]+", text)
            if len(w) > 1 and not CARD.match(w) and not any(c.isdigit() for c in w)}


def check_step(b, name, mid, deal, at, omitted, game_words, shots=None):
    """The cards on the page at step `at` are the step's, every card of the step is drawn, and
    the Swedish page has no English word left."""
    step = call("GET", f"/v1/matches/{mid}/deals/{deal}/replay?at={at}")
    if not go_step(b, at):
        check(False, f"{name}: step {at} is drawn")
        return
    zones = b.js(ZONES)
    table = step["table"]
    where = f"{name} step {at}"
    before = isinstance(table.get("deal_number"), int) and table["deal_number"] != deal
    if before:
        check(not zones, f"{where}: before the deal, no card of the deal before is drawn ({len(zones)} zones)")
    bad = []
    for z in zones:
        value = resolve(step, z["from"])
        want = card_slots(value) if value is not KeyError else "no such field"
        # A zone drawn from a null is one card nobody may see (Stötpoker's hole card of a folded
        # hand, hidden for ever): a back, or nothing.
        if value is None and z["cards"] == [None]:
            want = [None]
        if z["cards"] != want:
            bad.append(f"{z['from']}: drawn {z['cards']}, the step has {want}")
    check(not bad, f"{where}: each of {len(zones)} zones draws the step's cards" + ("".join(f"\n         {x}" for x in bad[:6])))
    if not before:
        drawn = [z["from"] for z in zones]
        missing = [p for p in card_paths(table, "table")
                   if p.split(".")[1] not in omitted
                   and not any(p == d or p.startswith(d + ".") for d in drawn)]
        check(not missing, f"{where}: every card of the step is drawn (not drawn: {missing[:8]})")
        # A hand the step keeps back is drawn as as many backs as it has cards.
        for s, size in enumerate(table.get("hand_sizes") or []):
            if not isinstance(table.get("hands"), list):
                count = b.js(f"(e => e ? Number(e.dataset.count) : 0)(document.querySelector('#hand-{s}.backs'))")
                check(count == size, f"{where}: seat {s}'s hidden hand shows {size} backs (drawn {count})")
    # A trick won, or one put aside, picked up or turned away (Stortok, Långe Laban, Skitgubbe).
    tricks = any(e["type"] == "trick_won" or e["type"].startswith("trick_") for e in b.record_events) or "trick" in table
    en = b.js(WORDS)
    if shots:
        b.screenshot(f"{name}-{shots}.png")
    b.js("{ const l = document.getElementById('lang'); l.value = 'sv'; l.dispatchEvent(new Event('change')); }")
    sv = b.js(WORDS)
    if shots == "middle":
        b.screenshot(f"{name}-{shots}-sv.png")
    b.js("{ const l = document.getElementById('lang'); l.value = 'en'; l.dispatchEvent(new Event('change')); }")
    english = sorted((words_of(sv) & words_of(en)) - SHARED_WORDS - game_words)
    check(not english, f"{where}: the Swedish page has no English word left {english}")
    if not tricks:
        said = [w for w in ("trick", "tricks", "stick") if w in words_of(en) | words_of(sv)]
        check(not said, f"{where}: a game without tricks says nothing of tricks {said}")
        check(b.js("document.getElementById('jump').closest('label').hidden"), f"{where}: no jump to a trick")


def check_game(b, name, mid, deal, game_words):
    record = call("GET", f"/v1/matches/{mid}/deals/{deal}")
    events = record["events"]
    b.record_events = events
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
    omitted = set(b.js(f"Object.keys(KortbordTables.omitted({json.dumps(name.rsplit('-', 1)[0])}))"))

    # Forward with the arrow key and the button, back with the arrow key.
    b.key("ArrowRight", "ArrowRight")
    at_step(b, 1)
    b.js("document.getElementById('next').click()")
    at_step(b, 2)
    b.key("ArrowLeft", "ArrowLeft")
    at_step(b, 1)
    words = b.js("document.getElementById('event-text').textContent")
    check(bool(words) and not words.startswith("{"), f"{name}: step 1 is told in words: {words!r}")

    # The cards at several steps: the start, the first step of each of the first eight kinds of
    # event, the middle and the end.
    chosen = {0, 1, 2, steps // 4, steps // 2, (3 * steps) // 4, steps - 1, steps}
    phases, last = {}, None
    for i, e in enumerate(events):
        if e["type"] != last:
            phases.setdefault(e["type"], i + 1)
            last = e["type"]
    chosen |= set(list(phases.values())[:8])
    shots = {2: "start", steps // 2: "middle", steps: "end"}
    for at in sorted(a for a in chosen if 0 <= a <= steps):
        check_step(b, name, mid, deal, at, omitted, game_words, shots.get(at))

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

    # In Swedish, through the switch.
    b.js("{ const l = document.getElementById('lang'); l.value = 'sv'; l.dispatchEvent(new Event('change')); }")
    check(b.js("document.documentElement.lang") == "sv" and "Poäng" in b.js("document.getElementById('scores').textContent"),
          f"{name}: the language switch gives Swedish")
    b.js("{ const l = document.getElementById('lang'); l.value = 'en'; l.dispatchEvent(new Event('change')); }")

    # A phone: the layout fits the width.
    b.size(390, 844, mobile=True)
    b.go(url + f"?lang=sv&at={tricks[0][0] if tricks else steps // 2}")
    b.wait(READY, f"{name} on a phone")
    width = b.js("document.documentElement.scrollWidth")
    check(width <= 392, f"{name}: nothing overflows a phone's width (page {width}px wide)")
    b.screenshot(f"{name}-phone.png")
    errs = b.script_errors()
    check(not errs, f"{name}: no script errors {[e['params']['exceptionDetails'].get('text') for e in errs]}")


def duplicate_keys(source, name):
    """Keys written twice in the object literal `name` of the page's script: the later one
    silently replaces the earlier, and a game's narration becomes another's."""
    lines = source[source.index("{", source.index(f"const {name} = ")):].split("\n")
    depth, seen, twice = 0, set(), []
    for n, line in enumerate(lines):
        if depth == 1:
            m = re.match(r"\s+([A-Za-z_\".]+)\s*:", line)
            if m:
                if m.group(1) in seen:
                    twice.append(m.group(1))
                seen.add(m.group(1))
        depth += line.count("{") - line.count("}")
        if depth <= 0 and n > 0:
            break
    return twice


def main():
    os.makedirs(OUT, exist_ok=True)
    script = open(os.path.join(os.path.dirname(__file__), "../../api/src/routes/replay/replay.js")).read()
    for name in ("EVENTS", "WORDS"):
        twice = duplicate_keys(script, name)
        check(not twice, f"replay.js {name} names each key once (twice: {twice})")
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    token = call("POST", "/v1/auth/guest", {"name": "Ada"})["token"]
    games = [g for g in call("GET", "/v1/games") if g["status"] == "playable"]
    only = set(filter(None, os.environ.get("REPLAY_GAMES", "").split(",")))
    matches = []
    for g in games:
        if only and g["id"] not in only:
            continue
        sizes = SIZES[g["id"]] if g["id"] in SIZES else sorted({g["min_players"], g["max_players"]}) if g["id"] == "tarot" else [max(g["min_players"], 3) if g["max_players"] >= 3 and g["id"] in POT_GAMES else g["min_players"]]
        words = words_of(f"{g.get('name_sv', '')} {g.get('name_en', '')} {g['id']}")
        for players in sizes:
            started = time.time()
            mid, _ = play_match(token, g["id"], players, rng)
            # The deal with the most events of the first three (not a deal thrown in or redealt).
            deal, best = 1, -1
            for k in range(1, 4):
                try:
                    rec = call("GET", f"/v1/matches/{mid}/deals/{k}")
                except SystemExit:
                    break
                if len(rec["events"]) > best:
                    deal, best = k, len(rec["events"])
            print(f"played {g['id']} with {players} players in {time.time() - started:.1f}s", flush=True)
            matches.append((f"{g['id']}-{players}", mid, deal, words))

    b = Browser(CHROMIUM, os.path.join(OUT, "profile"))
    try:
        b.open_tab()
        for name, mid, deal, words in matches:
            check_game(b, name, mid, deal, words)
        # A match that does not exist: a page saying so.
        b.size(1280, 800)
        b.go(f"{BASE}/replay/00000000-0000-4000-8000-000000000000/deals/1")
        b.wait("document.readyState === 'complete'", "the missing match's page")
        check("No such match" in b.js("document.body.textContent"), "a missing match's page says so")
        # A deal that does not exist: the page says what the API says.
        name, mid, _, _ = matches[0]
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
