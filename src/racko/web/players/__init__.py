"""The players room: who a person is (a name, and a key in a cookie: :mod:`.identity`), names that pose as others
(:mod:`.names`), the networks a rated seat plays from (:mod:`.addresses`), and the player's own routes
(:mod:`.routes`: naming, another device, hiding a name, forgetting everything)."""

from racko.web.players.addresses import MARKS_PER_SEAT, SHARED, AddressMarks, shares_a_network
from racko.web.players.finishing import FINISHERS_SHARE, Finishing, counts, note_game
from racko.web.players.identity import (
    BOT_MARK,
    COOKIE,
    COOKIE_DAYS,
    FORGOTTEN,
    FORGOTTEN_SUBJECT,
    ONLINE_SECONDS,
    SCHEMA,
    Player,
    Players,
    bots_in,
    clean_name,
    games_under_way,
    key_hash,
    names_in,
    online_in,
    subject_of,
)
from racko.web.players.names import FORGOTTEN_WORDS, Unfit, bot_name_reserved, posing_as, reserved_like, unfit_name
from racko.web.players.requests import keep_player, player_of, required_player
from racko.web.players.routes import PlayerRoutes

__all__ = [
    "BOT_MARK",
    "COOKIE",
    "COOKIE_DAYS",
    "FINISHERS_SHARE",
    "FORGOTTEN",
    "FORGOTTEN_SUBJECT",
    "FORGOTTEN_WORDS",
    "MARKS_PER_SEAT",
    "ONLINE_SECONDS",
    "SCHEMA",
    "SHARED",
    "AddressMarks",
    "Finishing",
    "Player",
    "PlayerRoutes",
    "Players",
    "Unfit",
    "bot_name_reserved",
    "bots_in",
    "clean_name",
    "counts",
    "games_under_way",
    "keep_player",
    "key_hash",
    "names_in",
    "note_game",
    "online_in",
    "player_of",
    "posing_as",
    "required_player",
    "reserved_like",
    "shares_a_network",
    "subject_of",
    "unfit_name",
]
