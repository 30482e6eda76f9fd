"""What each confirmation dialog says before a decision: the question and the files it touches.

No Textual here: ``Decisions`` puts these in a ``ConfirmScreen``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from curator.diffview.visible import visible
from curator.review.marks import hunks_of, total_hunks

if TYPE_CHECKING:
    from curator.proposals.revision import Selection
    from curator.review.entries import Entry

# Files listed in a confirmation dialog; past this it says how many more (the diff shows them all).
DIALOG_FILES = 12


def files(entry: Entry) -> Text:
    """The files a decision touches, with each one's drift when the report says it."""
    text = Text()
    subject = entry.report.subject if entry.report else None
    changes: list[tuple[str, str, str | None]]
    if subject is not None:
        changes = [(v.change.op, v.change.path, v.drift) for v in subject.changes]
    else:  # a kept verdict: its changes, without drift per file
        changes = [(op, path, None) for op, path in (entry.kept.changes if entry.kept else ())]
    for op, path, drift in changes[:DIALOG_FILES]:
        text.append(f"  {op:6} ", style="bold")
        text.append(visible(path))
        if drift:
            text.append(f"  [{drift}]")
        text.append("\n")
    if len(changes) > DIALOG_FILES:
        text.append(f"  … and {len(changes) - DIALOG_FILES:,} more ({len(changes):,} files; the diff shows each)\n")
    return text


def apply(entry: Entry) -> tuple[str, Text]:
    body = Text("Curator checks it again, applies it to the work tree and commits exactly these files:\n\n")
    body.append_text(files(entry))
    body.append("\nYour own staged and unstaged work stays as it is.")
    return f"Apply “{entry.title}”?", body


def apply_kept(entry: Entry, sel: Selection, marked: int) -> tuple[str, Text]:
    changes = entry.report.subject.changes if entry.report and entry.report.subject else []
    counts = {v.change.path: hunks_of(v) for v in changes}
    body = Text(
        "Only what you marked becomes a new revision of this proposal (its author kept, you recorded as "
        "its reviewer). Curator validates it, applies it and commits exactly its files; this proposal is "
        "marked superseded. The rest is not applied.\n\n"
    )
    for part in sel.describe(counts).split("; "):
        body.append(f"  keep {visible(part)}\n")
    body.append("\nYour own staged and unstaged work stays as it is.")
    return f"Apply {marked} of {total_hunks(changes)} hunks of “{entry.title}”?", body


def reject(entry: Entry) -> tuple[str, Text]:
    body = Text("The vault stays as it is; a rejected event records your reason.\n\n")
    body.append_text(files(entry))
    return f"Reject “{entry.title}”?", body


def rebase(entry: Entry) -> tuple[str, Text]:
    body = Text(
        "A 3-way merge of the proposal's base, its change and the files as they are now becomes a new "
        "revision (a new proposal) that waits here for review. This one is marked superseded. "
        "Nothing is applied.\n\n"
    )
    body.append_text(files(entry))
    return f"Rebase “{entry.title}”?", body


def request_changes(entry: Entry) -> tuple[str, Text]:
    body = Text(
        "The proposal stays in the queue and the vault as it is; a changes-requested event records "
        "your reason. Its author reads it (kp_proposal, as your words) and answers with a new revision, "
        "which supersedes this one.\n"
    )
    return f"Ask for changes to “{entry.title}”?", body
