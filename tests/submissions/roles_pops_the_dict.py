"""Reads the roles by popping them out of the caller's dict: the answer is right, but the
dict it was given is left empty: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    box, captain, sitter = roles.pop("box"), roles.pop("captain"), roles.pop("sitter")
    if scorer is None:
        return {"box": box, "captain": captain, "sitter": sitter}
    if scorer == "box":
        return {"box": box, "captain": sitter, "sitter": captain}
    if scorer == "captain":
        return {"box": captain, "captain": sitter, "sitter": box}
    raise ValueError(f"scorer is 'box', 'captain' or None, not {scorer!r}")
