"""The classroom table: ``box-gin serve``, one server for a class, three browsers to a game.

- :mod:`box_gin.classroom.store`: the one module that touches the database (SQLite, WAL);
- :mod:`box_gin.classroom.tables`: the tables, their seats and matches, every action
  through the engine and into the store;
- :mod:`box_gin.classroom.pages`: the pages, rendered on the server with the kit's views,
  from each seat's own view;
- :mod:`box_gin.classroom.server`: the Starlette app, its websockets, cookies and
  ``serve``.

It sits above the engine and the views, beside the checker (``docs/classroom.md``).
Nothing here is imported by the rest of the kit but the command line.
"""
