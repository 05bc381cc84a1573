#!/usr/bin/env python3
"""Prints how many times glibc's malloc was called in a callgrind output file.

Usage: callgrind_mallocs.py CALLGRIND_OUT

Sums the `calls=` counts of every call site whose callee is `malloc`, so a
change can be checked for allocations as exactly as for instructions.
"""
import re
import sys


def malloc_calls(path):
    names = {}
    callee = None
    total = 0
    with open(path) as lines:
        for line in lines:
            match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if match:
                if match.group(3):
                    names[match.group(2)] = match.group(3).strip()
                if match.group(1) == "cfn":
                    callee = names.get(match.group(2))
                continue
            match = re.match(r"calls=(\d+)", line)
            if match and callee == "malloc":
                total += int(match.group(1))
    return total


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print(malloc_calls(sys.argv[1]))
