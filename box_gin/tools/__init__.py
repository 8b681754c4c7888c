"""Tools for maintaining the project: executing notebooks, serving the app."""
