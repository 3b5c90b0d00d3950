CREATE TABLE IF NOT EXISTS racko_players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created {REAL} NOT NULL,
    seen {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_player_keys (
    key_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    created {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_transfers (
    code_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    expires {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    since {REAL} NOT NULL,
    variant TEXT NOT NULL,
    names TEXT NOT NULL,
    over INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS racko_seats_player ON racko_seats (player_id);
CREATE TABLE IF NOT EXISTS racko_hidden (
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    hidden_id TEXT NOT NULL,
    PRIMARY KEY (player_id, hidden_id)
);
CREATE TABLE IF NOT EXISTS racko_forgotten_seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS racko_finishing (
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    left_game INTEGER NOT NULL,
    at {REAL} NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX IF NOT EXISTS racko_finishing_left ON racko_finishing (player_id, left_game, at);
CREATE TABLE IF NOT EXISTS racko_turns (
    table_id TEXT PRIMARY KEY,
    to_act INTEGER,
    due {REAL}
);
CREATE TABLE IF NOT EXISTS racko_bot_accounts (
    player_id TEXT PRIMARY KEY REFERENCES racko_players(id) ON DELETE CASCADE,
    token_hash TEXT UNIQUE,
    created {REAL} NOT NULL
);
