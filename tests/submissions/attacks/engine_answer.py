"""Not an attack, a shortcut: call the engine's own answers."""
from box_gin.melds import best_melds  # refused: the engine's answer


def is_set(cards):
    from box_gin import is_set as engine_is_set

    return engine_is_set(cards)


def card_value(card):
    return card.value


def parse_card(text):
    from box_gin import Card

    return Card.parse(text)
