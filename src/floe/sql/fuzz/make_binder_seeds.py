#!/usr/bin/env python3
# Writes the seeds of floe_sql_binder_fuzz (binder_fuzz.cc): the statements of each SQL script test
# (../scripts/*.test, read as script_test.cc reads its records), without the expected results, as
# one script per test file. The placeholders become values that leave the process alone: folders
# under mem:/, a closed port for Kafka; ${name} of a `let` record becomes 1. A statement with an
# unclosed quote or an empty quoted name is left out: it would stop the whole script from splitting
# into statements, and the parser's own target covers it.
# Run it from anywhere after changing the script tests: python3 make_binder_seeds.py
import glob, os, re

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, '..', 'scripts')
OUT = os.path.join(HERE, 'binder', 'seeds')
VALUES = {'TMP': 'mem:/tmp', 'SHARED': 'mem:/shared', 'LAKE': 'mem:/lake', 'LAKE_OPTIONS': '',
          'KAFKA': '127.0.0.1:1'}

def closed(sql):
    return '``' not in sql and all(sql.count(quote) % 2 == 0 for quote in "'`\"")

def statements(path):
    sql, current, expected = [], None, False
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if current is None:
            if not line or line.startswith('#'):
                continue
            current, expected = line.split(' ')[0], False
            lines = []
        elif not line.strip():
            if current in ('statement', 'query', 'let') and lines:
                sql.append('\n'.join(lines).rstrip().rstrip(';') + ';')
            current = None
        elif line == '----':
            expected = True
        elif not expected:
            lines.append(line)
    if current in ('statement', 'query', 'let') and lines:
        sql.append('\n'.join(lines).rstrip().rstrip(';') + ';')
    return sql

os.makedirs(OUT, exist_ok=True)
for path in sorted(glob.glob(os.path.join(SCRIPTS, '*.test'))):
    text = '\n'.join(sql for sql in statements(path) if closed(sql)) + '\n'
    text = re.sub(r'\$\{(\w+)\}', lambda m: VALUES.get(m.group(1), '1'), text)
    name = os.path.splitext(os.path.basename(path))[0] + '.sql'
    with open(os.path.join(OUT, name), 'w', encoding='utf-8') as out:
        out.write(text)
