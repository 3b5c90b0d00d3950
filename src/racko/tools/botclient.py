"""``racko bot connect``: a bot account plays at a racko server through the Bot API (docs/BOTS.md), with any
function from an observation to an action: racko's own levels (``racko:expert``), ``module:callable``, or an agent
of ``racko.envs``' encoding (``env:module:callable``, through the envs front end's adapter).

Standard library only (``urllib`` and threads): it follows the account's event stream, plays each game that starts
in a thread of its own, and when a stream breaks it reconnects and resumes the game from the last version it was
sent (``?since=``), so that no event is lost or seen twice.  It accepts the challenges its policy can play (racko's
levels: the variants they play; declined with ``variant`` otherwise), and with ``seeks`` asks quick play for games
while its event stream is open (again after each game it finishes)."""

from __future__ import annotations

import contextlib
import email.utils
import importlib
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

from racko import bots
from racko.families import family_of
from racko.observation_json import AnyObservation, observation_from_json

Policy = Callable[[AnyObservation], Any]
"""A seat's observation to an action: a racko action, or an action as records write it (``{"act": "draw"}``)."""
READ_SECONDS = 30.0
"""A stream silent this long (its keep-alive lines included) is taken for broken, and opened again."""
MOVE_ATTEMPTS = 5
"""How often a move the database could not keep (``503 not-saved``) is sent again before the stream decides."""
STREAM_PAUSE = 0.25
"""Seconds waited before a stream that ended soon after it opened is opened a second time (growing each time)."""
STREAM_PAUSE_MAX = 2.0
"""The longest pause before a stream that keeps ending soon after it opens is opened again."""
STREAM_SHORT = 5.0
"""A stream that ends sooner than this after it opened ended early: the next opening waits longer."""


