"""Tide arithmetic for the shore notes (documented with autodoc)."""


def tide_height(amplitude: float, hours: float, period: float = 12.42) -> float:
    """Height of the tide, in metres, some hours after high water.

    :param amplitude: Half the tidal range, in metres.
    :param hours: Hours since high water.
    :param period: Hours from one high water to the next.
    :returns: The height above mean sea level.
    """
    import math

    return amplitude * math.cos(2 * math.pi * hours / period)
