"""The bot ladder (``racko serve --bot-ladder``, docs/BOTS.md): round the clock it seats the bot accounts that are
online (an open event stream) and have room for a game in rated 2-player games, against each other and against
racko's own levels (the ladder's anchors), within the operator's limits (games a day, games at once, per entrant).
Their ratings move on the bots' board (the ratings room).

Who meets whom is :func:`pairings`, a pure function of the entrants, the meetings of the last day and a seeded
random source, so that a test drives it with a simulated clock.  :class:`Ladder` runs it: each process notes its
bots that are online in the store, and one process at a time (a lease in the store) pairs them and makes their
tables through the table room's one way to make a table (a bot sits by the ladder's consent: it is online while the
operator runs the ladder)."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from racko import bots
from racko.rules import VARIANTS, variant
from racko.web.bots.api import BotEvents
from racko.web.clock import PRESETS
from racko.web.players import FORGOTTEN_SUBJECT, Player, bots_in, games_under_way, names_in, subject_of
from racko.web.ratings import BOTS, Ratings
from racko.web.store import Rows, SchemaPart
from racko.web.table import Asker, BotAccountSeat, Consent, LevelSeat, TableNews, TableRequest, TableRoom

log = logging.getLogger("racko.serve")

SCHEMA = SchemaPart.of_room("bots")
"""The ladder's games (who met whom, when; a table's id), the bots each process has online, and the pairing lease."""

DAY = 86400.0
LEVEL = "bot:"
"""A racko level's entrant is named as the ratings name it (``bot:LEVEL``); a bot account's as ``p:ID``."""
MEETING_COST = 1.0
"""What one more meeting in the last day costs a pair: the ladder's first concern is that no pair meets much more
often than others."""
RATING_STEP = 400.0
"""Shown rating points apart that cost as much as one more meeting: among pairs that met as often, the closest in
rating are preferred."""
REMATCH_COST = 2.0
"""What it costs to seat two entrants again whose last game was against each other."""
PATIENCE_SECONDS = 60.0
"""An entrant free for less than this only meets a partner it has met at most once more than the one it has met
least (among all entrants, busy or not): it waits a little for a fresher partner rather than meet the same one
again and again.  After this it takes the best partner free."""
JITTER = 0.5
"""The random part of a pair's cost (seeded), so that equals are drawn in no fixed order."""
STALE_SECONDS = 6 * 3600.0
"""A ladder game not known to have finished this long after it started no longer counts as under way (its table was
lost)."""
TOLD_KEPT = 10000
"""The finished tables this process remembers having noted (so that a table's later changes write nothing)."""


@dataclass(frozen=True)
class LadderLimits:
    """The operator's settings (``racko serve --ladder-…``)."""

    games_per_day: int = 100
    """Ladder games an entrant starts in any 24 hours (a rolling day), at most."""
    games_at_once: int = 1
    """Games under way an entrant may have (a bot's other tables count too), at most."""
    variant: str = "classic"
    clock: str = "fast"
    levels: tuple[str, ...] = ("easy", "medium", "hard")
    """racko's levels that enter the ladder (each under the same limits as a bot)."""
    target: int | None = None
    """The games' target score (None: the variant's own)."""
    every: float = 5.0
    """Seconds between two pairings."""
    seed: int | None = None
    """The seed of the pairings' random part (None: a random one)."""

    def check(self) -> None:
        """``ValueError`` saying what is wrong with these settings."""
        if self.variant not in VARIANTS or 2 not in VARIANTS[self.variant].player_counts:
            games = [name for name, chosen in VARIANTS.items() if 2 in chosen.player_counts]
            raise ValueError(f"the ladder plays a 2-player variant: {', '.join(games)}, not {self.variant!r}")
        if self.clock not in PRESETS:
            raise ValueError(f"the ladder's clock is {', '.join(PRESETS)}, not {self.clock!r}")
        playing = bots.playing(self.variant)
        for level in self.levels:
            if level not in playing:
                raise ValueError(f"racko has no level {level!r} that plays {self.variant}: {', '.join(playing)}")
        if self.games_per_day < 1 or self.games_at_once < 1 or self.every <= 0:
            raise ValueError("the ladder's games a day, games at once and seconds between pairings are positive")


