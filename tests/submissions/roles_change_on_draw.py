"""Treats a drawn hand as a loss for the box: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    box, captain, sitter = roles["box"], roles["captain"], roles["sitter"]
    if scorer == "box":
        return {"box": box, "captain": sitter, "sitter": captain}
    return {"box": captain, "captain": sitter, "sitter": box}
