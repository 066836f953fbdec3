"""The repository speaks of the game and the code, never of the work that built it.

Terms:
- tracked file: a path `git ls-files` lists; a binary one (a NUL byte, or not UTF-8) is skipped.
- work talk: words that only make sense beside a tracker or a to-do list, which a reader of the
  repository does not have: an issue or a defect by its number, or an issue quoted as the source
  of a rule; a work item's numbered points (one or several, joined by "and" or commas); the list
  of what makes a work item done; the design file that is not in the repository (the project's
  own is docs/spec.md, cited by section); and the computer a figure was measured on (its count
  of cores, or the words for "here"). A benchmark's report prints its figures; the code's words
  do not say where they were taken.
- game points are not work talk: a cribbage point's number comes before it ("2 points", "a game
  is 121 points") or it lists a rule's values ("game points 2 / 3 / 3"); only a point followed
  by its number, and not a game's, numbers part of a work item.

The patterns are built from pieces (`said`), so this module's own text never matches them.
"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def said(*pieces: str) -> str:
    """The pieces joined: how a pattern or an example is written here without being one."""
    return "".join(pieces)


WORK_TALK = {
    "a numbered issue": re.compile(said(r"\biss", r"ues?\s*#?\d"), re.IGNORECASE),
    "the issue as a source": re.compile(
        said(r"\b(?:the ", "iss", r"ue(?:'s| asks| says| allowed| wants)|in the ", "iss", r"ue)\b"),
        re.IGNORECASE,
    ),
    "the brief as a source": re.compile(said(r"\b(?:in|as) the br", r"ief\b"), re.IGNORECASE),
    "a numbered defect": re.compile(said(r"\bdef", r"ects?\s*#?\d"), re.IGNORECASE),
    "a numbered point of a work item": re.compile(
        said(r"(?<!game )\bpo", r"ints?\s+\d+(?!\s*/)"), re.IGNORECASE
    ),
    "a done-when list": re.compile(said(r"\bdone", r"\s+when\b"), re.IGNORECASE),
    "the design file outside the repository": re.compile(said(r"\bDES", r"IGN\.md\b")),
    "the machine a figure was taken on": re.compile(
        "|".join(
            [
                said(r"\bon\s+this\s+mach", r"ine\b"),
                said(r"\b(?:two|\d+)-co", r"re\b"),
                said(r"\b\d+\s+busy\s+co", r"res?\b"),
                said(r"\bmach", r"ine\s+has\s+\w+\s+cores\b"),
            ]
        ),
        re.IGNORECASE,
    ),
}


def work_talk(text: str) -> list[tuple[int, str, str]]:
    """Each (line number, kind, words) of work talk in `text`, in the order found."""
    found = []
    for kind, pattern in WORK_TALK.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((line, kind, " ".join(match.group(0).split())))
    return sorted(found)


def tracked_files() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of tracked files to read")
    return [name for name in listed.decode("utf-8").split("\0") if name]


def text_of(name: str) -> str | None:
    """The file's text, or None for a binary file (or one gone from the work tree)."""
    try:
        data = (ROOT / name).read_bytes()
    except FileNotFoundError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize(
    "words",
    [
        said("Iss", "ue 16, po", "int 4: the audit log"),
        said("(iss", "ue 13, def", "ects 5 and 6)"),
        said("iss", "ues 8, 17 and 18"),
        said("(Iss", "ue #12)"),
        said("The iss", "ue's case: a judge files a claim"),
        said("as the iss", "ue asks"),
        said("Additions to the API in the iss", "ue, all backward compatible"),
        said("(iss", "ue 15,\npo", "ints 4 and 6)"),
        said("po", "int 9"),
        said("Iss", "ue 5's \"do", 'ne when"'),
        said("Do", "ne\nwhen"),
        said("(DES", 'IGN.md "The pot and payouts")'),
        said("33 s on this mach", "ine (2 busy co", "res)"),
        said("on the club's 2-co", "re machine"),
        said("the mach", "ine has two cores"),
        said("a two-co", "re laptop"),
        said("as the br", "ief says"),
    ],
)
def test_work_talk_is_found(words):
    assert work_talk(words), words


@pytest.mark.parametrize(
    "words",
    [
        "game points 2 / 3 / 3",
        "game points 2, 3, 3",
        "2 points for a pair; a game is 121 points",
        "the 5 points of a fifteen and a pair",
        "points for a win, then games won, then spread",
        "the caller scores the lesser of N and the points overlooked",
        'docs/spec.md "The pot and payouts"',
        "System check identified no issues (0 silenced).",
        "a one-time link is issued to the player",
        "def _link_issue(",
        "create .venv with the machine's python3",
        "the rule texts are not beside the checkout",
        "a round of 100 players under 0.3 s",
        "steps 2 and 6; round 2 of 6; table 5",
        "done. When the round is withdrawn",
    ],
)
def test_game_and_code_words_are_not_work_talk(words):
    assert work_talk(words) == []


def test_no_tracked_file_speaks_of_the_work_that_built_it():
    offences = []
    for name in tracked_files():
        text = text_of(name)
        if text is None:
            continue
        offences += [f"{name}:{line}: {kind}: {words!r}" for line, kind, words in work_talk(text)]
    assert not offences, "\n".join(offences)
