"""A time counted from each of several events: "6 months after PCI and 12 months after an ACS".

Each event comes with its own wait, so the list names the events a patient may have had, one
wait for each: the events are alternatives (an OR label; the development golds group them so,
every row of the kind), the waits stay apart. "and" between the pairs does not make the events
a set every patient must have.
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.drafts import Draft, share_or_label
from cardio_assets.logic.measurements import TIME_UNITS, find_measurements

_AFTER = re.compile(r"\s+(?:after|following|since)\s+(?:(?:an?|the)\s+)?", re.IGNORECASE)
# one more event sharing a wait: "after PCI or CABG", "after PCI, CABG …"
_OR_NEXT = re.compile(r"\s*,?\s*(?:or|and/or)\s+(?:(?:an?|the)\s+)?|\s*,\s*(?=\w)", re.IGNORECASE)
# what may stand between one event and the next pair's time: a comma, "and"/"or", and the
# word the first time was introduced by ("for at least 6 months after A, and for 12 months
# after B")
_BETWEEN_PAIRS = re.compile(
    r"\s*,?\s*(?:(?:and|or)\s+)?(?:(?:for|until|to)\s+)?(?:(?:at\s+least|only)\s+)?",
    re.IGNORECASE,
)


def group_events_of_windows(text: str, drafts: list[Draft], group_counter: list[int]) -> None:
    """Give the events of a chain of "<time> after <event>" pairs one OR label."""
    pairs: list[tuple[int, int, list[Draft]]] = []  # (time start, events' end, events)
    for found in find_measurements(text):
        if found.unit not in TIME_UNITS:
            continue
        after = _AFTER.match(text, found.end)
        event = _event_at(text, after.end(), drafts) if after else None
        if after is None or event is None:
            continue
        events, end = [event], after.end() + len(event.text)
        # "6 months after PCI or CABG and …": the events that share one wait come along
        while (more := _OR_NEXT.match(text, end)) and (
            other := _event_at(text, more.end(), drafts)
        ):
            events.append(other)
            end = more.end() + len(other.text)
        pairs.append((found.start, end, events))
    chain: list[Draft] = []
    for i, (start, _, events) in enumerate(pairs):
        joined = i > 0 and _BETWEEN_PAIRS.fullmatch(text, pairs[i - 1][1], start) is not None
        if not joined:
            _group(chain, group_counter)
            chain = []
        chain.extend(events)
    _group(chain, group_counter)


def _event_at(text: str, at: int, drafts: list[Draft]) -> Draft | None:
    """The longest draft whose span begins right where the event is printed."""
    found = [
        draft
        for draft in drafts
        if draft.role != "ClinicalParameter" and draft.text and text.startswith(draft.text, at)
    ]
    return max(found, key=lambda draft: len(draft.text), default=None)


def _group(chain: list[Draft], group_counter: list[int]) -> None:
    if len({id(d) for d in chain}) >= 2:
        share_or_label(chain, group_counter)
