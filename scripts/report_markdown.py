# SPDX-License-Identifier: MIT
"""The small Markdown subset that scripts/train_report.py writes (report.md), as HTML for
report.html: headings, paragraphs, lists, tables, code blocks and image lines."""
import html
import re


def inline(text):
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)


def markdown_html(lines, image):
    """HTML of the Markdown that scripts/train_report.py writes: headings, paragraphs, lists,
    tables, code blocks and image lines. image(name) gives an image's src (a data: URI)."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append("<pre>" + html.escape("\n".join(lines[i + 1:j])) + "</pre>")
            i = j + 1
            continue
        m = re.match(r"(#{1,6}) (.*)", line)
        if m:
            n = len(m.group(1))
            out.append(f"<h{n}>{inline(m.group(2))}</h{n}>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            body = [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in rows[0]) +
                       "</tr>" + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) +
                                         "</tr>" for r in body) + "</table>")
            continue
        elif re.fullmatch(r"!\[([^\]]*)\]\(([^)]+)\)", line.strip()):
            alt, name = re.fullmatch(r"!\[([^\]]*)\]\(([^)]+)\)", line.strip()).groups()
            src = image(name)
            out.append(f'<p><img alt="{html.escape(alt)}" src="{src}"></p>' if src else
                       f"<p>(plot {html.escape(name)} not drawn)</p>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        elif line.strip():
            para = [line]
            while (i + 1 < len(lines) and lines[i + 1].strip() and
                   not re.match(r"(#|\||```|- |!\[)", lines[i + 1])):
                i += 1
                para.append(lines[i])
            out.append("<p>" + inline(" ".join(para)) + "</p>")
        i += 1
    return "\n".join(out)
