"""Unpacks roles.values(), trusting the keys to come box, captain, sitter: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    box, captain, sitter = roles.values()
    if scorer == "box":
        return {"box": box, "captain": sitter, "sitter": captain}
    if scorer == "captain":
        return {"box": captain, "captain": sitter, "sitter": box}
    return dict(roles)
