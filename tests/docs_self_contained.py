#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Hansu stands on its own: every link and every repository path that the README and docs/ name
# exists inside the repository, and no file refers to the workplace folder beside the checkout
# (its reference set) except the oracle sync check (tests/oracle_sync.sh).
# Usage: tests/docs_self_contained.py [REPO_ROOT]
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
TOP = ("engine/", "selfplay/", "tuner/", "scripts/", "tests/", "data/", "docs/", "fuzz/", ".ci/")
ALLOWED_SHARED = {"tests/oracle_sync.sh"}
SHARED = b"../" + b"shared"  # spelt in two so that this file does not name it
SKIP_DIRS = {".git", "runs", "out"}


def repo_files():
    """Tracked files when this is a git checkout, else every file outside build folders."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True, check=True)
        files = [f for f in out.stdout.splitlines() if os.path.isfile(os.path.join(ROOT, f))]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, names in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        found += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return found


def doc_problems(path):
    """Markdown links and backticked repository paths in one document that do not resolve."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    base = os.path.dirname(path)
    bad = []
    for m in re.finditer(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        if not os.path.exists(os.path.join(ROOT, base, target)):
            bad.append(f"{path}: link '{target}' does not resolve inside the repository")
    for m in re.finditer(r"`([^`\s]+)`", text):
        p = m.group(1).rstrip(".,:;")
        if not p.startswith(TOP) or re.search(r"[<>*{}$]|NNN|…", p):
            continue
        if not os.path.exists(os.path.join(ROOT, p)):
            bad.append(f"{path}: path '{p}' does not exist in the repository")
    return bad


def main():
    files = repo_files()
    problems = []
    docs = ["README.md"] + sorted(f for f in files if f.startswith("docs/") and f.endswith(".md")
                                  and not f.startswith("docs/train-example/"))
    for d in docs:
        if os.path.exists(os.path.join(ROOT, d)):
            problems += doc_problems(d)
    for f in files:
        if f in ALLOWED_SHARED:
            continue
        try:
            data = open(os.path.join(ROOT, f), "rb").read()
        except OSError:
            continue
        if SHARED in data:
            problems.append(f"{f}: refers to {SHARED.decode()} (only tests/oracle_sync.sh may)")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"docs_self_contained: {len(docs)} documents and {len(files)} files checked, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
