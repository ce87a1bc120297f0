"""Produce-to-commit latency of kafka_ingest.sh's latency run. PRODUCED holds "partition offset
create-time-ms" per record (kcat -C -f '%p %o %T'), COMMITS the table's snapshots as JSON lines
{"at": committed_at, "position": "topic:partition:next-offset,..."}. A record is committed by
the first snapshot whose position for its partition is past its offset; its latency is that
snapshot's commit time less its create time. Prints the count, p50, p99 and max in ms.
Usage: kafka_latency.py PRODUCED COMMITS RATE"""
import bisect
import datetime
import json
import sys

produced_path, commits_path, rate = sys.argv[1], sys.argv[2], sys.argv[3]
commits = []  # (commit ms, {partition: next offset})
for line in open(commits_path):
    row = json.loads(line)
    if not row.get("position"):
        continue
    at = datetime.datetime.fromisoformat(row["at"].replace(" ", "T"))
    if at.tzinfo is None:
        at = at.replace(tzinfo=datetime.timezone.utc)
    offsets = {}
    for item in row["position"].split(","):
        _, partition, offset = item.rsplit(":", 2)
        offsets[int(partition)] = int(offset)
    commits.append((at.timestamp() * 1000, offsets))
commits.sort()
# Per partition, the commit times and next offsets in commit order.
by_partition = {}
for at, offsets in commits:
    for partition, offset in offsets.items():
        times, ends = by_partition.setdefault(partition, ([], []))
        times.append(at)
        ends.append(offset)
latencies = []
uncommitted = 0
for line in open(produced_path):
    partition, offset, created = (int(x) for x in line.split())
    times, ends = by_partition.get(partition, ([], []))
    at = bisect.bisect_right(ends, offset)
    if at == len(ends):
        uncommitted += 1
        continue
    latencies.append(times[at] - created)
latencies.sort()
if not latencies:
    sys.exit("kafka_latency: no record committed")
pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
print(f"latency at {rate} records/s, 1 s checkpoints: {len(latencies)} records committed "
      f"({uncommitted} not), produce-to-commit p50 {pick(0.5):.0f} ms, p99 {pick(0.99):.0f} ms, "
      f"max {latencies[-1]:.0f} ms")
