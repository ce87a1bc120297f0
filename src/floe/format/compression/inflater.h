#pragma once

// Raw deflate decompression of many small streams in a row (Avro blocks), which is where manifest
// reading spends much of its time: one libdeflate decompressor is kept for every stream, and the
// output goes to one buffer that is reused and only grows, never zero-filled. Output beyond a
// caller limit is a kResourceExhausted error and nothing past the limit is allocated; corrupt or
// truncated input is kCorruptData. Not thread-safe; one per reader.

#include <cstddef>
#include <memory>
#include <span>

#include "floe/util/error.h"

namespace floe::compression {

class Inflater {
 public:
  Inflater();
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Decompresses one raw deflate stream. The result views the reused buffer and stays valid until
  // the next call.
  Result<std::span<const std::byte>> Inflate(std::span<const std::byte> input, size_t max_output);

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::unique_ptr<std::byte[]> buffer_;
  size_t capacity_ = 0;
};

}  // namespace floe::compression
