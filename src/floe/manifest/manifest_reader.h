#pragma once

// Reading manifests and manifest lists written by any Iceberg engine, format versions 1 to 3.
//
// The reader compiles a plan from each file's writer schema once (fields found by field id, or by
// name when a writer left the ids out) and decodes entries straight into ManifestEntry structs;
// fields it does not know are skipped. Reading applies the spec's inheritance when given the
// manifest's ManifestFile from the manifest list: a null snapshot id becomes the manifest's
// added_snapshot_id, null sequence numbers of ADDED entries become the manifest's sequence
// number, and null first_row_ids of data files are assigned from the manifest's first_row_id plus
// the record counts of the files before them that had none. v1 manifests have sequence numbers 0.
//
// Errors: kCorruptData naming the file and byte offset for damaged Avro, kInvalidArgument for a
// file that is not a manifest (or not a manifest list), kUnsupported for shapes floe cannot read
// (e.g. a partition value of a nested type).

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "floe/manifest/data_file.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe::avro {
class ContainerReader;
class SchemaCache;
}  // namespace floe::avro
namespace floe::compression {
class Inflater;
}
namespace floe::io {
class InputFile;
}

namespace floe::manifest {

class EntryPlan;

// What one thread reuses from manifest to manifest when it reads many in a row (scan planning):
// the buffer for a file's bytes and the deflate decompressor with its output, so that a manifest
// costs no large allocation; and, shared between threads, the parsed writer schemas. A reader
// opened with a scratch uses it until the reader is destroyed: open the next reader with the same
// scratch only after that.
class ManifestScratch {
 public:
  // schemas (may be null) must outlive the scratch.
  explicit ManifestScratch(avro::SchemaCache* schemas = nullptr);
  ~ManifestScratch();
  ManifestScratch(const ManifestScratch&) = delete;
  ManifestScratch& operator=(const ManifestScratch&) = delete;

 private:
  friend class ManifestReader;
  // The whole file, in a buffer that only grows.
  Result<std::span<const std::byte>> Read(const io::InputFile& file);

  avro::SchemaCache* schemas_;
  std::unique_ptr<std::byte[]> bytes_;
  size_t capacity_ = 0;
  std::unique_ptr<compression::Inflater> inflater_;
};

class ManifestReader {
 public:
  // Over bytes the caller keeps alive while the reader lives. manifest, when given, supplies the
  // values to inherit; without it nulls stay null (except v1 sequence numbers, which are 0).
  static Result<std::unique_ptr<ManifestReader>> Open(std::span<const std::byte> bytes,
                                                      std::string name,
                                                      const ManifestFile* manifest = nullptr);
  // Reads the whole file first, into scratch when given (see ManifestScratch).
  static Result<std::unique_ptr<ManifestReader>> Open(const io::InputFile& file,
                                                      const ManifestFile* manifest = nullptr,
                                                      ManifestScratch* scratch = nullptr);

  // From the header metadata: format-version (when absent: 2 if the entry schema has sequence
  // numbers, else 1), content ("data" when absent),
  // partition-spec-id (the list's, else 0), and the raw schema / partition-spec JSON texts.
  int format_version() const { return format_version_; }
  ManifestContent content() const { return content_; }
  int32_t spec_id() const { return spec_id_; }
  const std::map<std::string, std::string>& metadata() const;
  // The partition tuple type as the manifest's Avro schema declares it.
  const std::shared_ptr<const StructType>& partition_type() const { return partition_type_; }

  // Keeps the column statistics (sizes, value, null and NaN counts, bounds) of these field ids
  // only, and leaves the others out of the entries read from now on; an empty list leaves them
  // all out. Scan planning needs at most the columns of its filter, and decoding every column's
  // statistics into the entries is a large part of reading a manifest.
  void SelectStats(std::vector<int32_t> field_ids) { stats_ = std::move(field_ids); }

  // The next entry, overwriting out (its buffers are reused, so reading into one entry in a loop
  // allocates little); false at the end.
  Result<bool> Next(ManifestEntry& out);
  Result<std::vector<ManifestEntry>> ReadAll();

  ~ManifestReader();
  ManifestReader(const ManifestReader&) = delete;
  ManifestReader& operator=(const ManifestReader&) = delete;

 private:
  ManifestReader();
  Status OpenContainer(std::span<const std::byte> bytes, std::string name,
                       const ManifestFile* manifest, ManifestScratch* scratch);
  Status Init(const ManifestFile* manifest);
  void Inherit(ManifestEntry& entry);

  std::string owned_;  // the file's bytes when the reader read them itself
  std::unique_ptr<avro::ContainerReader> container_;
  std::unique_ptr<EntryPlan> plan_;
  std::optional<std::vector<int32_t>> stats_;  // SelectStats; unset: all
  int format_version_ = 1;
  ManifestContent content_ = ManifestContent::kData;
  int32_t spec_id_ = 0;
  std::shared_ptr<const StructType> partition_type_;

  std::optional<int64_t> inherit_snapshot_id_;
  std::optional<int64_t> inherit_sequence_number_;
  std::optional<int64_t> next_row_id_;

  // The current block.
  const std::byte* block_ = nullptr;
  size_t block_size_ = 0;
  size_t block_pos_ = 0;
  uint64_t block_offset_ = 0;
  int64_t block_left_ = 0;
};

// Every entry of a manifest list. v1 lists read with content data and sequence numbers 0.
Result<std::vector<ManifestFile>> ReadManifestList(std::span<const std::byte> bytes,
                                                   const std::string& name);
Result<std::vector<ManifestFile>> ReadManifestList(const io::InputFile& file);

// Whether an Avro file's writer schema is a manifest list (manifest_file records) rather than a
// manifest (manifest_entry records).
enum class ManifestKind { kManifest, kManifestList };
Result<ManifestKind> DetectKind(const avro::ContainerReader& reader);

}  // namespace floe::manifest
