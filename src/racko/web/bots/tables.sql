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
