#pragma once

// A reader of the protocol buffers wire format, as much as ORC's file tail needs: varints (with
// zigzag for sint fields), 64-bit fixed values (doubles), length-delimited fields (strings, bytes,
// nested messages, packed repeated numbers), and skipping of fields it does not know. A message is
// read by looping over Next() and switching on the field number. Every read is bounded by the
// input: a varint longer than 10 bytes, a length past the end or a wire type it cannot skip is a
// kCorruptData error naming the offset in the message.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::orc {

class ProtoReader {
 public:
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLength = 2, kFixed32 = 5 };

  explicit ProtoReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

  bool done() const { return pos_ >= bytes_.size(); }
  size_t position() const { return pos_; }

  // The next field's number and wire type.
  struct Tag {
    uint32_t field;
    uint32_t wire_type;
  };
  Result<Tag> Next();

  Result<uint64_t> Varint();
  Result<int64_t> SignedVarint();  // zigzag (sint32, sint64)
  Result<double> Double();         // fixed64
  // A length-delimited field's bytes, viewing the input.
  Result<std::span<const std::byte>> Bytes();
  Result<std::string> String();
  // One value of a repeated unsigned field, packed (appends them all) or not (appends one).
  Status RepeatedVarint(uint32_t wire_type, std::vector<uint64_t>& out);
  // Skips the field whose tag Next() just returned.
  Status Skip(uint32_t wire_type);

 private:
  std::unexpected<Error> Truncated(std::string_view what) const;

  std::span<const std::byte> bytes_;
  size_t pos_ = 0;
};

}  // namespace floe::orc
