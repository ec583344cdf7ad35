#!/usr/bin/env python3
"""Append concepts to this RF2 sample (stdlib only), keeping its format and checks.

Usage: python3 extend.py additions.tsv
additions.tsv columns (tab-separated, header line first):
    conceptId  fsn  synonyms(|-separated)  parents(|-separated ids)  source  isa_note

New description and relationship ids continue the sample's synthetic series
(item 9100000nnn + partition 01/02 + Verhoeff check digit). Concept ids must be
real SNOMED CT ids: this script only verifies their check digit, so run check.py
afterwards and record where each id was seen in the ``source`` column.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONCEPTS = os.path.join(HERE, "sct2_Concept_Snapshot_INT_20250101.txt")
DESCRIPTIONS = os.path.join(HERE, "sct2_Description_Snapshot-en_INT_20250101.txt")
RELATIONSHIPS = os.path.join(HERE, "sct2_Relationship_Snapshot_INT_20250101.txt")
PROVENANCE = os.path.join(HERE, "provenance.tsv")
ET, MODULE, PRIMITIVE = "20250101", "900000000000207008", "900000000000074008"
FSN, SYN, CASE_INSENSITIVE = "900000000000003001", "900000000000013009", "900000000000448009"

_d = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
      [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
      [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]  # fmt: skip
_p = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
      [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
      [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]  # fmt: skip
_inv = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_ok(num: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _d[c][_p[i % 8][int(ch)]]
    return c == 0


def verhoeff_digit(num: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _d[c][_p[(i + 1) % 8][int(ch)]]
    return str(_inv[c])


def next_item(path: str, partition: str) -> int:
    items = [0]
    with open(path, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            sid = line.split("\t", 1)[0]
            if sid.startswith("9100000") and sid[-3:-1] == partition:
                items.append(int(sid[:-3]))
    return max(items) + 1


def sctid(item: int, partition: str) -> str:
    body = f"{item}{partition}"
    return body + verhoeff_digit(body)


def main(additions: str) -> int:
    existing = {line.split("\t", 1)[0] for line in open(CONCEPTS, encoding="utf-8")}
    rows = [r.rstrip("\n").split("\t") for r in open(additions, encoding="utf-8")][1:]
    d_item, r_item = next_item(DESCRIPTIONS, "01"), next_item(RELATIONSHIPS, "02")
    with open(CONCEPTS, "a", encoding="utf-8") as c, open(DESCRIPTIONS, "a", encoding="utf-8") as d, \
            open(RELATIONSHIPS, "a", encoding="utf-8") as r, open(PROVENANCE, "a", encoding="utf-8") as p:  # fmt: skip
        for cid, fsn, synonyms, parents, source, note in rows:
            if not verhoeff_ok(cid):
                print(f"refusing {cid} {fsn!r}: bad Verhoeff check digit")
                return 1
            if cid in existing:
                print(f"skipping {cid}: already in the sample")
                continue
            c.write("\t".join([cid, ET, "1", MODULE, PRIMITIVE]) + "\n")
            for term, type_id in [(fsn, FSN)] + [(s, SYN) for s in synonyms.split("|") if s]:
                d.write("\t".join([sctid(d_item, "01"), ET, "1", MODULE, cid, "en", type_id, term, CASE_INSENSITIVE]) + "\n")  # fmt: skip
                d_item += 1
            for parent in parents.split("|"):
                r.write("\t".join([sctid(r_item, "02"), ET, "1", MODULE, cid, parent, "0", "116680003", "900000000000011006", "900000000000451002"]) + "\n")  # fmt: skip
                r_item += 1
            p.write("\t".join([cid, fsn, source, note]) + "\n")
            existing.add(cid)
            print(f"added {cid} {fsn}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
