""" "Your turn" where the person is: each device's push subscription kept per player, and one push to each of a
player's devices when a table's turn becomes theirs while no page of theirs shows that table.

The table room tells this room when a person's turn begins, and when a turn-based turn is running out
(:attr:`racko.web.table.TableRoom.turns_begun`, once per turn); the check is a few lookups in memory, on the event loop,
and everything slow (reading the subscriptions, encrypting, the request to the browser's push service, dropping a
dead subscription) happens in this room's worker threads, so that a push never delays a move."""

from __future__ import annotations

import functools
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from racko.web.core import room_words_of
from racko.web.players import Players
from racko.web.push.keys import PushKeys
from racko.web.push.reach import Answer, PushReach, Target, Unreachable
from racko.web.store import Rows, SchemaPart, TableStore

if TYPE_CHECKING:
    from racko.web.table import TurnNews

SCHEMA = SchemaPart.of_room("push")
DEVICES_PER_PLAYER = 10
"""A player's subscriptions kept at most: an eleventh device replaces the one subscribed longest ago."""
TTL_SECONDS = 24 * 3600
"""How long a push service keeps a push for a device that is off (a turn-based table's turn lasts a day or more)."""
SENDERS = 4
"""Worker threads that send pushes (each request waits on the network, not on the processor)."""
DEAD = (404, 410)
"""What a push service answers for a subscription that is gone for good (RFC 8030): it is dropped."""
CONTACT = "mailto:racko@localhost"
"""The contact the pushes' VAPID claims name by default (``racko serve --push-contact``)."""
log = logging.getLogger("racko.serve")


