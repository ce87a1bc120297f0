#include "floe/table/scan/puffin_reader.h"

#include <algorithm>

#include "floe/table/scan/roaring_bitmap.h"
#include "floe/util/crc32.h"
#include "floe/util/json.h"

namespace floe::table {

namespace {

constexpr char kPuffinMagic[] = {'P', 'F', 'A', '1'};
constexpr uint8_t kDvMagic[] = {0xD1, 0xD3, 0x39, 0x64};
// A deletion vector of a file with 2^31 rows fits in well under this; larger claims are corrupt.
constexpr int64_t kMaxBlobBytes = int64_t{1} << 30;
constexpr int64_t kMaxFooterBytes = int64_t{64} << 20;

uint32_t BigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

Result<std::string> ReadRange(const io::InputFile& file, int64_t offset, int64_t length) {
  std::string bytes(static_cast<size_t>(length), '\0');
  FLOE_RETURN_IF_ERROR(
      file.ReadAt(offset, std::as_writable_bytes(std::span(bytes.data(), bytes.size()))));
  return bytes;
}

}  // namespace

Result<std::vector<PuffinBlob>> ReadPuffinBlobs(const io::InputFile& file) {
  const std::string& name = file.location();
  FLOE_ASSIGN_OR_RETURN(int64_t size, file.Size());
  // magic, footer magic, payload size, flags, magic
  if (size < 20) return CorruptData("{}: {} bytes is too short for a Puffin file", name, size);
  FLOE_ASSIGN_OR_RETURN(std::string tail, ReadRange(file, size - 12, 12));
  const auto* t = reinterpret_cast<const uint8_t*>(tail.data());
  if (tail.compare(8, 4, kPuffinMagic, 4) != 0) {
    return CorruptData("{}: no Puffin magic at the end", name);
  }
  const int64_t payload = static_cast<int64_t>(uint32_t{t[0]} | (uint32_t{t[1]} << 8) |
                                               (uint32_t{t[2]} << 16) | (uint32_t{t[3]} << 24));
  if (payload > kMaxFooterBytes || payload + 20 > size) {
    return CorruptData("{}: footer payload of {} bytes does not fit the file", name, payload);
  }
  if (t[4] & 1) return Unsupported("{}: compressed Puffin footers are not supported", name);
  FLOE_ASSIGN_OR_RETURN(std::string footer, ReadRange(file, size - 12 - payload - 4, payload + 4));
  if (footer.compare(0, 4, kPuffinMagic, 4) != 0) {
    return CorruptData("{}: no Puffin magic at the start of the footer", name);
  }
  auto json = Json::Parse(std::string_view(footer).substr(4));
  if (!json) return std::unexpected(std::move(json.error().AddContext(name + ": footer")));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* blobs, json->GetArray("blobs"));
  std::vector<PuffinBlob> out;
  for (const Json& b : *blobs) {
    PuffinBlob blob;
    FLOE_ASSIGN_OR_RETURN(blob.type, b.GetString("type"));
    FLOE_ASSIGN_OR_RETURN(blob.offset, b.GetInt("offset"));
    FLOE_ASSIGN_OR_RETURN(blob.length, b.GetInt("length"));
    FLOE_ASSIGN_OR_RETURN(const Json::Array* fields, b.GetArray("fields"));
    for (const Json& f : *fields) {
      if (!f.is_int()) return CorruptData("{}: a blob field id is not an integer", name);
      blob.fields.push_back(static_cast<int32_t>(f.as_int()));
    }
    FLOE_ASSIGN_OR_RETURN(auto codec, b.GetOptionalString("compression-codec"));
    blob.compression_codec = codec.value_or("");
    if (const Json* props = b.Find("properties")) {
      if (!props->is_object()) return CorruptData("{}: blob properties are not an object", name);
      for (const auto& [key, value] : props->as_object()) {
        if (!value.is_string())
          return CorruptData("{}: blob property {} is not a string", name, key);
        blob.properties[key] = value.as_string();
      }
    }
    out.push_back(std::move(blob));
  }
  return out;
}

Status DecodeDeletionVector(std::span<const uint8_t> blob, const std::string& where,
                            PositionDeleteIndex& out) {
  if (blob.size() < 12) {
    return CorruptData("{}: deletion vector of {} bytes is too short", where, blob.size());
  }
  const uint32_t length = BigEndian32(blob.data());
  if (length != blob.size() - 8) {
    return CorruptData("{}: deletion vector length {} does not match its blob of {} bytes", where,
                       length, blob.size());
  }
  if (!std::equal(kDvMagic, kDvMagic + 4, blob.data() + 4)) {
    return CorruptData("{}: deletion vector has no D1 D3 39 64 magic", where);
  }
  const auto body = blob.subspan(4, length);
  const uint32_t expected = BigEndian32(blob.data() + 4 + length);
  const uint32_t actual = Crc32(std::as_bytes(body));
  if (expected != actual) {
    return CorruptData("{}: deletion vector checksum {:08x} does not match {:08x}", where, actual,
                       expected);
  }
  auto decoded = DecodePortableRoaring64(body.subspan(4), out);
  if (!decoded) return std::unexpected(std::move(decoded.error().AddContext(where)));
  return Ok();
}

Status ReadDeletionVector(const io::InputFile& file, int64_t offset, int64_t length,
                          PositionDeleteIndex& out) {
  if (offset < 0 || length < 0 || length > kMaxBlobBytes) {
    return CorruptData("{}: deletion vector at offset {} with length {} is out of range",
                       file.location(), offset, length);
  }
  FLOE_ASSIGN_OR_RETURN(std::string blob, ReadRange(file, offset, length));
  return DecodeDeletionVector(std::span(reinterpret_cast<const uint8_t*>(blob.data()), blob.size()),
                              fmt::format("{} at offset {}", file.location(), offset), out);
}

}  // namespace floe::table
