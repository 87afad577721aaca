"""Tools for the shore."""


def survey(pool: str, depth: float = 1.5) -> int:
    """Count the creatures in a pool.

    :param pool: The pool name.
    :param depth: How deep to look.
    :returns: How many were found.
    """
    return 0