@dataclass(frozen=True)
class Entrant:
    """One on the ladder now: a bot account online (``p:ID``) or a racko level (``bot:LEVEL``)."""

    subject: str
    rating: int
    """On the bots' board, as shown."""
    playing: int
    """Games under way."""
    today: int
    """Ladder games started in the last 24 hours."""
    waiting: float = float("inf")
    """Seconds since its last ladder game finished (none: forever)."""

    @property
    def level(self) -> bool:
        return self.subject.startswith(LEVEL)


Pair = frozenset[str]


def pairings(
    entrants: Sequence[Entrant],
    met: Mapping[Pair, int],
    last_opponent: Mapping[str, str],
    limits: LadderLimits,
    rng: random.Random,
) -> list[tuple[str, str]]:
    """Who plays whom now: each entrant with room for a game (under both limits) in at most one new game, never two
    levels together (a game with no bot account rates nobody).  The entrants who played fewest games today choose
    first (equals in a random order); each takes the free partner of least cost: :data:`MEETING_COST` for each
    meeting in the last day (``met``), the rating gap over :data:`RATING_STEP`, :data:`REMATCH_COST` if their last
    games were against each other, and up to :data:`JITTER` at random; a partner met more than once more often than
    the entrant's least met one waits unless both have been free :data:`PATIENCE_SECONDS`."""
    free = [
        entrant
        for entrant in entrants
        if entrant.playing < limits.games_at_once and entrant.today < limits.games_per_day
    ]
    rng.shuffle(free)
    free.sort(key=lambda entrant: (entrant.today, entrant.playing))
    least = {
        entrant.subject: min(
            (
                met.get(frozenset((entrant.subject, other.subject)), 0)
                for other in entrants
                if other.subject != entrant.subject and not (entrant.level and other.level)
            ),
            default=0,
        )
        for entrant in free
    }

    def fresh(entrant: Entrant, other: Entrant) -> bool:
        times = met.get(frozenset((entrant.subject, other.subject)), 0)
        patient = min(entrant.waiting, other.waiting) >= PATIENCE_SECONDS
        return patient or times <= min(least[entrant.subject], least[other.subject]) + 1

    taken: set[str] = set()
    chosen: list[tuple[str, str]] = []
    for entrant in free:
        if entrant.subject in taken:
            continue
        partners = [
            other
            for other in free
            if other.subject != entrant.subject
            and other.subject not in taken
            and not (entrant.level and other.level)
            and fresh(entrant, other)
        ]
        if not partners:
            continue

        def cost(other: Entrant, entrant: Entrant = entrant) -> float:
            pair = frozenset((entrant.subject, other.subject))
            rematch = last_opponent.get(entrant.subject) == other.subject or (
                last_opponent.get(other.subject) == entrant.subject
            )
            return (
                MEETING_COST * met.get(pair, 0)
                + abs(entrant.rating - other.rating) / RATING_STEP
                + (REMATCH_COST if rematch else 0.0)
                + JITTER * rng.random()
            )

        partner = min(partners, key=cost)
        taken |= {entrant.subject, partner.subject}
        chosen.append((entrant.subject, partner.subject))
    return chosen


@dataclass(frozen=True)
class Standing:
    """What the store says of the ladder now: each entrant's games under way and of the last day, the meetings of
    the last day, each entrant's last opponent and when its last game finished."""

    playing: dict[str, int]
    today: Counter[str]
    met: Counter[Pair]
    last_opponent: dict[str, str]
    names: dict[str, str]
    """Bot accounts' names by subject (a table's seat invites ``bot-account:NAME``)."""
    free_since: dict[str, float]
    """When each entrant's latest ladder game of the last day finished."""


