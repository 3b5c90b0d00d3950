CREATE TABLE IF NOT EXISTS racko_listings (
    table_id TEXT PRIMARY KEY,
    listing TEXT NOT NULL,
    open_seats INTEGER NOT NULL,
    over INTEGER NOT NULL,
    updated {REAL} NOT NULL
);
