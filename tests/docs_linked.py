#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Every file under docs/ is named by a page: what no page links is removed (issue 57, "A light
docs/"; docs/style.md, "Data and provenance").

A page is a tracked Markdown file: README.md at the top or any docs/**/*.md. Every other file that
git tracks under docs/ must be named by a page whose folder holds it: the page's folder is the
file's folder or one above it (README.md at the top holds everything). The rule, all of it:

  1. a Markdown link from the page resolves to the file: [text](a/b.json);
  2. the page writes the file's path, whole, from the top (docs/a/b.json) or from the page's
     folder (a/b.json; for a file beside the page, its name: b.json);
  3. the page writes the file's folder that way (docs/a, a/) and, anywhere, the file's name;
  4. the page writes a pattern for a family of files that matches what 2 or 3 would accept
     (the path, or the name where the page names the folder). A pattern is a word of the page (backticks and punctuation around it
     left out) with a placeholder and a letter or digit besides: `*` for any part of a name,
     `NNN` (three or more capital N) for digits, `NAME` or `<word>` for a name or part of one,
     `{a,b}` for either; ending in `/`, it names every file below the folders it matches.
     Examples: `iter-NNN/` (every file of each iteration), `m-NAME.json`,
     `docs/match-report/tc-5+0.05-safety.*`.

Runs under way (RUNS_UNDER_WAY) are let through whole: other processes write their files now,
under names their scripts choose; each is listed with the page that describes it.

