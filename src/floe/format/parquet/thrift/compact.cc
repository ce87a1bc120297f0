#include "floe/format/parquet/thrift/compact.h"

#include <bit>
#include <cstring>

namespace floe::parquet::thrift {

namespace {

int64_t ZigzagDecode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
uint64_t ZigzagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

bool IsBool(WireType t) { return t == WireType::kBoolTrue || t == WireType::kBoolFalse; }

}  // namespace

std::string_view WireTypeName(WireType type) {
  switch (type) {
    case WireType::kStop:
      return "stop";
    case WireType::kBoolTrue:
    case WireType::kBoolFalse:
      return "bool";
    case WireType::kByte:
      return "byte";
    case WireType::kI16:
      return "i16";
    case WireType::kI32:
      return "i32";
    case WireType::kI64:
      return "i64";
    case WireType::kDouble:
      return "double";
    case WireType::kBinary:
      return "binary";
    case WireType::kList:
      return "list";
    case WireType::kSet:
      return "set";
    case WireType::kMap:
      return "map";
    case WireType::kStruct:
      return "struct";
  }
  return "invalid";
}

template <typename... Args>
std::unexpected<Error> CompactReader::Corrupt(fmt::format_string<Args...> format,
                                              Args&&... args) const {
  return CorruptData("thrift: {} at offset {}", fmt::format(format, std::forward<Args>(args)...),
                     pos_);
}

Result<uint64_t> CompactReader::ReadVarint(int max_bytes) {
  uint64_t value = 0;
  for (int i = 0; i < max_bytes; ++i) {
    if (pos_ >= data_.size()) return Corrupt("varint runs past the end");
    auto byte = static_cast<uint8_t>(data_[pos_++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return value;
  }
  return Corrupt("varint longer than {} bytes", max_bytes);
}

Status CompactReader::BeginStruct() {
  if (depth_ >= kMaxDepth) return Corrupt("structs nested deeper than {}", kMaxDepth);
  last_ids_[depth_++] = 0;
  return Ok();
}

Status CompactReader::EndStruct() {
  if (depth_ == 0) return InternalError("thrift: EndStruct without BeginStruct");
  --depth_;
  return Ok();
}

Result<FieldHeader> CompactReader::ReadFieldHeader() {
  if (depth_ == 0) return InternalError("thrift: field header outside a struct");
  if (pos_ >= data_.size()) return Corrupt("struct runs past the end");
  auto byte = static_cast<uint8_t>(data_[pos_++]);
  FieldHeader header;
  uint8_t type = byte & 0x0f;
  if (type > static_cast<uint8_t>(WireType::kStruct)) return Corrupt("invalid field type {}", type);
  header.type = static_cast<WireType>(type);
  if (header.type == WireType::kStop) return header;
  int delta = byte >> 4;
  int16_t& last = last_ids_[depth_ - 1];
  if (delta != 0) {
    header.id = static_cast<int16_t>(last + delta);
  } else {
    FLOE_ASSIGN_OR_RETURN(header.id, ReadI16());
  }
  last = header.id;
  return header;
}

Result<int8_t> CompactReader::ReadByte() {
  if (pos_ >= data_.size()) return Corrupt("byte past the end");
  return static_cast<int8_t>(data_[pos_++]);
}

Result<int16_t> CompactReader::ReadI16() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint(3));
  int64_t value = ZigzagDecode(v);
  if (value < INT16_MIN || value > INT16_MAX) return Corrupt("i16 out of range: {}", value);
  return static_cast<int16_t>(value);
}

Result<int32_t> CompactReader::ReadI32() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint(5));
  int64_t value = ZigzagDecode(v);
  if (value < INT32_MIN || value > INT32_MAX) return Corrupt("i32 out of range: {}", value);
  return static_cast<int32_t>(value);
}

Result<int64_t> CompactReader::ReadI64() {
  FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadVarint(10));
  return ZigzagDecode(v);
}

Result<double> CompactReader::ReadDouble() {
  if (remaining() < 8) return Corrupt("double past the end");
  uint64_t bits = 0;
  std::memcpy(&bits, data_.data() + pos_, 8);
  if constexpr (std::endian::native == std::endian::big) bits = std::byteswap(bits);
  pos_ += 8;
  return std::bit_cast<double>(bits);
}

