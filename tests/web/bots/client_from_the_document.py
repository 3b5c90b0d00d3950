"""A Bot API client written from docs/BOTS.md alone, following it literally (issue 52's final check): standard
library only, no racko import, nothing read from racko's source. Each part names the step of the page's "Writing a
client" it does; a refused request does what the page's table of refusals says for its code.

    python client_from_the_document.py URL TOKEN GAMES [SEED]

It plays until GAMES games it sat at have finished, printing ``finished: TABLE`` for each, then exits 0; a token the
server refuses exits 2.
"""

import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request

URL, TOKEN, GAMES = "", "", 1  # from the command line (main)
RANDOM = random.Random(0)
SILENCE = 30  # "a client that hears nothing for 30 seconds takes the stream for broken and opens it again"
finished: set[str] = set()  # the games (TABLE-N) finished: one told again after its end counts once
playing: dict[str, threading.Thread] = {}
lock = threading.Lock()
stop = threading.Event()


class Refused(Exception):
    """A refusal: its HTTP status and its ``code`` (a refusal is JSON ``{"code", "error"}``)."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.code, self.body = status, body.get("code"), body


class Break(Exception):
    """A break: "Any other status (a proxy's 502, a connection refused, a timeout) is a break" (an answer that is no
    JSON too)."""


def request(path: str, body: dict | None = None):
    """One request ("Every request carries Authorization: Bearer TOKEN"); a 429 is waited out as its Retry-After says
    and sent again; a JSON refusal raises Refused, anything else Break."""
    data = None if body is None else json.dumps(body).encode()
    while True:
        asked = urllib.request.Request(URL + path, data=data, method="GET" if body is None else "POST")
        asked.add_header("Authorization", "Bearer " + TOKEN)
        if data is not None:
            asked.add_header("Content-Type", "application/json")
        try:
            return urllib.request.urlopen(asked, timeout=SILENCE)
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                said = json.loads(raw)
            except ValueError:
                raise Break(f"{error.code} {raw[:100]!r}") from None
            if not isinstance(said, dict) or "code" not in said:
                raise Break(f"{error.code} {said!r}") from None
            wait = error.headers.get("Retry-After")
            if error.code == 429 and wait is not None:  # "wait Retry-After seconds, then send the same request again"
                time.sleep(float(wait))
                continue
            raise Refused(error.code, said) from None
        except OSError as error:
            raise Break(str(error)) from None


def lines(path: str):
    """A stream's JSON lines, empty ones (keep-alives) skipped; a silence of 30 seconds ends it (a timeout: Break)."""
    try:
        with request(path) as stream:
            for raw in stream:
                if raw.strip():
                    yield json.loads(raw)
    except (OSError, ValueError) as error:
        raise Break(str(error)) from None


# --- choosing a move: from the view only ("the view ... say[s] everything the seat may know") ------------------------


