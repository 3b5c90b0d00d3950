"""A lichess bot's loop at a racko server: berserk's ``client.bots`` calls over racko's Bot API (docs/BOTS.md, "From a
lichess client"), standard library only, no racko import.

    python examples/lichess_adapter.py http://127.0.0.1:8000 TOKEN [GAMES]

``RackoBots`` turns racko's flat events into lichess's nested ones, a game's ``game`` and first ``state`` lines into
``gameFull`` and the next into ``gameState`` (with ``isMyTurn`` and the seat's ``legal`` actions), and posts a move
with the version it was chosen at. ``main`` is written as a berserk bot is; only ``choose`` knows Rack-O.
"""

import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request

REASONS = {"tooFast": "clock", "tooSlow": "clock", "timeControl": "clock", "standard": "variant", "noBot": "players"}
"""lichess's decline reasons racko has other words for (the rest are the same, or "generic")."""


class RackoBots:
    def __init__(self, url, token):
        self.url, self.token, self.versions = url.rstrip("/"), token, {}

    def _call(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(self.url + path, data, {"Authorization": "Bearer " + self.token})
            request.add_header("Content-Type", "application/json")
            try:
                return urllib.request.urlopen(request, timeout=30)
            except urllib.error.HTTPError as refused:  # a 429 changed nothing: wait as told, then ask again
                if refused.code != 429 or not refused.headers.get("Retry-After"):
                    raise
                time.sleep(float(refused.headers["Retry-After"]))

    def _lines(self, path):
        with self._call(path) as stream:
            for raw in stream:
                if raw.strip():  # an empty line only says the stream is alive
                    yield json.loads(raw)

    def stream_incoming_events(self):
        for event in self._lines("/api/bot/stream/event"):
            kind = event["type"]
            if kind in ("gameStart", "gameFinish"):
                yield {"type": kind, "game": {"id": event["table"], "gameId": event["table"], "seat": event["seat"]}}
            elif kind == "challenge":
                rest = {key: value for key, value in event.items() if key not in ("type", "from", "variant")}
                rest |= {"challenger": event["from"], "variant": {"key": event["variant"]}}
                yield {"type": kind, "challenge": rest}
            elif kind.startswith("challenge"):
                yield {"type": kind, "challenge": {key: value for key, value in event.items() if key != "type"}}

    def stream_game_state(self, game_id):
        since, head = 0, None
        while True:
            try:
                for line in self._lines(f"/api/bot/game/stream/{game_id}?since={since}"):
                    if line["type"] == "gameFinish":
                        return
                    if line["type"] == "game":
                        head = line
                    elif line["type"] == "state":
                        since = self.versions[game_id] = line["version"]
                        view = line["view"]
                        state = {"type": "gameState", "status": "started" if not view["over"] else "over"}
                        state |= {"isMyTurn": bool(view["legal"]) and view["to_act"] == view["you"]}
                        state |= {"legal": view["legal"], "view": view, "observation": line["observation"]}
                        if head is not None:
                            yield {"type": "gameFull", "id": game_id, "variant": {"key": head["setup"]["variant"]},
                                   "seat": head["seat"], "state": state}  # fmt: skip
                            head = None
                        else:
                            yield state
            except (OSError, ValueError):  # a break: open it again from the last version seen
                time.sleep(1)

    def make_move(self, game_id, move):
        self._call(f"/api/bot/game/{game_id}/move", {"version": self.versions[game_id], "action": move}).close()

    def accept_challenge(self, challenge_id):
        self._call(f"/api/bot/challenge/{challenge_id}/accept", {}).close()

    def decline_challenge(self, challenge_id, reason="generic"):
        self._call(f"/api/bot/challenge/{challenge_id}/decline", {"reason": REASONS.get(reason, reason)}).close()


def choose(state):  # the one part of a lichess bot to write anew (Rack-O, not chess): each card to its tenth
    view, legal = state["view"], [{k: v for k, v in move.items() if k != "seat"} for move in state["legal"]]
    highlow, card = "rows" in view, view["situation"]["card"]
    size = 50 if highlow else len(view["discard"]) + view["stock"] + 10 * len(view["names"]) + 1
    place = lambda card: min(9, (card - 1) * 10 // size) if isinstance(card, int) else 0  # noqa: E731
    if {"act": "racko"} in legal or {"act": "keep"} in legal:
        return {"act": "racko"} if {"act": "racko"} in legal else {"act": "keep"}
    if {"act": "take"} in legal:  # a discard that belongs where a card that does not sits: take it
        top = view["discard"][-1]
        return {"act": "take" if place(view["rack"][place(top)]) != place(top) else "draw"}
    wanted = {"act": "exchange", "slot": 5 + 5 * place(card)}
    wanted = {"act": "replace", "position": place(card) + 1} if highlow else wanted
    return wanted if wanted in legal else {"act": "discard"} if {"act": "discard"} in legal else random.choice(legal)


def play(bots, game_id):
    for event in bots.stream_game_state(game_id):
        state = event["state"] if event["type"] == "gameFull" else event
        if state["type"] == "gameState" and state["isMyTurn"]:
            try:
                bots.make_move(game_id, choose(state))
            except urllib.error.HTTPError as refused:  # stale, not our turn …: the next state says what now
                print("refused:", refused.read().decode(), file=sys.stderr)
    print("finished:", game_id)


def main(url, token, games):
    bots, playing, finished = RackoBots(url, token), {}, 0
    while finished < games:
        try:
            for event in bots.stream_incoming_events():
                game = event.get("game", {}).get("id")
                if event["type"] == "challenge":
                    bots.accept_challenge(event["challenge"]["id"])
                elif event["type"] == "gameStart" and game not in playing:
                    playing[game] = threading.Thread(target=play, args=(bots, game))
                    playing[game].start()
                elif event["type"] == "gameFinish" and game in playing:
                    playing.pop(game).join()
                    finished += 1
                    if finished >= games:
                        return
        except (OSError, ValueError):  # the event stream broke: listen again
            time.sleep(1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