class Backoff:
    """The pause before a stream that ended is opened again: none after a stream that lasted, then a pause that grows
    while each new one ends early, so that a server ending a stream again and again is not asked in a tight loop
    (each opening is a request against the bot's limit)."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.early = 0
        self.since = time.monotonic()

    def opened(self) -> None:
        self.since = time.monotonic()

    def ended(self) -> None:
        self.early = self.early + 1 if time.monotonic() - self.since < STREAM_SHORT else 0
        self.stop.wait(min(STREAM_PAUSE_MAX, STREAM_PAUSE * self.early))


def load_callable(spec: str) -> Callable[..., Any]:
    """The function ``module:callable`` names (``ImportError``, ``AttributeError`` or ``ValueError`` if none)."""
    module_name, _, name = spec.partition(":")
    if not module_name or not name:
        raise ValueError(f"a policy is module:callable, not {spec!r}")
    found = getattr(importlib.import_module(module_name), name)
    if not callable(found):
        raise ValueError(f"{spec} is not callable")
    return found  # type: ignore[no-any-return]


def load_policy(
    spec: str, seed: int | None = None, adapt_agent: Callable[[Callable[..., Any]], Policy] | None = None
) -> Callable[[], Policy]:
    """What makes a policy for one game: ``racko:LEVEL`` (a computer level of racko's), ``module:callable`` (a
    policy), or ``env:module:callable`` (an agent of ``racko.envs``' encoding, made a policy by ``adapt_agent``:
    the envs front end's adapter, which the command above both hands in)."""
    kind, _, rest = spec.partition(":")
    if kind == "env":
        if adapt_agent is None:
            raise ValueError("env: agents are not available here")
        adapted = adapt_agent(load_callable(rest))
        return lambda: adapted
    if kind == "racko":
        if rest not in bots.available():
            raise ValueError(f"racko has no level {rest!r}; it has {', '.join(bots.available())}")
        return lambda: bots.create(rest, seed=seed).act
    if not kind or not rest:
        raise ValueError(f"a policy is racko:LEVEL, module:callable or env:module:callable, not {spec!r}")
    policy = load_callable(spec)
    return lambda: policy


def retry_after(error: urllib.error.HTTPError) -> float | None:
    """The seconds a refusal's ``Retry-After`` asks to wait (a number of seconds, or an HTTP date), or None."""
    said = (error.headers.get("Retry-After") or "").strip() if error.headers is not None else ""
    if said.isdigit():
        return float(said)
    with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
        when = email.utils.parsedate_to_datetime(said)
        return max(0.0, when.timestamp() - time.time())
    return None


class PolicyFailed(Exception):
    """The policy raised an error, or chose what is no action: the client stops and says so (a broken policy is
    not played on by retrying it, and its turns fall to the table's clock)."""


class BotClient:
    """One bot account at one server: its token, its policy, and the games it plays."""

    def __init__(
        self,
        url: str,
        token: str,
        make_policy: Callable[[], Policy],
        say: Callable[[str], None] = print,
        *,
        plays: Callable[[str], bool] = lambda variant: True,
        accept_challenges: bool = True,
        seeks: tuple[dict[str, Any], ...] = (),
        tournaments: tuple[str, ...] = (),
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.make_policy = make_policy
        self.say = say
        self.plays = plays
        """Whether the policy plays a variant (a challenge of another variant is declined)."""
        self.accept_challenges = accept_challenges
        self.seeks = seeks
        """Quick play's wishes (``{"variant", "players", "clock", "rated"}``) asked for while the stream is open."""
        self.tournaments = tournaments
        """Tournaments the bot joins when it starts (docs/TOURNAMENTS.md): their tables come as any game's."""
        self.playing: dict[str, threading.Thread] = {}
        self.finished: list[str] = []
        self.stop = threading.Event()
        self.failure: PolicyFailed | None = None

    def _request(self, path: str, body: dict[str, Any] | None = None, timeout: float = READ_SECONDS) -> Any:
        """The server's answer (a stream is read line by line); ``HTTPError`` for a refusal.  A ``429`` that says
        when to come back (``Retry-After``) is waited out and the same request sent again, as docs/BOTS.md asks of
        every client: nothing was done, so nothing is done twice."""
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(self.url + path, data=data, method="GET" if body is None else "POST")
            request.add_header("Authorization", f"Bearer {self.token}")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                return urllib.request.urlopen(request, timeout=timeout)
            except urllib.error.HTTPError as error:
                wait = retry_after(error)
                if error.code != 429 or wait is None or self.stop.is_set():
                    raise
                error.close()
                self.say(f"the server asked this bot to slow down: {path.partition('?')[0]} again in {wait:g} s")
                if self.stop.wait(wait):
                    raise

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        with self._request(path) as stream:
            for raw in stream:
                if self.stop.is_set():
                    return
                if raw.strip():
                    yield json.loads(raw)

    def run(self, games: int | None = None) -> int:
        """Follow the account's events and play every game it starts (reconnecting after a break) until ``games``
        games have finished (``None``: until stopped); how many finished.  ``OSError`` if the token is refused,
        :class:`PolicyFailed` if the policy failed."""
        refused: list[OSError] = []
        for tournament in self.tournaments:
            self._join(tournament)
        follower = threading.Thread(target=self._follow, args=(refused,), name="racko-bot-events", daemon=True)
        follower.start()
        while not self.stop.is_set() and not refused and (games is None or len(self.finished) < games):
            time.sleep(0.1)
        self.stop.set()
        for thread in list(self.playing.values()):
            thread.join(timeout=READ_SECONDS)
        if refused:
            raise refused[0]
        if self.failure is not None:
            raise self.failure
        return len(self.finished)

    def _join(self, tournament: str) -> None:
        """Join a tournament (said either way: a refusal, such as one that is over, stops nothing)."""
        path = f"/api/bot/tournament/{urllib.parse.quote(tournament, safe='')}/join"
        try:
            self._request(path, {}).close()
            self.say(f"joined the tournament {tournament}")
        except urllib.error.HTTPError as error:
            self.say(f"the tournament {tournament} was not joined: {error.read().decode(errors='replace')}")
        except OSError as error:
            self.say(f"the tournament {tournament} was not joined: {error}")

    def _follow(self, refused: list[OSError]) -> None:
        """The account's event stream, opened again after a break: each game that starts is played."""
        pause = Backoff(self.stop)
        while not self.stop.is_set():
            try:
                pause.opened()
                for event in self._lines("/api/bot/stream/event"):
                    kind = event.get("type")
                    if kind == "gameStart":
                        self._start(str(event["table"]))
                    elif kind == "challenge":
                        self._answer(event)
                    elif kind in ("hello", "gameFinish"):
                        self._seek()
                    elif kind == "streamEnded":
                        self.say(f"the server ended the event stream: {event.get('reason', '?')}")
                pause.ended()
            except urllib.error.HTTPError as error:
                if error.code in (401, 403):
                    self.say(f"racko: the server refused the token: {error.read().decode(errors='replace')}")
                    refused.append(error)
                    return
                time.sleep(1)
            except (OSError, ValueError):  # the server away a moment: try again
                time.sleep(1)

    def _answer(self, challenge: dict[str, Any]) -> None:
        """Accept a challenge the policy can play, decline any other (the server tells the challenger)."""
        variant = str(challenge.get("variant"))
        accept = self.accept_challenges and self.plays(variant)
        path = f"/api/bot/challenge/{challenge['id']}/" + ("accept" if accept else "decline")
        reason = {} if accept else {"reason": "generic" if not self.accept_challenges else "variant"}
        who = challenge.get("from", {}).get("name", "?")
        try:
            self._request(path, reason).close()
            self.say(f"{'accepted' if accept else 'declined'} the challenge of {who} ({variant})")
        except urllib.error.HTTPError as error:  # expired meanwhile, too many games …: said, and the client goes on
            self.say(f"the challenge of {who} was not answered: {error.read().decode(errors='replace')}")

    def _seek(self) -> None:
        for wish in self.seeks:
            try:
                self._request("/api/bot/seek", wish).close()
            except urllib.error.HTTPError as error:  # too many games at once …: asked again after the next game
                self.say(f"quick play refused the seek {wish}: {error.read().decode(errors='replace')}")

    def _start(self, table: str) -> None:
        running = self.playing.get(table)
        if running is not None and running.is_alive():
            return
        thread = threading.Thread(target=self.play, args=(table,), name=f"racko-bot-{table}", daemon=True)
        self.playing[table] = thread
        thread.start()

    def play(self, table: str) -> None:
        """Play one game at ``table`` to its end: the seat's stream, resumed from the last version after a break."""
        policy = self.make_policy()
        since = 0
        node = ""  # the server process that plays the table, once one said so (behind a proxy: docs/DEPLOY.md)
        pause = Backoff(self.stop)
        while not self.stop.is_set():
            try:
                pause.opened()
                pinned = f"&node={urllib.parse.quote(node)}" if node else ""
                for frame in self._lines(f"/api/bot/game/stream/{table}?since={since}{pinned}"):
                    if frame["type"] == "state":
                        since = frame["version"]
                        self._move(table, frame, policy, node)
                    elif frame["type"] == "gameFinish":
                        self.say(f"game at {table} finished")
                        self.finished.append(table)
                        return
                    elif frame["type"] in ("replaced", "moved"):
                        self.say(f"the stream of {table} ends: {frame.get('message', frame['type'])}")
                pause.ended()
            except PolicyFailed as failure:
                self.say(f"racko: the policy failed at {table}: {failure}")
                self.failure = failure
                self.stop.set()
                return
            except urllib.error.HTTPError as error:
                said = error.read().decode(errors="replace")
                if error.code in (401, 403, 404, 410):
                    self.say(f"racko: cannot play at {table}: {said}")
                    return
                if error.code == 421:  # another process plays the table: ask there
                    node = _node_of(said)
                    time.sleep(0.2)  # a table on its way between processes: not in a tight loop
                    continue
                time.sleep(0.5)
            except (OSError, ValueError):
                time.sleep(0.5)

    def _move(self, table: str, frame: dict[str, Any], policy: Policy, node: str = "") -> None:
        view = frame["view"]
        if not view["legal"] or view["to_act"] != view["you"]:
            return
        observation = observation_from_json(frame["observation"])
        try:
            chosen = policy(observation)
            action = chosen if isinstance(chosen, dict) else family_of(observation.rules).action_to_json(chosen)
        except Exception as error:  # whatever a policy raises: a broken policy, not a broken connection
            raise PolicyFailed(f"{type(error).__name__}: {error}") from error
        action = {key: value for key, value in action.items() if key != "seat"}
        move = {"version": frame["version"], "action": action}
        for attempt in range(MOVE_ATTEMPTS):
            try:
                pinned = f"?node={urllib.parse.quote(node)}" if node else ""
                self._request(f"/api/bot/game/{table}/move{pinned}", move).close()
                return
            except urllib.error.HTTPError as error:
                said = error.read().decode(errors="replace")
                code = _code_of(said)
                if code == "illegal":  # the policy chose what the rules refuse: a broken policy
                    raise PolicyFailed(f"it chose {action}, which the server refused: {said}") from None
                if code == "elsewhere":  # another process plays the table now: the move goes there
                    node = _node_of(said) or node
                    continue
                if code == "not-saved" and attempt + 1 < MOVE_ATTEMPTS:  # nothing changed: the same move again
                    time.sleep(0.5)
                    continue
                # stale, not your turn, out of time, over …: the stream brings the table as it is now
                self.say(f"move refused at {table}: {said}")
                return


def _code_of(said: str) -> str:
    """A refusal's ``code`` (``""`` if the body is no JSON refusal)."""
    with contextlib.suppress(ValueError, AttributeError):
        return str(json.loads(said).get("code") or "")
    return ""


def _node_of(said: str) -> str:
    """The server process an ``elsewhere`` refusal names (``""`` if none)."""
    with contextlib.suppress(ValueError, AttributeError):
        return str(json.loads(said).get("node") or "")
    return ""
