#include <fmt/format.h>

#include <cstring>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_io.h"
#include "floe/format/compression/codec.h"
#include "floe/format/compression/inflater.h"
#include "floe/util/crc32.h"

namespace floe::avro {
namespace {

constexpr char kMagic[4] = {'O', 'b', 'j', '\x01'};
// Two varints: the record count and the byte size of a block.
constexpr size_t kMaxBlockHeader = 20;
constexpr int64_t kMaxEmptyRecordsPerBlock = int64_t{1} << 20;

}  // namespace

std::string_view AvroCodecName(AvroCodec codec) {
  switch (codec) {
    case AvroCodec::kNull:
      return "null";
    case AvroCodec::kDeflate:
      return "deflate";
    case AvroCodec::kSnappy:
      return "snappy";
    case AvroCodec::kZstandard:
      return "zstandard";
  }
  return "unknown";
}

Result<AvroCodec> ParseAvroCodec(std::string_view name) {
  for (AvroCodec c :
       {AvroCodec::kNull, AvroCodec::kDeflate, AvroCodec::kSnappy, AvroCodec::kZstandard}) {
    if (AvroCodecName(c) == name) return c;
  }
  return Unsupported("unknown Avro codec '{}'", name);
}

ContainerReader::~ContainerReader() = default;

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(std::span<const std::byte> data,
                                                               std::string name,
                                                               ContainerReadOptions options) {
  std::unique_ptr<ContainerReader> reader(new ContainerReader());
  reader->name_ = std::move(name);
  reader->options_ = std::move(options);
  reader->bytes_ = data;
  reader->file_size_ = data.size();
  FLOE_RETURN_IF_ERROR(reader->ReadHeader());
  return reader;
}

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(ReadAt read, uint64_t file_size,
                                                               std::string name,
                                                               ContainerReadOptions options) {
  std::unique_ptr<ContainerReader> reader(new ContainerReader());
  reader->name_ = std::move(name);
  reader->options_ = std::move(options);
  reader->read_ = std::move(read);
  reader->file_size_ = file_size;
  FLOE_RETURN_IF_ERROR(reader->ReadHeader());
  return reader;
}

std::optional<std::string_view> ContainerReader::Metadata(std::string_view key) const {
  auto it = metadata_.find(std::string(key));
  if (it == metadata_.end()) return std::nullopt;
  return it->second;
}

std::unexpected<Error> ContainerReader::Fail(Error error) const {
  error.AddContext(name_);
  return std::unexpected(std::move(error));
}

Result<std::span<const std::byte>> ContainerReader::Fetch(uint64_t offset, size_t length,
                                                          std::vector<std::byte>& scratch) {
  if (offset > file_size_ || length > file_size_ - offset) {
    return CorruptData("need {} bytes at offset {} but the file ends at {}", length, offset,
                       file_size_);
  }
  if (!read_) return bytes_.subspan(static_cast<size_t>(offset), length);
  scratch.resize(length);
  FLOE_ASSIGN_OR_RETURN(size_t n, read_(offset, scratch));
  if (n != length) {
    return CorruptData("need {} bytes at offset {} but only {} could be read", length, offset, n);
  }
  return std::span<const std::byte>(scratch);
}

Status ContainerReader::ReadHeader() {
  if (file_size_ < sizeof(kMagic)) {
    return Fail(CorruptData("file of {} bytes is too short to be Avro", file_size_).error());
  }
  // The header's size is only known once it is parsed: try a prefix, and a longer one if that
  // prefix ends inside the header.
  uint64_t limit = std::min<uint64_t>(file_size_, options_.max_header_bytes);
  uint64_t chunk = std::min<uint64_t>(limit, 64 * 1024);
  std::vector<std::byte> scratch;
  while (true) {
    auto bytes = Fetch(0, static_cast<size_t>(chunk), scratch);
    if (!bytes) return Fail(bytes.error());
    if (std::memcmp(bytes->data(), kMagic, sizeof(kMagic)) != 0) {
      return Fail(CorruptData("not an Avro container file: bad magic at offset 0").error());
    }
    Decoder d(bytes->subspan(sizeof(kMagic)), sizeof(kMagic));
    metadata_.clear();
    Status parsed = [&]() -> Status {
      int64_t budget = 0;
      while (true) {
        FLOE_ASSIGN_OR_RETURN(int64_t count, ReadBlockCount(d, 2, budget));
        if (count == 0) break;
        for (int64_t i = 0; i < count; ++i) {
          FLOE_ASSIGN_OR_RETURN(std::string_view key, d.ReadBytes());
          FLOE_ASSIGN_OR_RETURN(std::string_view value, d.ReadBytes());
          metadata_[std::string(key)] = std::string(value);
        }
      }
      FLOE_ASSIGN_OR_RETURN(std::string_view sync, d.ReadFixed(kSyncSize));
      std::memcpy(sync_, sync.data(), kSyncSize);
      data_start_ = d.offset();
      return Ok();
    }();
    if (parsed) break;
    if (chunk >= limit) {
      Error error = parsed.error();
      if (limit < file_size_) {
        error = ResourceExhausted("header larger than {} bytes", options_.max_header_bytes).error();
      }
      return Fail(std::move(error.AddContext("header")));
    }
    chunk = std::min(limit, chunk * 4);
  }
  auto schema_json = Metadata("avro.schema");
  if (!schema_json) return Fail(CorruptData("header has no avro.schema").error());
  auto parsed = options_.schemas && options_.schemas->reader() == options_.reader_schema
                    ? options_.schemas->Get(*schema_json)
                    : ParseSchema(*schema_json, options_.reader_schema);
  if (!parsed) return Fail(std::move(parsed).error());
  writer_schema_ = (*parsed)->writer;
  resolved_ = (*parsed)->resolved;
  min_record_size_ = (*parsed)->min_record_size;
  if (auto codec_name = Metadata("avro.codec"); codec_name && !codec_name->empty()) {
    auto codec = ParseAvroCodec(*codec_name);
    if (!codec) return Fail(std::move(codec.error().AddContext("header")));
    codec_ = *codec;
  }
  next_block_ = data_start_;
  return Ok();
}

Result<bool> ContainerReader::NextBlock() {
  block_ = {};
  block_count_ = 0;
  records_left_ = 0;
  if (next_block_ >= file_size_) return false;
  block_offset_ = next_block_;
  auto context = [&](Error error) {
    return Fail(std::move(error.AddContext(fmt::format("block at offset {}", block_offset_))));
  };
  size_t header_length =
      static_cast<size_t>(std::min<uint64_t>(kMaxBlockHeader, file_size_ - next_block_));
  auto header = Fetch(next_block_, header_length, raw_scratch_);
  if (!header) return context(header.error());
  Decoder d(*header, next_block_);
  auto count = d.ReadLong();
  if (!count) return context(count.error());
  if (*count < 0) return context(CorruptData("negative record count {}", *count).error());
  auto size = d.ReadLong();
  if (!size) return context(size.error());
  uint64_t data_offset = next_block_ + d.position();
  uint64_t room = file_size_ - data_offset;
  if (*size < 0) return context(CorruptData("negative block size {}", *size).error());
  if (static_cast<uint64_t>(*size) > options_.max_block_bytes) {
    return context(ResourceExhausted("block of {} bytes exceeds the limit of {}", *size,
                                     options_.max_block_bytes)
                       .error());
  }
  if (room < kSyncSize || static_cast<uint64_t>(*size) > room - kSyncSize) {
    return context(
        CorruptData("block of {} bytes at offset {} runs past the end of the file ({} bytes)",
                    *size, data_offset, file_size_)
            .error());
  }
  size_t data_size = static_cast<size_t>(*size);
  auto body = Fetch(data_offset, data_size + kSyncSize, raw_scratch_);
  if (!body) return context(body.error());
  if (std::memcmp(body->data() + data_size, sync_, kSyncSize) != 0) {
    return context(
        CorruptData("sync marker mismatch at offset {}", data_offset + data_size).error());
  }
  std::span<const std::byte> data = body->first(data_size);
  uint64_t base_offset = 0;
  switch (codec_) {
    case AvroCodec::kNull:
      block_ = data;
      base_offset = data_offset;
      break;
    case AvroCodec::kDeflate: {
      compression::Inflater* inflater = options_.inflater;
      if (inflater == nullptr) {
        if (inflater_ == nullptr) inflater_ = std::make_unique<compression::Inflater>();
        inflater = inflater_.get();
      }
      auto inflated = inflater->Inflate(data, options_.max_block_bytes);
      if (!inflated) return context(inflated.error());
      block_ = *inflated;
      break;
    }
    case AvroCodec::kZstandard: {
      decompressed_.clear();
      Status s = compression::Decompress(compression::Codec::kZstd, data, options_.max_block_bytes,
                                         decompressed_);
      if (!s) return context(s.error());
      block_ = decompressed_;
      break;
    }
    case AvroCodec::kSnappy: {
      // Avro's snappy blocks end with the big-endian CRC-32 of the uncompressed bytes.
      if (data_size < 4)
        return context(CorruptData("snappy block shorter than its checksum").error());
      decompressed_.clear();
      Status s = compression::Decompress(compression::Codec::kSnappy, data.first(data_size - 4),
                                         options_.max_block_bytes, decompressed_);
      if (!s) return context(s.error());
      const auto* c = reinterpret_cast<const uint8_t*>(data.data() + data_size - 4);
      uint32_t expected =
          (uint32_t(c[0]) << 24) | (uint32_t(c[1]) << 16) | (uint32_t(c[2]) << 8) | c[3];
      if (Crc32(decompressed_) != expected) {
        return context(CorruptData("snappy block checksum mismatch").error());
      }
      block_ = decompressed_;
      break;
    }
  }
  if (*count == 0 && !block_.empty()) {
    return context(CorruptData("block of {} bytes holds no records", block_.size()).error());
  }
  size_t min_record = min_record_size_;
  if (min_record > 0 && static_cast<uint64_t>(*count) > block_.size() / min_record) {
    return context(CorruptData("{} records cannot fit in {} bytes", *count, block_.size()).error());
  }
  if (min_record == 0 && *count > kMaxEmptyRecordsPerBlock) {
    // Records that take no bytes could otherwise be "read" 2^63 times from a tiny file.
    return context(CorruptData("{} zero-byte records in one block", *count).error());
  }
  block_count_ = *count;
  records_left_ = *count;
  records_ = Decoder(block_, base_offset);
  next_block_ = data_offset + data_size + kSyncSize;
  return true;
}

Result<bool> ContainerReader::Next(Datum& out) {
  while (records_left_ == 0) {
    FLOE_ASSIGN_OR_RETURN(bool more, NextBlock());
    if (!more) return false;
  }
  Status s = ReadDatum(resolved_->root(), records_, out);
  if (!s) {
    return Fail(std::move(s.error().AddContext(fmt::format(
        "block at offset {}, record {}", block_offset_, block_count_ - records_left_))));
  }
  if (--records_left_ == 0 && !records_.at_end()) {
    return Fail(CorruptData("block at offset {}: {} bytes left after its {} records", block_offset_,
                            records_.remaining(), block_count_)
                    .error());
  }
  return true;
}

}  // namespace floe::avro