def tenth(card, cards: int) -> int:
    """Which tenth of the deck a card belongs to: the place (0: slot 5, or the left end) where a sorted rack has it."""
    if not isinstance(card, int):  # High-Low's "W" and "S"
        return -1
    return min(9, (card - 1) * 10 // cards)


def choose(view: dict, family: str, deck: int) -> dict:
    legal = view["legal"]
    acts = {entry["act"]: entry for entry in legal}
    for sure in ("racko", "keep"):  # going Rack-O ends the round; after a Swap card, keeping the row is always legal
        if sure in acts:
            return acts[sure]
    situation = view["situation"] or {}
    card = situation.get("card")
    rack = view["rack"]
    if family == "classic" and "take" in acts:  # "pick": take the top discard when it belongs where a stray sits
        top = view["discard"][-1]
        place = tenth(top, deck)
        return acts["take"] if tenth(rack[place], deck) != place else acts["draw"]
    if card is None:  # nothing in hand and no discard worth taking: "draw" (Bonus Rack-O's "declare": "wait")
        return acts.get("draw") or acts.get("wait") or RANDOM.choice(legal)
    if family == "classic":  # a card in hand: into its tenth, unless what sits there belongs there already
        place = tenth(card, deck)
        wanted = [entry for entry in legal if entry.get("slot") == 5 * (place + 1)]
        if wanted and (tenth(rack[place], deck) != place or "discard" not in acts):
            return wanted[0]
        return acts.get("discard") or RANDOM.choice(legal)
    place = tenth(card, 50)  # High-Low: numbers 1-50, put in rising order; a Wild anywhere out of order
    if place < 0:
        strays = [spot for spot, held in enumerate(rack) if tenth(held, 50) != spot] or [RANDOM.randrange(10)]
        place = RANDOM.choice(strays)
    wanted = [entry for entry in legal if entry.get("position") == place + 1]
    return wanted[0] if wanted else RANDOM.choice(legal)


# --- step 4 to 6: one table ------------------------------------------------------------------------------------------


def play(table: str) -> None:
    version, node, family, deck, number = 0, "", "classic", 40, 0
    while not stop.is_set():
        pinned = f"&node={node}" if node else ""
        try:
            for line in lines(f"/api/bot/game/stream/{table}?since={version}{pinned}"):
                if line["type"] == "game":
                    family, deck = line["setup"]["family"], line["setup"]["deck_size"]
                    number = line["game"]
                elif line["type"] == "state":
                    version = line["version"]
                    view = line["view"]
                    if view["to_act"] == view["you"] and view["legal"]:
                        node = move(table, version, view, family, deck, node)
                        if node is None:
                            return
                elif line["type"] == "gameFinish":
                    print(f"finished: {table}", flush=True)  # said before it counts: the client may end once it does
                    with lock:
                        finished.add(f"{table}-{number}")  # "A game is named TABLE-N"
                    return
        except Refused as refused:  # step 6: "A 403, 404 or 410 on opening stops playing the table"
            if refused.status in (403, 404, 410, 401):
                print("stopped playing", table, refused, file=sys.stderr)
                return
            if refused.code == "elsewhere":
                node = refused.body.get("node", "")
                continue
            time.sleep(1)
        except Break:
            time.sleep(1)
        # step 6: the stream ended without gameFinish: open it again from the last version


def move(table: str, version: int, view: dict, family: str, deck: int, node: str) -> str | None:
    """Step 4's post and step 5's refusals; the node to go on with, or None to stop playing the table."""
    choice = choose(view, family, deck)
    tried = []
    while True:
        pinned = f"?node={node}" if node else ""
        try:
            request(f"/api/bot/game/{table}/move{pinned}", {"version": version, "action": choice}).close()
            return node
        except Refused as refused:
            code = refused.code
            if code in ("stale", "not-your-turn", "out-of-time", "over"):  # "Only 409 leaves it to the stream"
                return node
            if code == "illegal":  # "choose again from the same legal"
                tried.append(choice)
                others = [entry for entry in view["legal"] if entry not in tried]
                if not others:
                    return node
                choice = RANDOM.choice(others)
            elif code == "not-saved":  # "post it again after a second"
                time.sleep(1)
            elif code == "elsewhere":  # "post it again to its node"
                node = refused.body.get("node", "")
            elif refused.status in (403, 404, 410, 401):  # "stop playing the table"
                print("stopped playing", table, refused, file=sys.stderr)
                return None
            else:  # bad-frame and the like: "fix the client"; nothing to retry
                print("refused", table, refused, file=sys.stderr)
                return node
        except Break:  # "wait a second, then send the request again" (played already: stale, above)
            time.sleep(1)


# --- steps 1 to 3 ------------------------------------------------------------------------------------------------


def follow() -> None:
    while not stop.is_set():
        try:
            for event in lines("/api/bot/stream/event"):
                if event["type"] == "gameStart":
                    table = event["table"]
                    with lock:
                        running = playing.get(table)
                        if running is None or not running.is_alive():
                            playing[table] = threading.Thread(target=play, args=(table,), daemon=True)
                            playing[table].start()
                elif event["type"] == "challenge":
                    try:
                        request(f"/api/bot/challenge/{event['id']}/accept", {}).close()
                    except (Refused, Break) as refused:  # not-open and the like: the event stream says how it ended
                        print("challenge", event["id"], refused, file=sys.stderr)
                if stop.is_set():
                    return
        except Refused as refused:
            if refused.status == 401:  # step 2: "a 401 stops the client"
                print("the token was refused:", refused, file=sys.stderr)
                stop.set()
                return
            time.sleep(1)
        except Break:
            time.sleep(1)


def main() -> int:
    global URL, TOKEN, GAMES
    URL, TOKEN, GAMES = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3])
    RANDOM.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    try:  # step 1
        request("/api/bot/account").close()
    except Refused as refused:
        print("the token was refused:", refused, file=sys.stderr)
        return 2
    threading.Thread(target=follow, daemon=True).start()  # step 2
    while not stop.is_set():
        with lock:
            if len(finished) >= GAMES:
                return 0
        time.sleep(0.05)
    return 2


if __name__ == "__main__":
    sys.exit(main())
