#include "floe/format/parquet/footer.h"

#include <cstring>
#include <string_view>

#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/source.h"

namespace floe::parquet {

namespace {

constexpr std::string_view kMagic = "PAR1";
constexpr std::string_view kEncryptedMagic = "PARE";

std::string_view AsChars(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Checks both magics and returns the footer length.
Result<uint32_t> CheckTail(std::span<const std::byte> head, std::span<const std::byte> tail,
                           uint64_t file_size) {
  std::string_view end_magic = AsChars(tail.subspan(4, 4));
  if (end_magic == kEncryptedMagic || AsChars(head) == kEncryptedMagic) {
    return Unsupported("file is encrypted, unsupported (Parquet modular encryption)");
  }
  if (end_magic != kMagic) return CorruptData("not a Parquet file: no PAR1 magic at the end");
  if (AsChars(head) != kMagic) return CorruptData("not a Parquet file: no PAR1 magic at the start");
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = length << 8 | static_cast<uint8_t>(tail[i]);
  if (length > file_size - 12 || length > kMaxFooterSize) {
    return CorruptData("footer length {} does not fit in a file of {} bytes", length, file_size);
  }
  return length;
}

Result<FileMetaData> Decode(std::span<const std::byte> footer) {
  FLOE_ASSIGN_OR_RETURN(FileMetaData metadata, DecodeFileMetaData(footer));
  if (metadata.encryption_algorithm) {
    return Unsupported("file is encrypted, unsupported (plaintext footer, encrypted columns)");
  }
  return metadata;
}

}  // namespace

Result<FileMetaData> ReadFooter(const RandomAccessSource& source) {
  auto result = [&]() -> Result<FileMetaData> {
    uint64_t size = source.size();
    if (size < 12) return CorruptData("{} bytes is too small for a Parquet file", size);
    std::byte head[4];
    std::byte tail[8];
    FLOE_RETURN_IF_ERROR(source.ReadAt(0, head));
    FLOE_RETURN_IF_ERROR(source.ReadAt(size - 8, tail));
    FLOE_ASSIGN_OR_RETURN(uint32_t length, CheckTail(head, tail, size));
    FLOE_ASSIGN_OR_RETURN(std::vector<std::byte> footer, source.Read(size - 8 - length, length));
    return Decode(footer);
  }();
  if (!result) result.error().AddContext(source.name());
  return result;
}

Result<FileMetaData> ParseFooter(std::span<const std::byte> file) {
  if (file.size() < 12) return CorruptData("{} bytes is too small for a Parquet file", file.size());
  FLOE_ASSIGN_OR_RETURN(uint32_t length, CheckTail(file.first(4), file.last(8), file.size()));
  return Decode(file.subspan(file.size() - 8 - length, length));
}

}  // namespace floe::parquet
