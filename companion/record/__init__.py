"""The game record: append-only journal, resume, replay and text export."""
