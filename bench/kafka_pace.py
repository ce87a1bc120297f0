"""Copies RATE lines a second of stdin to stdout for SECONDS seconds, in 10 ms steps (for
kafka_ingest.sh's latency run: a producer at a steady rate). Usage: kafka_pace.py RATE SECONDS"""
import sys
import time

rate, seconds = int(sys.argv[1]), float(sys.argv[2])
total = int(rate * seconds)
start = time.monotonic()
sent = 0
out = sys.stdout
for line in sys.stdin:
    if sent == total:
        break
    due = start + sent / rate
    now = time.monotonic()
    if due > now + 0.01:
        out.flush()
        time.sleep(due - now)
    out.write(line)
    sent += 1
out.flush()
if sent < total:
    sys.exit(f"kafka_pace: the input ended after {sent} of {total} lines")
