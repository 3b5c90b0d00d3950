"""A Rack-O bot for racko's Bot API (docs/BOTS.md) in plain Python: urllib and json, no racko import.

    python examples/bot_client.py http://127.0.0.1:8000 TOKEN [GAMES]

It follows the bot's events, and plays each game that starts to its end, choosing among the legal actions the
server lists (a card that fits its slot goes in; otherwise at random), resuming by version after a break.
"""

import json
import random
import sys
import time
import urllib.error
import urllib.request

URL, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2]
GAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 1


def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    while True:
        request = urllib.request.Request(URL + path, data=data, headers={"Authorization": "Bearer " + TOKEN})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(request, timeout=30)
        except urllib.error.HTTPError as refused:  # 429 (too fast) and 503 (not saved) changed nothing: ask again
            wait = refused.headers.get("Retry-After") or (1 if refused.code == 503 else None)
            if refused.code not in (429, 503) or wait is None:
                raise
            print(f"refused ({refused.code}): again in {wait} s", file=sys.stderr)
            time.sleep(float(wait))


def lines(path):
    with call(path) as stream:
        for raw in stream:
            if raw.strip():  # an empty line only says the stream is alive
                yield json.loads(raw)


def choose(view):
    legal, card = view["legal"], view["held"] or view.get("taken")
    if card is not None and view.get("known") is not None:  # classic: the slot of a card of its size
        slot = min(9, (card - 1) * 10 // (len(view["discard"]) + view["stock"] + 10 * len(view["names"])))
        wanted = {"act": "exchange", "slot": 5 * (slot + 1)}
        if wanted in legal:
            return wanted
    return random.choice(legal)


def play(table):
    since = 0
    while True:
        try:
            for frame in lines(f"/api/bot/game/stream/{table}?since={since}"):
                if frame["type"] == "gameFinish":
                    print("finished:", table, frame["version"])
                    return
                if frame["type"] != "state":
                    continue
                since, view = frame["version"], frame["view"]
                if view["legal"] and view["to_act"] == view["you"]:
                    try:
                        call(f"/api/bot/game/{table}/move", {"version": since, "action": choose(view)}).close()
                    except urllib.error.HTTPError as refused:  # stale, not our turn …: the stream brings what now
                        print("refused:", refused.read().decode())
        except (OSError, ValueError):  # the stream broke: reconnect and resume from the last version seen
            time.sleep(1)


played = 0
while played < GAMES:
    try:
        for event in lines("/api/bot/stream/event"):
            if event["type"] == "gameStart":
                play(event["table"])
                played += 1
                if played >= GAMES:
                    break
    except urllib.error.HTTPError:
        raise
    except (OSError, ValueError):
        time.sleep(1)
