"""Updates the roles dict in place and returns it: breaks next_roles."""

BREAKS = ["next_roles"]


def next_roles(roles, scorer):
    if scorer == "box":
        roles["captain"], roles["sitter"] = roles["sitter"], roles["captain"]
    elif scorer == "captain":
        roles["box"], roles["captain"], roles["sitter"] = (
            roles["captain"], roles["sitter"], roles["box"])
    return roles
