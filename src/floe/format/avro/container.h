#pragma once

// Avro object container files: the header (magic "Obj\x01", a metadata map holding avro.schema and
// avro.codec, a 16-byte sync marker) followed by blocks of [record count][byte size][data][sync].
//
// ContainerReader reads from a byte span the caller holds (a whole file in memory) or through a
// positional read callback (for the io layer's files). It yields whole decompressed blocks, for
// typed fast paths that decode a block at a time, or generic Datums one by one. Every error is
// kCorruptData (or kUnsupported for codecs floe does not have) and names the file and the byte
// offset. Blocks are bounded by the file size and by ContainerReadOptions limits, so no input
// allocates without bound.
//
// ContainerWriter encodes records into blocks, compresses each with the chosen codec and hands the
// bytes to a sink callback.

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/format/avro/datum.h"
#include "floe/format/avro/encoding.h"
#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"
#include "floe/format/avro/schema_cache.h"
#include "floe/util/error.h"

namespace floe::compression {
class Inflater;
}

namespace floe::compression {
class Inflater;
}  // namespace floe::compression

namespace floe::avro {

enum class AvroCodec : uint8_t { kNull, kDeflate, kSnappy, kZstandard };

std::string_view AvroCodecName(AvroCodec codec);  // as written in avro.codec
Result<AvroCodec> ParseAvroCodec(std::string_view name);

inline constexpr size_t kSyncSize = 16;

struct ContainerReadOptions {
  // Read the records as this schema (resolved against the file's); null reads them as written.
  std::shared_ptr<const Schema> reader_schema;
  // Largest compressed or decompressed block accepted.
  size_t max_block_bytes = size_t{256} << 20;
  // Largest header (metadata map) accepted.
  size_t max_header_bytes = size_t{64} << 20;
  // For reading many files one after another (borrowed; each must outlive the reader). schemas
  // parses each distinct writer schema once; it is used only when its reader schema is
  // reader_schema. inflater decompresses deflate blocks into a buffer that the next file reuses;
  // readers that share one must not be read from at the same time.
  SchemaCache* schemas = nullptr;
  compression::Inflater* inflater = nullptr;
};

class ContainerReader {
 public:
  // Reads length bytes at offset into out (which has that size); returns how many were read, fewer
  // only at the end of the file.
  using ReadAt = std::function<Result<size_t>(uint64_t offset, std::span<std::byte> out)>;

  // Over bytes the caller keeps alive for the reader's lifetime; name is used in error messages.
  static Result<std::unique_ptr<ContainerReader>> Open(std::span<const std::byte> data,
                                                       std::string name,
                                                       ContainerReadOptions options = {});
  static Result<std::unique_ptr<ContainerReader>> Open(ReadAt read, uint64_t file_size,
                                                       std::string name,
                                                       ContainerReadOptions options = {});

  const std::string& name() const { return name_; }
  const std::shared_ptr<const Schema>& writer_schema() const { return writer_schema_; }
  const ResolvedSchema& resolved() const { return *resolved_; }
  // The metadata map, raw values (avro.schema, avro.codec and any user keys).
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  std::optional<std::string_view> Metadata(std::string_view key) const;
  AvroCodec codec() const { return codec_; }
  uint64_t header_size() const { return data_start_; }

  // Advances to the next block; false at the end of the file. After true, block_data() holds the
  // decompressed records and block_count() how many there are.
  Result<bool> NextBlock();
  std::span<const std::byte> block_data() const { return block_; }
  int64_t block_count() const { return block_count_; }
  uint64_t block_offset() const { return block_offset_; }  // where the block starts in the file

  // The next record as a Datum shaped by the reader schema; false at the end of the file.
  Result<bool> Next(Datum& out);

  ContainerReader(const ContainerReader&) = delete;
  ContainerReader& operator=(const ContainerReader&) = delete;
  ~ContainerReader();

 private:
  ContainerReader() = default;
  Status ReadHeader();
  // Bytes [offset, offset+length) of the file, viewed in place or read into scratch.
  Result<std::span<const std::byte>> Fetch(uint64_t offset, size_t length,
                                           std::vector<std::byte>& scratch);
  std::unexpected<Error> Fail(Error error) const;

  std::string name_;
  ContainerReadOptions options_;
  std::span<const std::byte> bytes_;  // span mode
  ReadAt read_;                       // callback mode
  uint64_t file_size_ = 0;

  std::map<std::string, std::string> metadata_;
  std::shared_ptr<const Schema> writer_schema_;
  std::shared_ptr<const ResolvedSchema> resolved_;
  AvroCodec codec_ = AvroCodec::kNull;
  std::byte sync_[kSyncSize] = {};
  uint64_t data_start_ = 0;
  size_t min_record_size_ = 0;  // bounds the record count a block may claim

  uint64_t next_block_ = 0;  // file offset of the next block
  uint64_t block_offset_ = 0;
  std::vector<std::byte> raw_scratch_;
  std::vector<std::byte> decompressed_;
  std::unique_ptr<compression::Inflater> inflater_;  // deflate blocks, state kept between them
  std::span<const std::byte> block_;
  int64_t block_count_ = 0;
  Decoder records_;  // the current block, for Next()
  int64_t records_left_ = 0;
};

struct ContainerWriteOptions {
  AvroCodec codec = AvroCodec::kDeflate;
  int level = INT32_MIN;  // the codec's default
  // A block is written once its encoded records reach this size.
  size_t block_size = 64 * 1024;
  // Extra metadata (avro.schema and avro.codec are set by the writer).
  std::vector<std::pair<std::string, std::string>> metadata;
  // Fixed sync marker, for reproducible output in tests; random when absent.
  std::optional<std::array<std::byte, kSyncSize>> sync;
};

class ContainerWriter {
 public:
  using Sink = std::function<Status(std::span<const std::byte>)>;

  // Writes the header to sink right away.
  static Result<std::unique_ptr<ContainerWriter>> Open(std::shared_ptr<const Schema> schema,
                                                       Sink sink,
                                                       ContainerWriteOptions options = {});

  // Appends one record, checked against the schema.
  Status Append(const Datum& datum);
  // The fast path: encode one record's bytes into encoder() yourself, then call RecordWritten().
  Encoder& encoder() { return block_; }
  Status RecordWritten();

  // Writes the pending block, if any.
  Status Flush();
  // Flushes; the writer accepts nothing afterwards.
  Status Close();

  uint64_t bytes_written() const { return bytes_written_; }
  int64_t records_written() const { return records_written_; }
  const Schema& schema() const { return *schema_; }

  ContainerWriter(const ContainerWriter&) = delete;
  ContainerWriter& operator=(const ContainerWriter&) = delete;

 private:
  ContainerWriter() = default;
  Status Emit(std::span<const std::byte> bytes);

  std::shared_ptr<const Schema> schema_;
  Sink sink_;
  ContainerWriteOptions options_;
  std::array<std::byte, kSyncSize> sync_{};
  Encoder block_;
  int64_t block_records_ = 0;
  std::vector<std::byte> compressed_;
  uint64_t bytes_written_ = 0;
  int64_t records_written_ = 0;
  bool closed_ = false;
};

}  // namespace floe::avro
