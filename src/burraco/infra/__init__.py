"""The server's plumbing, knowing no game: settings, the database (engines, migrations), rate
windows shared through Redis, HTTP request bounds and security headers."""
