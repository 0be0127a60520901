#!/usr/bin/env python3
"""Summarizes perf/ab.sh logs: per label, cold (round 1) and warm (rounds >= 2) medians with min-max.

    perf/summarize.py perf/results/base.log [more.log ...]
"""
import re
import statistics
import sys
from collections import defaultdict

rows = defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        if ' round=' not in line or line.startswith('#'):
            continue
        kv = dict(re.findall(r'(\w+)=([^\s]+)', line))
        phase = 'cold' if kv.get('round') == '1' else 'warm'
        rows[(kv['label'], phase)].append(kv)


def stat(values, fmt='{:.0f}'):
    if not values:
        return '-'
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return (fmt + ' ({}–{})').format(med, fmt.format(min(values)), fmt.format(max(values)))


cols = [
    ('n', None),
    ('drain ms', lambda r: float(r['drain_ms'])),
    ('ms/write', lambda r: float(r['per_write_ms'])),
    ('write p50 ms', lambda r: float(r['write_p50_ms'])),
    ('write p99 ms', lambda r: float(r['write_p99_ms'])),
    ('client CPU µs/write', lambda r: float(r['self_cpu_per_write_us'])),
    ('sink thread CPU µs/write', lambda r: 1000 * float(r['sink_thread_cpu_ms']) / writes(r)),
    ('apiserver CPU µs/write', lambda r: 1000 * float(r['pid0_cpu_ms']) / writes(r)),
    ('etcd CPU µs/write', lambda r: 1000 * float(r['pid1_cpu_ms']) / writes(r)),
    ('other procs CPU % of 2 cores', lambda r: 100 * float(r.get('other_procs_cpu_ms', 'nan')) / (2 * float(r['drain_ms']))),
    ('load1', lambda r: float(r['load1'])),
    ('POST/PATCH', None),
]


def writes(r):
    return int(r['created']) + int(r['patched'])


print('| variant | phase | ' + ' | '.join(c for c, _ in cols) + ' |')
print('|' + '---|' * (len(cols) + 2))
for (label, phase), rs in sorted(rows.items()):
    cells = []
    for name, f in cols:
        if name == 'n':
            cells.append(str(len(rs)))
        elif name == 'POST/PATCH':
            counts = sorted({(r['http_post'], r['http_patch']) for r in rs})
            cells.append(', '.join(f'{a}/{b}' for a, b in counts))
        else:
            vals = []
            for r in rs:
                try:
                    v = f(r)
                    if v == v:
                        vals.append(v)
                except (KeyError, ValueError, ZeroDivisionError):
                    pass
            fmt = '{:.2f}' if name in ('ms/write', 'write p50 ms', 'write p99 ms', 'load1') else '{:.0f}'
            cells.append(stat(vals, fmt))
    print(f'| {label} | {phase} | ' + ' | '.join(cells) + ' |')
