"""The side screen: draws a read-only snapshot with pygame and decides nothing."""
