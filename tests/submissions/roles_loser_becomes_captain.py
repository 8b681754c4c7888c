"""After the box loses, the old box becomes captain: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    box, captain, sitter = roles["box"], roles["captain"], roles["sitter"]
    if scorer == "box":
        return {"box": box, "captain": sitter, "sitter": captain}
    if scorer == "captain":
        return {"box": captain, "captain": box, "sitter": sitter}
    return dict(roles)