Result<std::string_view> CompactReader::ReadBinary() {
  FLOE_ASSIGN_OR_RETURN(uint64_t length, ReadVarint(5));
  if (length > remaining()) {
    return Corrupt("binary of {} bytes with only {} left", length, remaining());
  }
  std::string_view view(reinterpret_cast<const char*>(data_.data() + pos_), length);
  pos_ += length;
  return view;
}

Result<ListHeader> CompactReader::ReadListHeader() {
  if (pos_ >= data_.size()) return Corrupt("list header past the end");
  auto byte = static_cast<uint8_t>(data_[pos_++]);
  ListHeader header;
  uint8_t type = byte & 0x0f;
  if (type == 0 || type > static_cast<uint8_t>(WireType::kStruct)) {
    return Corrupt("invalid list element type {}", type);
  }
  header.element_type = static_cast<WireType>(type);
  uint64_t size = byte >> 4;
  if (size == 15) {
    FLOE_ASSIGN_OR_RETURN(size, ReadVarint(5));
  }
  // Every element takes at least one byte, so a larger size is corrupt; this bounds what callers
  // reserve for the list by the input size.
  if (size > remaining())
    return Corrupt("list of {} elements with {} bytes left", size, remaining());
  header.size = static_cast<uint32_t>(size);
  return header;
}

Result<bool> CompactReader::ReadBoolElement() {
  FLOE_ASSIGN_OR_RETURN(int8_t byte, ReadByte());
  // The compact protocol writes 1 for true; writers disagree on false (2 or 0).
  return byte == 1;
}

Status CompactReader::Expect(const FieldHeader& field, WireType type) const {
  if (field.type == type || (IsBool(field.type) && IsBool(type))) return Ok();
  return Corrupt("field {} has type {}, expected {}", field.id, WireTypeName(field.type),
                 WireTypeName(type));
}

Status CompactReader::Skip(WireType type) { return SkipDepth(type, depth_); }

Status CompactReader::SkipDepth(WireType type, int depth) {
  if (depth >= kMaxDepth) return Corrupt("values nested deeper than {}", kMaxDepth);
  switch (type) {
    case WireType::kBoolTrue:
    case WireType::kBoolFalse:
      return Ok();  // the value is in the field header
    case WireType::kByte:
      FLOE_RETURN_IF_ERROR(ReadByte());
      return Ok();
    case WireType::kI16:
    case WireType::kI32:
    case WireType::kI64:
      FLOE_RETURN_IF_ERROR(ReadVarint(10));
      return Ok();
    case WireType::kDouble:
      if (remaining() < 8) return Corrupt("double past the end");
      pos_ += 8;
      return Ok();
    case WireType::kBinary:
      FLOE_RETURN_IF_ERROR(ReadBinary());
      return Ok();
    case WireType::kList:
    case WireType::kSet: {
      FLOE_ASSIGN_OR_RETURN(ListHeader list, ReadListHeader());
      for (uint32_t i = 0; i < list.size; ++i) {
        if (IsBool(list.element_type)) {
          FLOE_RETURN_IF_ERROR(ReadByte());
        } else {
          FLOE_RETURN_IF_ERROR(SkipDepth(list.element_type, depth + 1));
        }
      }
      return Ok();
    }
    case WireType::kMap: {
      FLOE_ASSIGN_OR_RETURN(uint64_t size, ReadVarint(5));
      if (size == 0) return Ok();
      if (size > remaining())
        return Corrupt("map of {} entries with {} bytes left", size, remaining());
      FLOE_ASSIGN_OR_RETURN(int8_t types, ReadByte());
      auto key = static_cast<uint8_t>(types) >> 4;
      auto value = static_cast<uint8_t>(types) & 0x0f;
      for (uint8_t t : {static_cast<uint8_t>(key), static_cast<uint8_t>(value)}) {
        if (t == 0 || t > static_cast<uint8_t>(WireType::kStruct)) {
          return Corrupt("invalid map element type {}", t);
        }
      }
      for (uint64_t i = 0; i < size; ++i) {
        for (uint8_t t : {static_cast<uint8_t>(key), static_cast<uint8_t>(value)}) {
          auto wire = static_cast<WireType>(t);
          if (IsBool(wire)) {
            FLOE_RETURN_IF_ERROR(ReadByte());
          } else {
            FLOE_RETURN_IF_ERROR(SkipDepth(wire, depth + 1));
          }
        }
      }
      return Ok();
    }
    case WireType::kStruct: {
      FLOE_RETURN_IF_ERROR(BeginStruct());
      while (true) {
        FLOE_ASSIGN_OR_RETURN(FieldHeader field, ReadFieldHeader());
        if (field.is_stop()) break;
        FLOE_RETURN_IF_ERROR(SkipDepth(field.type, depth_));
      }
      return EndStruct();
    }
    case WireType::kStop:
      break;
  }
  return Corrupt("cannot skip a value of type {}", static_cast<int>(type));
}

