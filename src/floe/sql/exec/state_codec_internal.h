#pragma once

// Bytes of operator state for checkpoints: fixed-width integers and length-prefixed strings in
// host byte order (checkpoints are restored by the same build on the same kind of machine).
// StateReader fails with kCorruptData when an entry ends early.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "floe/util/error.h"

namespace floe::sql::exec {

class StateWriter {
 public:
  template <typename T>
  void Fixed(T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out_.append(bytes, sizeof(T));
  }
  void Int64(int64_t value) { Fixed(value); }
  void Bytes(std::string_view bytes) {
    Int64(static_cast<int64_t>(bytes.size()));
    out_.append(bytes);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class StateReader {
 public:
  explicit StateReader(std::string_view in) : in_(in) {}
  bool done() const { return in_.empty(); }

  template <typename T>
  Result<T> Fixed() {
    if (in_.size() < sizeof(T)) return CorruptData("operator state ends early");
    T value;
    std::memcpy(&value, in_.data(), sizeof(T));
    in_.remove_prefix(sizeof(T));
    return value;
  }
  Result<int64_t> Int64() { return Fixed<int64_t>(); }
  Result<std::string_view> Bytes() {
    FLOE_ASSIGN_OR_RETURN(int64_t size, Int64());
    if (size < 0 || static_cast<uint64_t>(size) > in_.size()) {
      return CorruptData("operator state: a {}-byte string does not fit in {} bytes", size,
                         in_.size());
    }
    std::string_view bytes = in_.substr(0, static_cast<size_t>(size));
    in_.remove_prefix(static_cast<size_t>(size));
    return bytes;
  }

 private:
  std::string_view in_;
};

}  // namespace floe::sql::exec
