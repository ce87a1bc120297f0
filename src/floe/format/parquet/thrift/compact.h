#pragma once

// The Thrift compact protocol, as Parquet uses it for its footer, page headers and indexes: a
// reader over a byte span and a writer into a growing buffer. The reader never trusts the input:
// every length is checked against the bytes left, list and string sizes can never exceed what
// remains (so a corrupt header cannot make it allocate without bound), and nesting is limited so
// that it cannot recurse without bound. Errors are kCorruptData with the byte offset where decoding
// failed.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::parquet::thrift {

// Wire types of the compact protocol (the low nibble of a field header).
enum class WireType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

std::string_view WireTypeName(WireType type);

struct FieldHeader {
  WireType type = WireType::kStop;
  int16_t id = 0;
  bool is_stop() const { return type == WireType::kStop; }
  // A bool field carries its value in the type.
  bool bool_value() const { return type == WireType::kBoolTrue; }
};

struct ListHeader {
  WireType element_type = WireType::kStop;
  uint32_t size = 0;
};

class CompactReader {
 public:
  static constexpr int kMaxDepth = 64;

  explicit CompactReader(std::span<const std::byte> data) : data_(data) {}

  // Structs: BeginStruct, then ReadFieldHeader until it returns a stop, then EndStruct.
  Status BeginStruct();
  Result<FieldHeader> ReadFieldHeader();
  Status EndStruct();

  Result<int8_t> ReadByte();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  Result<double> ReadDouble();
  // A view into the input: valid as long as the input is.
  Result<std::string_view> ReadBinary();
  Result<ListHeader> ReadListHeader();
  // A bool inside a list (one byte); bool fields use FieldHeader::bool_value().
  Result<bool> ReadBoolElement();

  // Skips one value of the given type, recursively for containers and structs.
  Status Skip(WireType type);

  // Fails unless the field has the expected wire type (bool fields match either bool type).
  Status Expect(const FieldHeader& field, WireType type) const;

  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }

 private:
  Result<uint64_t> ReadVarint(int max_bytes);
  Status SkipDepth(WireType type, int depth);
  template <typename... Args>
  std::unexpected<Error> Corrupt(fmt::format_string<Args...> format, Args&&... args) const;

  std::span<const std::byte> data_;
  size_t pos_ = 0;
  // The last field id of each open struct: field ids are written as deltas from it.
  int16_t last_ids_[kMaxDepth] = {};
  int depth_ = 0;
};

// Writes the compact protocol into a byte buffer. Nothing can fail: the caller writes well-formed
// sequences (BeginStruct/EndStruct balanced, list sizes matching the elements written).
class CompactWriter {
 public:
  void BeginStruct();
  void EndStruct();  // writes the stop byte

  void WriteFieldHeader(int16_t id, WireType type);
  void WriteByte(int8_t value);
  void WriteI16(int16_t value);
  void WriteI32(int32_t value);
  void WriteI64(int64_t value);
  void WriteDouble(double value);
  void WriteBinary(std::string_view value);
  void WriteListHeader(WireType element_type, uint32_t size);
  void WriteBoolElement(bool value);

  // Whole fields, header and value.
  void BoolField(int16_t id, bool value);
  void ByteField(int16_t id, int8_t value);
  void I16Field(int16_t id, int16_t value);
  void I32Field(int16_t id, int32_t value);
  void I64Field(int16_t id, int64_t value);
  void DoubleField(int16_t id, double value);
  void BinaryField(int16_t id, std::string_view value);
  // Writes the header of a struct-valued field and opens the struct; close it with EndStruct.
  void BeginStructField(int16_t id);
  // Writes an empty struct field (the members of Thrift unions that carry no data).
  void EmptyStructField(int16_t id);

  const std::vector<std::byte>& buffer() const { return buffer_; }
  std::vector<std::byte> Release() { return std::move(buffer_); }

 private:
  void WriteVarint(uint64_t value);
  void PutByte(uint8_t byte) { buffer_.push_back(static_cast<std::byte>(byte)); }

  std::vector<std::byte> buffer_;
  std::vector<int16_t> last_ids_;
  int16_t last_id_ = 0;
};

}  // namespace floe::parquet::thrift
