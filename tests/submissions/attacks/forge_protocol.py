"""Forge the child's messages: find the nonce and the send function, claim ready early,
send results for requests never made, then answer with garbage."""
import gc


def _send():
    for obj in gc.get_objects():
        if callable(obj) and getattr(obj, "__name__", "") == "send":
            return obj
    return None


send = _send()
if send is not None:
    send({"t": "ready", "errors": [], "functions": ["is_set", "card_value"] * 1000,
          "blocked": []})
    for i in range(100):
        send({"t": "result", "id": i, "outcomes": [{"ok": True}] * 250})


def is_set(cards):
    if send is not None:
        send({"t": "result", "id": 1, "outcomes": "all passed"})
    return None


def card_value(card):
    return "ten"
