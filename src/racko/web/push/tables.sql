CREATE TABLE IF NOT EXISTS racko_push_devices (
    endpoint TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES racko_players(id) ON DELETE CASCADE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    created {REAL} NOT NULL
);
CREATE INDEX IF NOT EXISTS racko_push_devices_player ON racko_push_devices (player_id);
