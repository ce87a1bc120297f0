#pragma once

// Thrift compact serde of the Parquet metadata structures (metadata.h). Decoding checks wire types
// and required fields, skips fields it does not know, and fails with kCorruptData naming the
// structure and byte offset; it never reads past the given span. Encoding writes what the Parquet
// format defines (unknown union members and unrecognized logical types are left out).

#include <cstddef>
#include <span>
#include <vector>

#include "floe/format/parquet/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {

Result<FileMetaData> DecodeFileMetaData(std::span<const std::byte> data);
std::vector<std::byte> EncodeFileMetaData(const FileMetaData& metadata);

// Decodes a page header at the start of data, and how many bytes it took.
struct DecodedPageHeader {
  PageHeader header;
  size_t size = 0;
};
Result<DecodedPageHeader> DecodePageHeader(std::span<const std::byte> data);
std::vector<std::byte> EncodePageHeader(const PageHeader& header);

Result<ColumnIndex> DecodeColumnIndex(std::span<const std::byte> data);
std::vector<std::byte> EncodeColumnIndex(const ColumnIndex& index);

Result<OffsetIndex> DecodeOffsetIndex(std::span<const std::byte> data);
std::vector<std::byte> EncodeOffsetIndex(const OffsetIndex& index);

struct DecodedBloomFilterHeader {
  BloomFilterHeader header;
  size_t size = 0;  // the bitset follows the header
};
Result<DecodedBloomFilterHeader> DecodeBloomFilterHeader(std::span<const std::byte> data);
std::vector<std::byte> EncodeBloomFilterHeader(const BloomFilterHeader& header);

}  // namespace floe::parquet
