CREATE TABLE IF NOT EXISTS racko_games (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rated INTEGER NOT NULL,
    finished {REAL} NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS racko_game_seats (
    game_id TEXT NOT NULL REFERENCES racko_games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    subject TEXT NOT NULL,
    place INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS racko_game_seats_subject ON racko_game_seats (subject);
CREATE TABLE IF NOT EXISTS racko_ratings (
    subject TEXT NOT NULL,
    variant TEXT NOT NULL,
    mu {REAL} NOT NULL,
    sigma {REAL} NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (subject, variant)
);
CREATE TABLE IF NOT EXISTS racko_rating_history (
    subject TEXT NOT NULL,
    variant TEXT NOT NULL,
    game_id TEXT NOT NULL,
    mu {REAL} NOT NULL,
    sigma {REAL} NOT NULL,
    at {REAL} NOT NULL,
    PRIMARY KEY (subject, variant, game_id)
);
CREATE TABLE IF NOT EXISTS racko_bot_ratings (
    subject TEXT NOT NULL,
    variant TEXT NOT NULL,
    mu {REAL} NOT NULL,
    sigma {REAL} NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (subject, variant)
);
CREATE TABLE IF NOT EXISTS racko_bot_rating_history (
    subject TEXT NOT NULL,
    variant TEXT NOT NULL,
    game_id TEXT NOT NULL,
    mu {REAL} NOT NULL,
    sigma {REAL} NOT NULL,
    at {REAL} NOT NULL,
    PRIMARY KEY (subject, variant, game_id)
);
