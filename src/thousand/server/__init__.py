"""The game server: a lobby (REST), tables (WebSocket), storage (SQLite or PostgreSQL)."""
