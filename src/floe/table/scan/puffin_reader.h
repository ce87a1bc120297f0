#pragma once

// Reads Iceberg Puffin files (puffin-spec.md): the footer's blob directory, and deletion-vector-v1
// blobs. A deletion vector blob is a big-endian length, the magic D1 D3 39 64, a portable 64-bit
// Roaring bitmap of deleted positions and a big-endian CRC-32 of magic and bitmap; the manifest
// entry of the delete file locates it (content_offset, content_size_in_bytes), so reading one does
// not need the footer.
//
// Errors: kCorruptData for a bad magic, length, checksum or footer (naming the file and offset),
// kUnsupported for a compressed footer.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/io/file_io.h"
#include "floe/table/scan/position_delete_index.h"
#include "floe/util/error.h"

namespace floe::table {

struct PuffinBlob {
  std::string type;
  std::vector<int32_t> fields;
  int64_t offset = 0;
  int64_t length = 0;
  std::string compression_codec;  // empty when not compressed
  std::map<std::string, std::string> properties;
};

// The blobs the footer lists, in order.
Result<std::vector<PuffinBlob>> ReadPuffinBlobs(const io::InputFile& file);

// Decodes the deletion vector blob at [offset, offset + length) of file into out.
Status ReadDeletionVector(const io::InputFile& file, int64_t offset, int64_t length,
                          PositionDeleteIndex& out);
// Decodes a deletion vector blob already in memory; `where` names it in errors.
Status DecodeDeletionVector(std::span<const uint8_t> blob, const std::string& where,
                            PositionDeleteIndex& out);

}  // namespace floe::table
