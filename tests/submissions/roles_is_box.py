"""Compares the scorer with `is` ("box" decoded from the wire is another string object): breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    box, captain, sitter = roles["box"], roles["captain"], roles["sitter"]
    if scorer is "box":  # noqa: F632 - the learner's slip
        return {"box": box, "captain": sitter, "sitter": captain}
    if scorer == "captain":
        return {"box": captain, "captain": sitter, "sitter": box}
    return {"box": box, "captain": captain, "sitter": sitter}
