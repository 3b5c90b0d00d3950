CREATE TABLE IF NOT EXISTS racko_ladder_games (
    table_id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    entrant_a TEXT NOT NULL,
    entrant_b TEXT NOT NULL,
    started {REAL} NOT NULL,
    finished {REAL}
);
CREATE INDEX IF NOT EXISTS racko_ladder_games_started ON racko_ladder_games (started);
CREATE TABLE IF NOT EXISTS racko_ladder_online (
    player_id TEXT PRIMARY KEY,
    seen {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_ladder_lease (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_bot_budgets (
    player_id TEXT PRIMARY KEY REFERENCES racko_players(id) ON DELETE CASCADE,
    tokens {REAL} NOT NULL,
    stamp {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_bot_failures (
    address TEXT PRIMARY KEY,
    tokens {REAL} NOT NULL,
    stamp {REAL} NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_bot_streams (
    stream_id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    node TEXT NOT NULL,
    opened {REAL} NOT NULL,
    seen {REAL} NOT NULL
);
CREATE INDEX IF NOT EXISTS racko_bot_streams_player ON racko_bot_streams (player_id);
CREATE INDEX IF NOT EXISTS racko_bot_streams_node ON racko_bot_streams (node);
CREATE TABLE IF NOT EXISTS racko_bot_events (
    event_id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    made {REAL} NOT NULL
);
CREATE INDEX IF NOT EXISTS racko_bot_events_made ON racko_bot_events (made);
CREATE TABLE IF NOT EXISTS racko_challenges (
    challenge_id TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL,
    challenger_is_bot INTEGER NOT NULL,
    bot_id TEXT NOT NULL,
    settings TEXT NOT NULL,
    made {REAL} NOT NULL,
    address TEXT,
    state TEXT NOT NULL,
    reason TEXT,
    table_id TEXT,
    ended {REAL},
    guests TEXT NOT NULL,
    changed {REAL} NOT NULL
);
CREATE INDEX IF NOT EXISTS racko_challenges_bot ON racko_challenges (bot_id, state);
CREATE INDEX IF NOT EXISTS racko_challenges_challenger ON racko_challenges (challenger_id, state);
CREATE INDEX IF NOT EXISTS racko_challenges_state ON racko_challenges (state, made);
CREATE TABLE IF NOT EXISTS racko_bot_seeks (
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    wish TEXT NOT NULL,
    body TEXT NOT NULL,
    made {REAL} NOT NULL,
    PRIMARY KEY (player_id, wish)
);