@dataclass(frozen=True)
class Device:
    """One browser's push subscription: where to send, its keys (base64url), and the language its pushes are in."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def subscription(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def valid_key(value: Any, longest: int) -> bool:
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=")
    return isinstance(value, str) and 0 < len(value) <= longest and set(value) <= alphabet


class Pushes:
    """The push room: subscriptions in the store, the keys that sign, and the turns this process saw."""

    def __init__(
        self,
        store: TableStore,
        players: Players,
        keys: PushKeys | None,
        *,
        contact: str = CONTACT,
        reach: PushReach | None = None,
    ) -> None:
        self.store = store
        self.keys = keys
        """``None``: pushes are off (the pages offer none)."""
        self.contact = contact
        self.reach = reach or PushReach()
        """Where a push may go (:mod:`.reach`): checked when a device subscribes, and again before each push."""
        self._senders = ThreadPoolExecutor(SENDERS, thread_name_prefix="racko-push")
        players.forgetting.append(self._forget)

    # --- devices -------------------------------------------------------------------------------------

    def subscribe(self, player_id: str, device: Device) -> int:
        """Keep ``device``'s subscription for ``player_id`` (a subscription another player had moves to this one:
        one browser, one person); how many devices the player has now.  Blocks."""

        def work(rows: Rows) -> int:
            rows("DELETE FROM racko_push_devices WHERE endpoint = ?", (device.endpoint,))
            rows(
                "INSERT INTO racko_push_devices (endpoint, player_id, p256dh, auth, lang, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (device.endpoint, player_id, device.p256dh, device.auth, device.lang, time.time()),
            )
            kept = rows(
                "SELECT endpoint FROM racko_push_devices WHERE player_id = ? ORDER BY created DESC, endpoint",
                (player_id,),
            )
            for (endpoint,) in kept[DEVICES_PER_PLAYER:]:
                rows("DELETE FROM racko_push_devices WHERE endpoint = ?", (endpoint,))
            return min(len(kept), DEVICES_PER_PLAYER)

        return self.store.run(work)

    def unsubscribe(self, player_id: str, endpoint: str) -> int:
        """Drop one of the player's devices; how many they have left.  Blocks."""

        def work(rows: Rows) -> int:
            rows("DELETE FROM racko_push_devices WHERE endpoint = ? AND player_id = ?", (endpoint, player_id))
            return len(rows("SELECT endpoint FROM racko_push_devices WHERE player_id = ?", (player_id,)))

        return self.store.run(work)

    def devices_of(self, player_id: str) -> list[Device]:
        rows = self.store.read(
            lambda rows: rows(
                "SELECT endpoint, p256dh, auth, lang FROM racko_push_devices WHERE player_id = ? ORDER BY endpoint",
                (player_id,),
            )
        )
        return [Device(str(endpoint), str(p256dh), str(auth), str(lang)) for endpoint, p256dh, auth, lang in rows]

    def drop(self, endpoint: str) -> None:
        """A subscription its push service says is gone."""
        self.store.run(lambda rows: rows("DELETE FROM racko_push_devices WHERE endpoint = ?", (endpoint,)))

    @staticmethod
    def _forget(rows: Rows, player_id: str) -> None:
        """Part of forgetting a player (the players room's transaction): their devices go (the foreign key's cascade
        does the same; said here so that it never depends on it)."""
        rows("DELETE FROM racko_push_devices WHERE player_id = ?", (player_id,))

    # --- turns ---------------------------------------------------------------------------------------

    async def turn(self, news: TurnNews) -> None:
        """A person's turn began (``news.what`` is ``"turn"``) or a turn-based turn is running out (``"reminder"``,
        its deadline said); if no page of that person shows this table, their devices get a push (sent in a worker
        thread).  Never blocks."""
        if self.keys is None or news.connected or news.player_id is None:  # the page says it, or nobody to push to
            return
        deadline = news.deadline
        hours = None if news.what != "reminder" or deadline is None else max(1, round((deadline - time.time()) / 3600))
        table_id, others = news.table_id, list(news.others)
        self.tell(news.player_id, lambda lang: turn_message(lang, table_id, others, hours))

    def tell(self, player_id: str, message_of: Callable[[str], dict[str, str]]) -> None:
        """A push another room words (a tournament's "your round starts"): ``message_of(lang)`` is the message in a
        device's language (``title``, ``body``, ``url``, ``tag``), sent to each of the player's devices in a worker
        thread.  Never blocks."""
        if self.keys is not None:
            self._senders.submit(self._push_to, player_id, message_of)

    def _push_to(self, player_id: str, message_of: Callable[[str], dict[str, str]]) -> None:
        try:
            devices = self.devices_of(player_id)
        except Exception as error:
            log.warning("push: the devices of a player could not be read: %s", type(error).__name__)
            return
        for device in devices:
            self.send(device, message_of(device.lang))

    def send(self, device: Device, message: dict[str, str]) -> bool:
        """One push to one device (blocks: a worker thread's); whether the push service took it.  The endpoint is
        checked again first (:meth:`PushReach.check`: a name may lead elsewhere now) and the push goes to the address
        checked; an endpoint this server no longer sends to at all is dropped.  A subscription the service says is
        gone (404, 410) is dropped; any other failure is logged with the service's host only (an endpoint is a
        secret of its device)."""
        from pywebpush import WebPushException, webpush  # loaded by the first push, not by every server start

        keys = self.keys
        if keys is None:
            return False
        host = urlsplit(device.endpoint).hostname
        try:
            target = self.reach.check(device.endpoint)
        except Unreachable as refusal:
            if refusal.code in ("not-https", "not-a-push-service", "bad-endpoint"):
                self.drop(device.endpoint)
            log.warning("push: no push to %s: %s", host, refusal.code)
            return False
        try:
            webpush(
                device.subscription(),
                json.dumps(message, ensure_ascii=False),
                vapid_private_key=_vapid(keys),
                vapid_claims={"sub": self.contact},
                ttl=TTL_SECONDS,
                headers={"Urgency": "high"},
                requests_session=cast(Any, _Pinned(self.reach, target)),
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in DEAD:
                self.drop(device.endpoint)
                log.info("push: a device's subscription at %s is gone: dropped", host)
            elif status is not None and 300 <= status < 400:
                log.warning("push: %s answered a redirect (%s): not followed", host, status)
            else:
                log.warning("push: %s refused a push (%s)", host, status)
            return False
        except Exception as error:
            log.warning("push: no push reached %s (%s)", host, type(error).__name__)
            return False
        return True

    def close(self) -> None:
        """Stop sending: pushes not started yet are dropped (the server is stopping)."""
        self._senders.shutdown(wait=False, cancel_futures=True)


def turn_message(lang: str, table_id: str, others: list[str], hours: int | None = None) -> dict[str, str]:
    """What a "your turn" push says, in the device's language (English for one this server does not speak), and the
    table it opens: the service worker shows ``title`` and ``body``, and opens ``url`` (a path of this site).
    ``hours``: a turn-based turn's reminder, with the hours left."""
    words = _words().get(lang) or _words()["en"]
    body = words["push_turn_body"] if hours is None else words["push_reminder_body"].replace("{hours}", str(hours))
    return {
        "title": words["push_turn_title"],
        "body": body.replace("{names}", ", ".join(others)),
        "url": f"/t/{table_id}",
        "tag": f"turn-{table_id}",
    }


class _Pinned:
    """What pywebpush takes for a requests session: its one POST goes to the address checked (:class:`Target`),
    never a second look-up of the name, never a redirect."""

    def __init__(self, reach: PushReach, target: Target) -> None:
        self.reach = reach
        self.target = target

    def post(self, endpoint: str, *, data: bytes | None = None, headers: Any = None, **_: Any) -> _Answered:
        return _Answered(self.reach.post(self.target, data or b"", dict(headers or {})))


class _Answered:
    """An :class:`Answer` as pywebpush reads a response."""

    def __init__(self, answer: Answer) -> None:
        self.status_code = answer.status
        self.reason = answer.reason
        self.text = answer.text
        self.headers: dict[str, str] = {}


@functools.cache
def _words() -> dict[str, dict[str, str]]:
    return room_words_of("push")


@functools.lru_cache(maxsize=4)
def _vapid(keys: PushKeys) -> Any:
    """The signer of the pushes' VAPID claims, made once per key pair."""
    from py_vapid import Vapid

    return Vapid.from_pem(keys.private_pem)
