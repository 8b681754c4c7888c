"""Grading where instructors already grade: nbgrader, Gradescope, the LMS, and a class
report made from a gradebook.

- :mod:`.gradebook` reads the gradebook JSON that ``box-gin check --json`` writes;
- :mod:`.nbgrader` makes an nbgrader course from the kata notebooks, and grades a kata
  inside nbgrader's kernel with the checker's judges and hidden tests;
- :mod:`.gradescope` writes a Gradescope autograder bundle;
- :mod:`.lms` turns a gradebook into the CSV that Canvas or Moodle imports;
- :mod:`.report` draws a class report as one self-contained HTML page.
"""
