#include <cstring>

#include "floe/format/orc/proto_internal.h"

namespace floe::orc {

std::unexpected<Error> ProtoReader::Truncated(std::string_view what) const {
  return CorruptData("protobuf message of {} bytes: {} at offset {}", bytes_.size(), what, pos_);
}

Result<uint64_t> ProtoReader::Varint() {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= bytes_.size()) return Truncated("varint runs past the end");
    const auto byte = static_cast<uint8_t>(bytes_[pos_++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return Truncated("varint longer than 10 bytes");
}

Result<int64_t> ProtoReader::SignedVarint() {
  FLOE_ASSIGN_OR_RETURN(uint64_t raw, Varint());
  return static_cast<int64_t>(raw >> 1) ^ -static_cast<int64_t>(raw & 1);
}

Result<ProtoReader::Tag> ProtoReader::Next() {
  FLOE_ASSIGN_OR_RETURN(uint64_t key, Varint());
  if ((key >> 3) == 0 || (key >> 3) > UINT32_MAX) return Truncated("field number out of range");
  return Tag{static_cast<uint32_t>(key >> 3), static_cast<uint32_t>(key & 7)};
}

Result<double> ProtoReader::Double() {
  if (bytes_.size() - pos_ < 8) return Truncated("double runs past the end");
  double value;
  std::memcpy(&value, bytes_.data() + pos_, 8);
  pos_ += 8;
  return value;
}

Result<std::span<const std::byte>> ProtoReader::Bytes() {
  FLOE_ASSIGN_OR_RETURN(uint64_t length, Varint());
  if (length > bytes_.size() - pos_) return Truncated("length-delimited field runs past the end");
  auto out = bytes_.subspan(pos_, length);
  pos_ += length;
  return out;
}

Result<std::string> ProtoReader::String() {
  FLOE_ASSIGN_OR_RETURN(auto bytes, Bytes());
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Status ProtoReader::RepeatedVarint(uint32_t wire_type, std::vector<uint64_t>& out) {
  if (wire_type == kVarint) {
    FLOE_ASSIGN_OR_RETURN(uint64_t value, Varint());
    out.push_back(value);
    return Ok();
  }
  if (wire_type != kLength) return Truncated("repeated number of a wrong wire type");
  FLOE_ASSIGN_OR_RETURN(auto packed, Bytes());
  ProtoReader inner(packed);
  while (!inner.done()) {
    FLOE_ASSIGN_OR_RETURN(uint64_t value, inner.Varint());
    out.push_back(value);
  }
  return Ok();
}

Status ProtoReader::Skip(uint32_t wire_type) {
  switch (wire_type) {
    case kVarint: {
      FLOE_ASSIGN_OR_RETURN(uint64_t ignored, Varint());
      (void)ignored;
      return Ok();
    }
    case kFixed64:
    case kFixed32: {
      const size_t width = wire_type == kFixed64 ? 8 : 4;
      if (bytes_.size() - pos_ < width) return Truncated("fixed-width field runs past the end");
      pos_ += width;
      return Ok();
    }
    case kLength: {
      FLOE_ASSIGN_OR_RETURN(auto ignored, Bytes());
      (void)ignored;
      return Ok();
    }
    default:
      return Truncated("unknown wire type " + std::to_string(wire_type));
  }
}

}  // namespace floe::orc
