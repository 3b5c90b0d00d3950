CREATE TABLE IF NOT EXISTS racko_runs (
    node TEXT PRIMARY KEY,
    starts INTEGER NOT NULL,
    unclean INTEGER NOT NULL,
    started {REAL} NOT NULL,
    seen {REAL} NOT NULL,
    running INTEGER NOT NULL
);