class Ladder:
    """The ladder in this process: notes the bots online here, and pairs the ladder when it holds the lease."""

    def __init__(
        self,
        hub: TableRoom,
        events: BotEvents,
        ratings: Ratings,
        limits: LadderLimits,
    ) -> None:
        limits.check()
        self.hub = hub
        self.store = hub.store
        self.events = events
        self.ratings = ratings
        self.limits = limits
        self.rng = random.Random(limits.seed)
        self.holder = f"{self.store.node or 'racko'}-{secrets.token_hex(4)}"
        self.finished_told: set[str] = set()
        hub.tables_changed.subscribe(self._table_changed)

    async def run(self) -> None:
        """Pair the ladder every :attr:`LadderLimits.every` seconds, for as long as the server runs."""
        while True:
            try:
                await self.tick()
            except Exception as error:  # a database away a moment: the next pairing tries again
                log.warning("the bot ladder could not pair: %s", error)
            await asyncio.sleep(self.limits.every)

    async def tick(self) -> list[str]:
        """Note the bots online here; if this process holds the lease, pair the ladder and make the tables: their
        ids."""
        now = self.hub.now()
        online = sorted(player for player, streams in self.events.streams.items() if streams)
        if not await asyncio.to_thread(self.note_online, online, now):
            return []
        standing, entrants = await asyncio.to_thread(self.standing, now)
        made: list[str] = []
        for first, second in pairings(entrants, standing.met, standing.last_opponent, self.limits, self.rng):
            seats = [first, second]
            self.rng.shuffle(seats)
            table = await self._start(seats, standing.names, now)
            if table is not None:
                made.append(table)
        if made:
            log.info(
                "the bot ladder made %d tables (%d entrants, %d bots online)",
                len(made),
                len(entrants),
                len(standing.names),
            )
        return made

    def note_online(self, online: list[str], now: float) -> bool:
        """The bots online in this process noted in the store; whether this process holds the pairing lease now
        (taken if free or run out, kept by renewing it: a process that stops loses it within three pairings)."""

        def work(rows: Rows) -> bool:
            for player in online:
                rows(
                    "INSERT INTO racko_ladder_online (player_id, seen) VALUES (?, ?) "
                    "ON CONFLICT (player_id) DO UPDATE SET seen = excluded.seen",
                    (player, now),
                )
            held = rows(
                "INSERT INTO racko_ladder_lease (name, holder, until) VALUES ('pairing', ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until "
                "WHERE racko_ladder_lease.until < ? OR racko_ladder_lease.holder = ? RETURNING holder",
                (self.holder, now + 3 * self.limits.every, now, self.holder),
            )
            return bool(held)

        return self.store.run(work)

    def standing(self, now: float) -> tuple[Standing, list[Entrant]]:
        """The ladder as the store has it, and its entrants now: the bot accounts seen online by any process in the
        last three pairings, and the levels."""

        def work(rows: Rows) -> Standing:
            rows("DELETE FROM racko_ladder_games WHERE started < ?", (now - 2 * DAY,))
            rows("DELETE FROM racko_ladder_online WHERE seen < ?", (now - DAY,))
            seen = [
                str(player)
                for (player,) in rows(
                    "SELECT player_id FROM racko_ladder_online WHERE seen >= ?", (now - 3 * self.limits.every,)
                )
            ]
            accounts = sorted(bots_in(rows, seen))  # a bot forgotten or no bot any more is left out
            names = names_in(rows, accounts)
            playing = {subject_of(player): count for player, count in games_under_way(rows, accounts).items()}
            today: Counter[str] = Counter()
            met: Counter[Pair] = Counter()
            last: dict[str, tuple[float, str]] = {}
            free_since: dict[str, float] = {}
            for entrant_a, entrant_b, started, finished in rows(
                "SELECT entrant_a, entrant_b, started, finished FROM racko_ladder_games WHERE started >= ? "
                "ORDER BY started",
                (now - DAY,),
            ):
                a, b = str(entrant_a), str(entrant_b)
                today.update((a, b))
                met[frozenset((a, b))] += 1
                last[a], last[b] = (float(started), b), (float(started), a)
                if finished is not None:
                    for subject in (a, b):
                        free_since[subject] = max(free_since.get(subject, 0.0), float(finished))
                elif now - float(started) < STALE_SECONDS:
                    for subject in (a, b):
                        if subject.startswith(LEVEL):  # a bot's games under way are counted at its tables
                            playing[subject] = playing.get(subject, 0) + 1
            return Standing(
                playing,
                today,
                met,
                {subject: opponent for subject, (_, opponent) in last.items()},
                {subject_of(player): name for player, name in names.items()},
                free_since,
            )

        standing = self.store.run(work)
        subjects = [*standing.names, *(LEVEL + level for level in self.limits.levels)]
        rated = self.ratings.shown_ratings(self.limits.variant, subjects, BOTS)
        entrants = [
            Entrant(
                subject,
                rated[subject],
                standing.playing.get(subject, 0),
                standing.today[subject],
                now - standing.free_since[subject] if subject in standing.free_since else float("inf"),
            )
            for subject in subjects
        ]
        return standing, entrants

    async def _start(self, seats: list[str], names: Mapping[str, str], now: float) -> str | None:
        """A rated table for these two entrants, made through the table room's one way to make a table (a bot
        account sits by the ladder's consent: it is online while the ladder runs), and noted as the ladder's; its
        id (None: it could not be made, said in the log)."""
        options = {"target": self.limits.target} if self.limits.target is not None else {}
        try:
            request = TableRequest(
                variant(self.limits.variant).rules(2, **options),
                tuple(
                    BotAccountSeat(Player(seat[2:], names[seat]), Consent.LADDER)
                    if seat in names
                    else LevelSeat(seat[len(LEVEL) :])
                    for seat in seats
                ),
                Asker.of_room("ladder"),
                rated=True,
                clock=self.limits.clock,
            )
            made = await self.hub.create(request)
        except Exception as error:  # a bot at its games at once meanwhile (a Refusal), or the database away a moment
            log.warning("the bot ladder could not seat %s: %s", " and ".join(seats), error)
            return None
        table = str(made["table"])
        await asyncio.to_thread(
            self.store.run,
            lambda rows: rows(
                "INSERT INTO racko_ladder_games (table_id, variant, entrant_a, entrant_b, started, finished) "
                "VALUES (?, ?, ?, ?, ?, NULL)",
                (table, self.limits.variant, seats[0], seats[1], now),
            ),
        )
        return table

    async def _table_changed(self, news: TableNews) -> None:
        """A game over at a table with a bot account (told by the process that plays it): a ladder game there is
        finished, and its entrants have room for another."""
        table_id = news.table_id
        if not news.over or table_id in self.finished_told:
            return
        if not any(spec.bot_account for spec in news.setup.seats):
            return
        if len(self.finished_told) >= TOLD_KEPT:
            self.finished_told.clear()  # forgetting only costs a harmless second update
        self.finished_told.add(table_id)
        now = self.hub.now()
        await asyncio.to_thread(
            self.store.run,
            lambda rows: rows(
                "UPDATE racko_ladder_games SET finished = ? WHERE table_id = ? AND finished IS NULL", (now, table_id)
            ),
        )


def forget_on_ladder(rows: Rows, player_id: str) -> None:
    """A player forgotten (in the players room's transaction, whether or not this server runs the ladder now): not
    online any more, and a forgotten player in the ladder's meetings."""
    rows("DELETE FROM racko_ladder_online WHERE player_id = ?", (player_id,))
    subject = subject_of(player_id)
    rows("UPDATE racko_ladder_games SET entrant_a = ? WHERE entrant_a = ?", (FORGOTTEN_SUBJECT, subject))
    rows("UPDATE racko_ladder_games SET entrant_b = ? WHERE entrant_b = ?", (FORGOTTEN_SUBJECT, subject))