void CompactWriter::WriteVarint(uint64_t value) {
  while (value >= 0x80) {
    PutByte(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  PutByte(static_cast<uint8_t>(value));
}

void CompactWriter::BeginStruct() {
  last_ids_.push_back(last_id_);
  last_id_ = 0;
}

void CompactWriter::EndStruct() {
  PutByte(0);
  last_id_ = last_ids_.back();
  last_ids_.pop_back();
}

void CompactWriter::WriteFieldHeader(int16_t id, WireType type) {
  int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    PutByte(static_cast<uint8_t>(delta << 4 | static_cast<uint8_t>(type)));
  } else {
    PutByte(static_cast<uint8_t>(type));
    WriteI16(id);
  }
  last_id_ = id;
}

void CompactWriter::WriteByte(int8_t value) { PutByte(static_cast<uint8_t>(value)); }
void CompactWriter::WriteI16(int16_t value) { WriteVarint(ZigzagEncode(value)); }
void CompactWriter::WriteI32(int32_t value) { WriteVarint(ZigzagEncode(value)); }
void CompactWriter::WriteI64(int64_t value) { WriteVarint(ZigzagEncode(value)); }

void CompactWriter::WriteDouble(double value) {
  auto bits = std::bit_cast<uint64_t>(value);
  if constexpr (std::endian::native == std::endian::big) bits = std::byteswap(bits);
  for (int i = 0; i < 8; ++i) PutByte(static_cast<uint8_t>(bits >> (8 * i)));
}

void CompactWriter::WriteBinary(std::string_view value) {
  WriteVarint(value.size());
  auto bytes = reinterpret_cast<const std::byte*>(value.data());
  buffer_.insert(buffer_.end(), bytes, bytes + value.size());
}

void CompactWriter::WriteListHeader(WireType element_type, uint32_t size) {
  if (size < 15) {
    PutByte(static_cast<uint8_t>(size << 4 | static_cast<uint8_t>(element_type)));
  } else {
    PutByte(static_cast<uint8_t>(0xf0 | static_cast<uint8_t>(element_type)));
    WriteVarint(size);
  }
}

void CompactWriter::WriteBoolElement(bool value) { PutByte(value ? 1 : 2); }

void CompactWriter::BoolField(int16_t id, bool value) {
  WriteFieldHeader(id, value ? WireType::kBoolTrue : WireType::kBoolFalse);
}
void CompactWriter::ByteField(int16_t id, int8_t value) {
  WriteFieldHeader(id, WireType::kByte);
  WriteByte(value);
}
void CompactWriter::I16Field(int16_t id, int16_t value) {
  WriteFieldHeader(id, WireType::kI16);
  WriteI16(value);
}
void CompactWriter::I32Field(int16_t id, int32_t value) {
  WriteFieldHeader(id, WireType::kI32);
  WriteI32(value);
}
void CompactWriter::I64Field(int16_t id, int64_t value) {
  WriteFieldHeader(id, WireType::kI64);
  WriteI64(value);
}
void CompactWriter::DoubleField(int16_t id, double value) {
  WriteFieldHeader(id, WireType::kDouble);
  WriteDouble(value);
}
void CompactWriter::BinaryField(int16_t id, std::string_view value) {
  WriteFieldHeader(id, WireType::kBinary);
  WriteBinary(value);
}
void CompactWriter::BeginStructField(int16_t id) {
  WriteFieldHeader(id, WireType::kStruct);
  BeginStruct();
}
void CompactWriter::EmptyStructField(int16_t id) {
  BeginStructField(id);
  EndStruct();
}

}  // namespace floe::parquet::thrift
