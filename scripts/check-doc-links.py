#!/usr/bin/env python3
"""Checks the relative links and #anchors of the project's Markdown pages, the way GitHub renders them.

    scripts/check-doc-links.py               # README.md and docs/*.md
    scripts/check-doc-links.py FILE.md ...   # only these

For every link in a page (inline, reference-style, images, HTML href/src) that is not external:
- the target file or directory must exist (relative to the page; a leading / means the repository root);
- an #anchor into a Markdown page (or the page itself) must match one of its headings, with GitHub's rules:
  the heading's text, lower-cased, without punctuation other than - and _, spaces turned into -, and -1, -2, ...
  appended to repeated headings; explicit <a name="..."> / id="..." anchors count too.
Links inside fenced code blocks and inline code are ignored. External links (http:, https:, mailto:) are not
fetched. Prints one line per broken link and exits 1 if there is any, else prints a summary and exits 0.
Python 3.8+, standard library only.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTERNAL = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')  # http:, https:, mailto:, ...
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX = re.compile(r'^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$')
SETEXT = re.compile(r'^ {0,3}(=+|-+)[ \t]*$')
INLINE_LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+["\'(][^)]*)?\)')
REF_DEF = re.compile(r'^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
HTML_LINK = re.compile(r'<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["\']([^"\']*)["\']', re.IGNORECASE)
HTML_ANCHOR = re.compile(r'<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["\']([^"\']+)["\']', re.IGNORECASE)
INLINE_CODE = re.compile(r'(`+)(.+?)\1')


def strip_code_blocks(lines):
    """Yields (line number, line) for lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(lines, 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            continue
        if fence is not None:
            if line.strip().startswith(fence) and set(line.strip()) <= {fence[0]}:
                fence = None
            continue
        yield number, line


def slug(heading):
    """GitHub's anchor for a heading's Markdown source."""
    text = INLINE_CODE.sub(lambda m: m.group(2).strip(), heading)
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # [text](url) -> text
    text = re.sub(r'<[^>]+>', '', text)  # HTML tags
    text = re.sub(r'(?<!\w)_(.+?)_(?!\w)', r'\1', text)  # _emphasis_ (intra-word _ stays)
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors(path, cache={}):
    """The anchors a Markdown page offers."""
    if path not in cache:
        lines = path.read_text(encoding='utf-8').splitlines()
        found, seen = set(), {}
        previous = None
        for _, line in strip_code_blocks(lines):
            heading = None
            match = ATX.match(line)
            if match:
                heading = match.group(2)
            elif previous is not None and previous.strip() and SETEXT.match(line) \
                    and not ATX.match(previous) and not previous.lstrip().startswith(('|', '-', '*', '>')):
                heading = previous.strip()
            if heading is not None:
                base = slug(heading)
                count = seen.get(base, 0)
                found.add(base if count == 0 else f'{base}-{count}')
                seen[base] = count + 1
            found.update(a for a in HTML_ANCHOR.findall(line))
            previous = line
        cache[path] = found
    return cache[path]


def links(path):
    """(line number, target) of every link in a page, outside code."""
    lines = path.read_text(encoding='utf-8').splitlines()
    for number, line in strip_code_blocks(lines):
        text = INLINE_CODE.sub('', line)
        for pattern in (INLINE_LINK, HTML_LINK):
            for target in pattern.findall(text):
                yield number, target
        match = REF_DEF.match(text)
        if match:
            yield number, match.group(1)


def check(page):
    """Broken links of one page, as messages."""
    problems = []
    for number, target in links(page):
        if not target or EXTERNAL.match(target):
            if not target:
                problems.append(f'{page.relative_to(ROOT)}:{number}: empty link target')
            continue
        file_part, _, anchor = target.partition('#')
        if file_part:
            base = ROOT if file_part.startswith('/') else page.parent
            resolved = (base / file_part.lstrip('/')).resolve()
        else:
            resolved = page
        where = f'{page.relative_to(ROOT)}:{number}: {target}'
        if not resolved.exists():
            problems.append(f'{where}: no such file {resolved.relative_to(ROOT) if ROOT in resolved.parents else resolved}')
            continue
        if ROOT != resolved and ROOT not in resolved.parents:
            problems.append(f'{where}: points outside the repository')
            continue
        if anchor and resolved.is_file() and resolved.suffix.lower() == '.md' and anchor not in anchors(resolved):
            problems.append(f'{where}: no heading with anchor #{anchor} in {resolved.relative_to(ROOT)}')
    return problems


def main(argv):
    pages = [Path(a).resolve() for a in argv] or [ROOT / 'README.md', *sorted((ROOT / 'docs').glob('*.md'))]
    problems, count = [], 0
    for page in pages:
        if not page.is_file():
            problems.append(f'{page}: no such page')
            continue
        count += sum(1 for _ in links(page))
        problems.extend(check(page))
    for problem in problems:
        print(problem)
    sys.stdout.flush()
    if problems:
        print(f'{len(problems)} broken link(s) in {len(pages)} page(s)', file=sys.stderr)
        return 1
    print(f'{count} link(s) in {len(pages)} page(s): all relative links and anchors resolve')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
