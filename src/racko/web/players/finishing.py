"""A player's record of finishing (issue 39, docs/PLAYING.md): of the games that count (rated games, and games at
public tables: quick play and the lobby's; never a friends' casual table, never a computer player's seat), how many
they finished and how many they left (their seat was gone at the end: its clock played for them, or they resigned or
left).  Quick play reads it twice: a repeat leaver waits a short, growing time before it seats them again, and a
player may wait only for people who finish most of their games.  Pure but for the two functions over rows."""

from __future__ import annotations

from dataclasses import dataclass

from racko.web.store import Rows

FINISHERS_SHARE = 0.8
"""A finisher finishes at least this share of the games that count (shown with the quick play choice)."""
TRUSTED_UNTIL = 5
"""A player with fewer games that count than this is a finisher whatever they did: a newcomer's first game left
says little."""
RECENT_SECONDS = 24 * 3600.0
"""The games left that make quick play wait are those of the last day."""
FREE_LEAVES = 1
"""Games left in a day that cost no wait (a closed laptop, a lost connection)."""
FIRST_WAIT_SECONDS = 120.0
"""The wait after the first game left beyond the free ones; each further one doubles it …"""
LONGEST_WAIT_SECONDS = 3600.0
"""… up to an hour, counted from the last game left (lichess's play-ban, gentler)."""


@dataclass(frozen=True)
class Finishing:
    """A player's games that count: finished, left, and when they left the games of the last day."""

    finished: int
    left: int
    recent_leaves: tuple[float, ...] = ()

    @property
    def played(self) -> int:
        return self.finished + self.left

    @property
    def share(self) -> float | None:
        """The share of the games that count that the player finished (``None``: no such game yet)."""
        return self.finished / self.played if self.played else None

    @property
    def finisher(self) -> bool:
        """Whether quick play's "only players who finish their games" takes them."""
        share = self.share
        return self.played < TRUSTED_UNTIL or share is None or share >= FINISHERS_SHARE

    def wait_seconds(self, now: float) -> float:
        """How long quick play waits before seating them again (0: it seats them now)."""
        recent = sorted(at for at in self.recent_leaves if now - at < RECENT_SECONDS)
        costly = len(recent) - FREE_LEAVES
        if costly <= 0:
            return 0.0
        wait = min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2.0 ** (costly - 1))
        return max(0.0, recent[-1] + wait - now)

    def json(self) -> dict[str, object]:
        share = self.share
        return {
            "finished": self.finished,
            "left": self.left,
            "share": None if share is None else round(share, 3),
            "finisher": self.finisher,
        }


def note_game(rows: Rows, game_id: str, left_by_player: dict[str, bool], at: float) -> None:
    """A game that counts ended: per player seated in it, whether they left it (once per game and player)."""
    for player_id, left in left_by_player.items():
        rows(
            "INSERT INTO racko_finishing (player_id, game_id, left_game, at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (player_id, game_id) DO NOTHING",
            (player_id, game_id, int(left), at),
        )


def finishing_of(rows: Rows, player_id: str, now: float) -> Finishing:
    counts = rows(
        "SELECT left_game, COUNT(*) FROM racko_finishing WHERE player_id = ? GROUP BY left_game", (player_id,)
    )
    by_kind = {int(left): int(count) for left, count in counts}
    recent = rows(
        "SELECT at FROM racko_finishing WHERE player_id = ? AND left_game = 1 AND at > ? ORDER BY at",
        (player_id, now - RECENT_SECONDS),
    )
    return Finishing(by_kind.get(0, 0), by_kind.get(1, 0), tuple(float(at) for (at,) in recent))


def counts(setup: dict[str, object]) -> bool:
    """Whether a table's games count: rated, or public (quick play, the lobby); a friends' casual table never."""
    return bool(setup.get("rated")) or bool(setup.get("public"))
