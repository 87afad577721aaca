"""Geometry helpers used by the fixture site's API page."""

from __future__ import annotations

import math


def distance(x1: float, y1: float, x2: float = 0.0, y2: float = 0.0, *,
             squared: bool = False) -> float:
    """Return the distance between two points.

    Args:
        x1: X coordinate of the first point.
        y1: Y coordinate of the first point.
        x2: X coordinate of the second point. Defaults to the origin.
        y2: Y coordinate of the second point.
        squared: Return the squared distance (no square root).

    Returns:
        The Euclidean distance, or its square when ``squared`` is true.

    Raises:
        ValueError: If a coordinate is not finite.

    Example:
        >>> distance(3, 4)
        5.0
    """
    for value in (x1, y1, x2, y2):
        if not math.isfinite(value):
            raise ValueError(f"not finite: {value!r}")
    d2 = (x1 - x2) ** 2 + (y1 - y2) ** 2
    return d2 if squared else math.sqrt(d2)


class Point:
    """A point in the plane.

    :param x: Horizontal coordinate.
    :param y: Vertical coordinate.
    :param label: Optional name shown in ``repr``.
    """

    #: Number of dimensions.
    dimensions: int = 2

    def __init__(self, x: float, y: float, label: str | None = None) -> None:
        self.x = x
        self.y = y
        self.label = label

    def moved(self, dx: float = 0.0, dy: float = 0.0) -> Point:
        """Return a copy shifted by ``(dx, dy)``.

        :param dx: Shift along x.
        :param dy: Shift along y.
        :returns: A new point; this one is unchanged.
        :rtype: Point
        :raises TypeError: If a shift is not a number.

        .. versionadded:: 1.1
        """
        return Point(self.x + dx, self.y + dy, self.label)

    def distance_to(self, other: Point) -> float:
        """Distance to *other*.

        .. deprecated:: 1.2
           Use :func:`distance` instead.
        """
        return distance(self.x, self.y, other.x, other.y)
