#pragma once

// Writing manifests and manifest lists as Iceberg does, for format versions 1 to 3: the Avro
// schemas of manifest_schema.h, the header metadata Iceberg writes (manifests: schema, schema-id,
// partition-spec, partition-spec-id, format-version, content; lists: snapshot-id,
// parent-snapshot-id, sequence-number, format-version, first-row-id) and the deflate codec by
// default. Entries are encoded directly, not through generic Avro values.
//
// ManifestWriter::Close returns the manifest's ManifestFile, counts and partition summaries
// included, with sequence numbers kUnassignedSequenceNumber when entries inherit theirs;
// ManifestListWriter fills those in with the list's sequence number and, in v3, assigns
// first_row_ids to data manifests without one (spec "First Row ID Assignment").
//
// Errors: kInvalidArgument for entries the format version cannot hold (v1 without a snapshot id,
// delete files before v2, a partition tuple that does not fit the spec), and the sink's errors.

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "floe/format/avro/container.h"
#include "floe/manifest/data_file.h"
#include "floe/manifest/partition_summary.h"
#include "floe/util/error.h"

namespace floe {
class Schema;
class PartitionSpec;
}  // namespace floe
namespace floe::io {
class OutputFile;
class FileWriter;
}  // namespace floe::io

namespace floe::manifest {

// A sequence number assigned only when the manifest list is written (Java writes -1 too).
inline constexpr int64_t kUnassignedSequenceNumber = -1;

using ByteSink = std::function<Status(std::span<const std::byte>)>;

struct ManifestWriterOptions {
  int format_version = 2;
  ManifestContent content = ManifestContent::kData;
  // The snapshot adding the manifest: its added_snapshot_id, and the snapshot id of v1 entries
  // that have none.
  int64_t snapshot_id = 0;
  avro::AvroCodec codec = avro::AvroCodec::kDeflate;
  std::optional<std::array<std::byte, avro::kSyncSize>> sync;  // fixed, for reproducible tests
};

class ManifestWriter {
 public:
  // path is the manifest's location, as the ManifestFile will name it.
  static Result<std::unique_ptr<ManifestWriter>> Open(ByteSink sink, std::string path,
                                                      const Schema& schema,
                                                      const PartitionSpec& spec,
                                                      ManifestWriterOptions options);
  static Result<std::unique_ptr<ManifestWriter>> Open(io::OutputFile& file, const Schema& schema,
                                                      const PartitionSpec& spec,
                                                      ManifestWriterOptions options);

  Status Add(const ManifestEntry& entry);
  // Flushes and closes; the ManifestFile describes what was written.
  Result<ManifestFile> Close();

  ~ManifestWriter();

 private:
  ManifestWriter();
  Status Encode(const ManifestEntry& entry);

  std::string path_;
  ManifestWriterOptions options_;
  int32_t spec_id_ = 0;
  std::shared_ptr<const StructType> partition_type_;
  std::unique_ptr<io::FileWriter> file_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::unique_ptr<PartitionSummary> summary_;
  ManifestFile result_;
  std::optional<int64_t> min_sequence_number_;
  bool unassigned_sequence_number_ = false;
};

struct ManifestListWriterOptions {
  int format_version = 2;
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;
  // v3: the snapshot's first-row-id, where the assignment of manifests' first_row_ids starts.
  std::optional<int64_t> first_row_id;
  avro::AvroCodec codec = avro::AvroCodec::kDeflate;
  std::optional<std::array<std::byte, avro::kSyncSize>> sync;
};

class ManifestListWriter {
 public:
  static Result<std::unique_ptr<ManifestListWriter>> Open(ByteSink sink,
                                                          ManifestListWriterOptions options);
  static Result<std::unique_ptr<ManifestListWriter>> Open(io::OutputFile& file,
                                                          ManifestListWriterOptions options);

  Status Add(const ManifestFile& manifest);
  Status Close();
  // v3: the next row id after the assigned ones (the snapshot's first-row-id + added-rows).
  std::optional<int64_t> next_row_id() const { return next_row_id_; }

  ~ManifestListWriter();

 private:
  ManifestListWriter();

  ManifestListWriterOptions options_;
  std::unique_ptr<io::FileWriter> file_;
  std::unique_ptr<avro::ContainerWriter> writer_;
  std::optional<int64_t> next_row_id_;
};

}  // namespace floe::manifest
