#pragma once

// What the IcebergSink offers the sources upstream of it (Source::ResumeFromCommitted): the
// positions their reader subtasks reported at the checkpoints whose commits are in the table, as
// the snapshot summaries of the sink's branch carry them
// (`floe.source-position.<source>.<subtask>`, docs/iceberg-sink.md), newest snapshot first. A
// source restarted without its checkpoint resumes from them (the Kafka source does).
//
// The keys name the source by its name in the job, not the job: a job that writes the same
// table from a source of the same name continues where the last one committed.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/spec/table_metadata.h"

namespace floe::stream {

std::vector<std::string> CommittedReaderPositions(const TableMetadata& metadata,
                                                  std::string_view branch,
                                                  std::string_view source);

// The offsets map of a source whose partitions move between processes
// (`floe.source-offsets.<source>`, source_offsets.h) in the newest snapshot of branch's ancestry
// that carries one (other writers' snapshots, a compaction's, carry none), from `snapshot` down;
// nullopt when none does.
std::optional<std::string> CommittedOffsetsFrom(const TableMetadata& metadata,
                                                const Snapshot* snapshot, std::string_view source);
std::optional<std::string> BranchCommittedOffsets(const TableMetadata& metadata,
                                                  std::string_view branch, std::string_view source);

}  // namespace floe::stream