Usage: docs_linked.py REPO. Exit 0 when every file is named, 1 otherwise (the unnamed files
listed), 77 (skipped) where REPO is not a git work tree. The check first tries itself on a
made-up docs/ with files no page names, which it must refuse.
"""
import os
import re
import subprocess
import sys

# Folders whose runs are being played as this is written (their play.sh or sprt-iter.sh names
# the outputs by variables), each with the page that describes it. Take a folder off this list
# once its run has ended and its page names what it kept.
RUNS_UNDER_WAY = {
    "docs/search-ii/": "docs/search-ii.md",
}

NAME = r"[A-Za-z0-9_.+\-/]+"
LINK = re.compile(r"\]\(<?([^)\s>#]+)")
PLACEHOLDER = re.compile(r"\*|N{3,}(?![a-z])|<\w[\w-]*>|NAME|\{([^{}]*,[^{}]*)\}")


def pattern_regex(pat):
    """The regex a family pattern stands for; None where it holds no placeholder or no literal
    letter or digit besides them (a bare `*` or `<run>` names nothing)."""
    if not PLACEHOLDER.search(pat) or not re.search(r"[A-Za-z0-9]", PLACEHOLDER.sub("", pat)):
        return None
    out, i = "", 0
    while i < len(pat):
        m = PLACEHOLDER.match(pat, i)
        if not m:
            out += re.escape(pat[i])
            i += 1
            continue
        tok = m.group(0)
        if tok == "*":
            out += r"[^/]*"
        elif tok.startswith("{"):
            out += "(?:" + "|".join(re.escape(a.strip()) for a in m.group(1).split(",")) + ")"
        elif tok.startswith("N") and tok != "NAME":
            out += r"[0-9]+"
        else:
            out += r"[^/]+"
        i = m.end()
    return re.compile(out + (r".+" if pat.endswith("/") else ""))


class Page:
    """What one page names: link targets, whole paths written in its text, family patterns."""

    def __init__(self, path, text):
        self.path, self.folder = path, os.path.dirname(path)
        self.links = {os.path.normpath(os.path.join(self.folder, m.group(1)))
                      for m in LINK.finditer(text)}
        self.words = set()
        for tok in re.findall(NAME, text):
            tok = tok.rstrip(".")
            parts = tok.split("/")
            self.words.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
        self.patterns = [rx for w in set(text.split())
                         if (rx := pattern_regex(w.strip("`.,;:()[]|'\""))) is not None]

    def names(self, path):
        """True when this page names the file at path (a path from the top)."""
        if self.folder and not path.startswith(self.folder + "/"):
            return False
        rel = os.path.relpath(path, self.folder) if self.folder else path
        ways = [path, rel]
        if os.path.dirname(path) in self.words or os.path.dirname(rel) in self.words:
            ways.append(os.path.basename(path))  # the page names the file's folder (rule 3)
        if path in self.links or any(w in self.words for w in ways):
            return True
        return any(rx.fullmatch(w) for rx in self.patterns for w in ways)


def unnamed(pages, files):
    """The files (not pages, not in a run under way) that no page names, in order."""
    left = []
    for path in files:
        if path.endswith(".md") or any(path.startswith(d) for d in RUNS_UNDER_WAY):
            continue
        if not any(p.names(path) for p in pages):
            left.append(path)
    return left


def runs_problems(pages):
    """Each run under way is listed with a page that exists."""
    have = {p.path for p in pages}
    return [f"{page}, the page of {folder} (a run under way), is not a tracked page"
            for folder, page in RUNS_UNDER_WAY.items() if page not in have]


def tracked(repo):
    """The tracked files under docs/ and README.md; None without git or a work tree."""
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--", "README.md", "docs"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sorted(p for p in out.decode("utf-8", "replace").split("\0")
                  if p and os.path.isfile(os.path.join(repo, p)))


def self_test():
    """The check refuses a made-up docs/ with stray files and accepts each way of naming."""
    pages = [Page("README.md", "See [the report](docs/r.md) and docs/r/top.txt."),
             Page("docs/r.md", "Games: [pgn](r/a.pgn.gz), `r/b.json`, r/c.txt. And `r/iter-NNN/`."),
             Page("docs/r/README.md", "`m-NAME.json`, `d*.log`, `{x,y}.csv`, e.png and `*`."),
             Page("docs/r/sub/README.md", "Nothing."),
             Page("docs/t.md", "In `r/sub/`: f.txt and `g-*.json`.")]
    files = ["docs/r/top.txt", "docs/r/a.pgn.gz", "docs/r/b.json", "docs/r/c.txt",
             "docs/r/iter-007/x.csv", "docs/r/m-ob8.json", "docs/r/d1700.log", "docs/r/y.csv",
             "docs/r/e.png", "docs/r/sub/f.txt", "docs/r/sub/g-1.json"]
    if unnamed(pages, files):
        return f"it refused named files: {unnamed(pages, files)}"
    stray = ["docs/q/b.json", "docs/r/scratch.json", "docs/r/ac.txt", "docs/r/iter-x/y.csv",
             "docs/r/sub/e.png", "docs/r/z.csv", "docs/u/f.txt",
             "docs/u/g-1.json"]
    if unnamed(pages, files + stray) != stray:
        return f"it let stray files through: {sorted(set(stray) - set(unnamed(pages, stray)))}"
    return None


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: docs_linked.py REPO")
    err = self_test()
    if err:
        sys.exit(f"docs_linked: the check fails its own test: {err}")
    files = tracked(argv[1])
    if files is None:
        print("docs_linked: not a git work tree, skipped")
        return 77
    pages = [Page(p, open(os.path.join(argv[1], p), encoding="utf-8", errors="replace").read())
             for p in files if p.endswith(".md")]
    left = unnamed(pages, files)
    bad = runs_problems(pages)
    for line in bad:
        print(line)
    if left:
        print(f"{len(left)} files under docs/ that no page names (link them from the page of "
              f"their experiment, or remove them):")
        print("\n".join(f"  {p}" for p in left))
    if left or bad:
        return 1
    n = sum(1 for p in files if p.startswith("docs/") and not p.endswith(".md"))
    print(f"docs_linked: {n} files under docs/, each named by a page or in a run under way "
          f"({len(RUNS_UNDER_WAY)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
