"""Shapes in the plane, with Google-style docstrings.

The functions and classes here only exist to be documented.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Default tolerance when comparing lengths.
TOLERANCE: float = 1e-9


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
        The Euclidean distance, or its square when `squared` is true.

    Raises:
        ValueError: If a coordinate is not finite.

    Examples:
        >>> distance(3, 4)
        5.0
    """
    for value in (x1, y1, x2, y2):
        if not math.isfinite(value):
            raise ValueError(f"not finite: {value!r}")
    d2 = (x1 - x2) ** 2 + (y1 - y2) ** 2
    return d2 if squared else math.sqrt(d2)


@dataclass(frozen=True)
class Circle:
    """A circle given by its centre and radius.

    Attributes:
        x: Horizontal coordinate of the centre.
        y: Vertical coordinate of the centre.
        radius: Radius, not negative.
    """

    x: float
    y: float
    radius: float = 1.0

    def area(self) -> float:
        """Return the area of the circle.

        Returns:
            The area, `pi * radius ** 2`.
        """
        return math.pi * self.radius**2

    def scaled(self, factor: float) -> Circle:
        """Return a copy scaled by `factor`.

        Args:
            factor: Scale factor for the radius.

        Returns:
            A new circle; this one is unchanged.

        Raises:
            ValueError: If `factor` is negative.
        """
        if factor < 0:
            raise ValueError("factor must not be negative")
        return Circle(self.x, self.y, self.radius * factor)
