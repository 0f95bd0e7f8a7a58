#!/usr/bin/env python3
"""Names the tests a `swift test` log shows started and never finished (swift-testing's
"◇ Test f() started." without "✔/✘ Test f() passed/failed", XCTest's "Test Case '…' started."
without its end): what a run that hung or was killed was waiting in. Usage:
    Scripts/unfinished-tests.py LOG"""
import collections
import re
import sys

started, finished = collections.Counter(), collections.Counter()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if m := re.search(r"◇ Test (?!run |case )(.+) started\.", line):
        started[m.group(1)] += 1
    elif m := re.search(r"[✔✘] Test (?!run )(.+?)(?: with \d+ test cases?)? (?:passed|failed)", line):
        finished[m.group(1)] += 1
    elif m := re.search(r"Test Case '(.+)' started", line):
        started[m.group(1)] += 1
    elif m := re.search(r"Test Case '(.+)' (?:passed|failed)", line):
        finished[m.group(1)] += 1
for name, count in sorted(started.items()):
    if count > finished[name]:
        print(f"  {name}")
