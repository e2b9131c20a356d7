"""The root of every expected failure, so the command line can turn any of them into one sentence.

Each layer has its own family below this root (rules, vision, panel, record). They are
``ValueError`` subclasses, as python-chess does, and their message names the bad input and, where
it helps, what the user can do about it.
"""


class CompanionError(ValueError):
    """An expected failure whose message is a sentence meant for the user."""
