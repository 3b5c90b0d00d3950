CREATE TABLE IF NOT EXISTS racko_tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    made_by TEXT,
    created {REAL} NOT NULL,
    starts {REAL} NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL,
    next_at {REAL},
    ends {REAL},
    finished {REAL},
    note TEXT,
    seed INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS racko_tournaments_status ON racko_tournaments (status, starts);
CREATE INDEX IF NOT EXISTS racko_tournaments_made_by ON racko_tournaments (made_by, created);
CREATE TABLE IF NOT EXISTS racko_tournament_entrants (
    tournament_id TEXT NOT NULL,
    entrant TEXT NOT NULL,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    player_id TEXT,
    kind TEXT NOT NULL,
    level TEXT,
    state TEXT NOT NULL,
    partner TEXT,
    team TEXT,
    busy INTEGER,
    since {REAL} NOT NULL,
    PRIMARY KEY (tournament_id, entrant)
);
CREATE INDEX IF NOT EXISTS racko_tournament_entrants_player ON racko_tournament_entrants (player_id);
CREATE TABLE IF NOT EXISTS racko_tournament_games (
    tournament_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,
    table_id TEXT,
    seats TEXT NOT NULL,
    sides TEXT NOT NULL,
    started {REAL} NOT NULL,
    made INTEGER NOT NULL,
    finished {REAL},
    result TEXT,
    PRIMARY KEY (tournament_id, number)
);
CREATE UNIQUE INDEX IF NOT EXISTS racko_tournament_games_table ON racko_tournament_games (table_id);
CREATE TABLE IF NOT EXISTS racko_tournament_lease (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until {REAL} NOT NULL
)
