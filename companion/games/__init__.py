"""Rules engines, one module per game, registered by name."""
