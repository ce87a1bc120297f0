#pragma once

// Offsets keyed by partition, for a source whose partitions move between processes (the Kafka
// source in a consumer group, docs/scale-out.md). Such a source's reader reports, as its position
// at a checkpoint, the range of offsets it read per partition in the epoch since its previous
// checkpoint: the offset the epoch started from, as the table had committed it (none for a
// partition the table has never committed), and the next offset. The Iceberg sink then commits
// one map for the whole source, the offset of every partition, merging the ranges of its commit
// into the map of the snapshot it commits on, and fences: a range that does not start where the
// table's map stands fails the commit, as another process committed the partition meanwhile.
//
// Text forms (partition names hold neither ',' nor '=' nor the form's separators at their end):
//   offsets  "name:offset,name:offset"          the next offset of each partition
//   ranges   "ranges:name=from..to,name=..to"   from empty: the table had none

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace floe::stream {

using NamedOffsets = std::map<std::string, int64_t>;

struct OffsetRange {
  std::optional<int64_t> from;
  int64_t to = 0;
  bool operator==(const OffsetRange&) const = default;
};
using OffsetRanges = std::map<std::string, OffsetRange>;

inline constexpr std::string_view kOffsetRangesPrefix = "ranges:";

std::string EncodeOffsets(const NamedOffsets& offsets);
// kCorruptData for text that is not an offsets map.
Result<NamedOffsets> ParseOffsets(std::string_view text);

std::string EncodeRanges(const OffsetRanges& ranges);
bool IsRanges(std::string_view text);
// kCorruptData for text that is not a ranges position.
Result<OffsetRanges> ParseRanges(std::string_view text);

// The map of every partition's committed offset, from the newest commit that carries one; nullopt
// when none does. The sink reads its table when called, so each call sees the latest commit.
using CommittedOffsets = std::function<Result<std::optional<std::string>>()>;

// What a source whose readers report offset ranges implements besides Source: the Iceberg sink
// downstream offers it the table's offsets map when the job graph is built, and a reader given a
// partition starts it after the offset the map names.
class ResumesFromCommittedOffsets {
 public:
  virtual ~ResumesFromCommittedOffsets() = default;
  virtual void ResumeFromCommittedOffsets(CommittedOffsets offsets) = 0;
};

// Adds `later` to `ranges`: a partition in both must continue where it stood (one's `to` is the
// other's `from`), else kCommitFailed (two readers read the same offsets).
Status ChainRanges(OffsetRanges& ranges, const OffsetRanges& later, std::string_view source);

// Moves each partition of `ranges` in `committed` to its `to`; kCommitFailed naming the partition
// when its committed offset is not the range's `from`.
Status ApplyRanges(NamedOffsets& committed, const OffsetRanges& ranges, std::string_view source);

}  // namespace floe::stream
