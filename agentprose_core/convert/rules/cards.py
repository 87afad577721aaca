"""sphinx-design cards with ``:link:``: the whole card is a link whose own text is
hidden from readers (``a.sd-stretched-link.sd-hide-link-text``), which the chrome rules
would drop with the card's only link."""

from __future__ import annotations

from agentprose_core.convert.tree import ElementIndex, classes, drop_tree

__all__ = ["rewrite_link_cards"]


def rewrite_link_cards(index: ElementIndex) -> None:
    """sphinx-design cards with ``:link:``: the whole card is a link whose own text is
    hidden from readers. The card's title becomes the link (or, untitled, the link is
    shown), before the hidden text goes with the chrome."""
    for link in index.classes("sd-hide-link-text", tags=("a",)):
        card = next((el for el in link.iterancestors() if "sd-card" in classes(el)), None)
        if card is None or not link.get("href"):
            continue
        title = next((el for el in card.iter() if "sd-card-title" in classes(el)), None)
        # The link itself stays (the page's index knows it); only its class hid it.
        link.set("class", " ".join(name for name in classes(link) if name != "sd-hide-link-text"))
        if title is None or next(title.iter("a"), None) is not None:
            continue  # shown as it is: its text names the target
        for child in list(link):
            drop_tree(child)
        link.text, title.text = title.text, None
        link.tail = None
        link.extend(list(title))
        title.append(link)
