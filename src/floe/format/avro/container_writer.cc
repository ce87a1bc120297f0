#include <random>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_io.h"
#include "floe/format/compression/codec.h"
#include "floe/util/crc32.h"

namespace floe::avro {

Result<std::unique_ptr<ContainerWriter>> ContainerWriter::Open(std::shared_ptr<const Schema> schema,
                                                               Sink sink,
                                                               ContainerWriteOptions options) {
  if (schema == nullptr) return InvalidArgument("no schema to write");
  std::unique_ptr<ContainerWriter> writer(new ContainerWriter());
  writer->schema_ = std::move(schema);
  writer->sink_ = std::move(sink);
  writer->options_ = std::move(options);
  if (writer->options_.sync) {
    writer->sync_ = *writer->options_.sync;
  } else {
    std::random_device device;
    std::mt19937_64 rng((uint64_t{device()} << 32) ^ device());
    for (size_t i = 0; i < kSyncSize; ++i) writer->sync_[i] = std::byte(rng() & 0xFF);
  }
  Encoder header;
  header.WriteFixed(std::string_view("Obj\x01", 4));
  std::vector<std::pair<std::string, std::string>> entries = {
      {"avro.schema", writer->schema_->ToString()},
      {"avro.codec", std::string(AvroCodecName(writer->options_.codec))}};
  for (const auto& entry : writer->options_.metadata) {
    if (entry.first == "avro.schema" || entry.first == "avro.codec") {
      return InvalidArgument("metadata key '{}' is reserved for the writer", entry.first);
    }
    entries.push_back(entry);
  }
  header.WriteLong(static_cast<int64_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    header.WriteBytes(key);
    header.WriteBytes(value);
  }
  header.WriteLong(0);
  header.WriteFixed(
      std::string_view(reinterpret_cast<const char*>(writer->sync_.data()), kSyncSize));
  FLOE_RETURN_IF_ERROR(writer->Emit(std::as_bytes(std::span(header.buffer()))));
  return writer;
}

Status ContainerWriter::Emit(std::span<const std::byte> bytes) {
  FLOE_RETURN_IF_ERROR(sink_(bytes));
  bytes_written_ += bytes.size();
  return Ok();
}

Status ContainerWriter::Append(const Datum& datum) {
  if (closed_) return InvalidArgument("append to a closed Avro writer");
  size_t mark = block_.size();
  Status s = WriteDatum(schema_->root(), datum, block_);
  if (!s) {
    block_.buffer().resize(mark);
    return s;
  }
  return RecordWritten();
}

Status ContainerWriter::RecordWritten() {
  if (closed_) return InvalidArgument("append to a closed Avro writer");
  ++block_records_;
  ++records_written_;
  if (block_.size() >= options_.block_size) return Flush();
  return Ok();
}

Status ContainerWriter::Flush() {
  if (block_records_ == 0) return Ok();
  std::span<const std::byte> raw = std::as_bytes(std::span(block_.buffer()));
  compressed_.clear();
  switch (options_.codec) {
    case AvroCodec::kNull:
      compressed_.assign(raw.begin(), raw.end());
      break;
    case AvroCodec::kDeflate:
      FLOE_RETURN_IF_ERROR(
          compression::Compress(compression::Codec::kDeflate, raw, compressed_, options_.level));
      break;
    case AvroCodec::kZstandard:
      FLOE_RETURN_IF_ERROR(
          compression::Compress(compression::Codec::kZstd, raw, compressed_, options_.level));
      break;
    case AvroCodec::kSnappy: {
      FLOE_RETURN_IF_ERROR(compression::Compress(compression::Codec::kSnappy, raw, compressed_));
      uint32_t crc = Crc32(raw);
      for (int shift = 24; shift >= 0; shift -= 8)
        compressed_.push_back(std::byte((crc >> shift) & 0xFF));
      break;
    }
  }
  Encoder header;
  header.WriteLong(block_records_);
  header.WriteLong(static_cast<int64_t>(compressed_.size()));
  FLOE_RETURN_IF_ERROR(Emit(std::as_bytes(std::span(header.buffer()))));
  FLOE_RETURN_IF_ERROR(Emit(compressed_));
  FLOE_RETURN_IF_ERROR(Emit(sync_));
  block_.Clear();
  block_records_ = 0;
  return Ok();
}

Status ContainerWriter::Close() {
  if (closed_) return Ok();
  FLOE_RETURN_IF_ERROR(Flush());
  closed_ = true;
  return Ok();
}

}  // namespace floe::avro
