#pragma once

// Memory for columnar data. A Buffer is an immutable, reference-counted view of bytes: copies and
// slices share the storage, which is freed when the last view goes. Memory floe allocates is
// 64-byte aligned and padded to a multiple of 64 bytes (as Arrow recommends), so SIMD loops may
// read whole words past the end of a buffer's last value. Buffers may also wrap foreign memory
// (e.g. an imported Arrow array) whose owner is kept alive by the buffer.
//
// A BufferBuilder is the mutable, move-only counterpart that grows by doubling; Finish() hands its
// bytes over to a Buffer without copying.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace floe {

inline constexpr int64_t kBufferAlignment = 64;

class Buffer {
 public:
  Buffer() = default;
  // Views size bytes at data, keeping owner alive as long as any view exists.
  Buffer(std::shared_ptr<const void> owner, const uint8_t* data, int64_t size)
      : owner_(std::move(owner)), data_(data), size_(size) {}

  // A fresh, aligned, zero-filled buffer of size bytes.
  static Buffer Zeroed(int64_t size);
  static Buffer CopyOf(const void* data, int64_t size);
  static Buffer CopyOf(std::string_view bytes) { return CopyOf(bytes.data(), bytes.size()); }

  const uint8_t* data() const { return data_; }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(data_);
  }
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  explicit operator bool() const { return data_ != nullptr; }
  std::span<const uint8_t> span() const { return {data_, static_cast<size_t>(size_)}; }

  // Shares storage; the caller keeps offset + length within size().
  Buffer Slice(int64_t offset, int64_t length) const {
    return Buffer(owner_, data_ + offset, length);
  }
  Buffer Slice(int64_t offset) const { return Slice(offset, size_ - offset); }

  const std::shared_ptr<const void>& owner() const { return owner_; }

 private:
  std::shared_ptr<const void> owner_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

class BufferBuilder {
 public:
  BufferBuilder() = default;
  ~BufferBuilder();
  BufferBuilder(BufferBuilder&& other) noexcept;
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;

  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  template <typename T>
  T* mutable_data_as() {
    return reinterpret_cast<T*>(data_);
  }

  // Ensures room for additional more bytes, at least doubling the capacity when it grows.
  void Reserve(int64_t additional) {
    if (size_ + additional > capacity_) Grow(size_ + additional);
  }
  // Sets the size; new bytes are zero.
  void Resize(int64_t new_size);
  // Sets the size; new bytes are left for the caller to write (zeroing them first would cost a
  // pass over memory the caller fills anyway).
  void ResizeUninitialized(int64_t new_size) {
    if (new_size > size_) Reserve(new_size - size_);
    size_ = new_size;
  }
  void Append(const void* bytes, int64_t n) {
    Reserve(n);
    UnsafeAppend(bytes, n);
  }
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void Append(T value) {
    Reserve(sizeof(T));
    UnsafeAppend(value);
  }
  template <typename T>
  void UnsafeAppend(T value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }
  // Appends n zero bytes.
  void AppendZeros(int64_t n);

  // The bytes so far as a Buffer (padding zeroed); the builder is empty afterwards.
  Buffer Finish();
  void Reset();

 private:
  void Grow(int64_t min_capacity);

  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

// Bitmaps (validity and bool values) use Arrow's order: bit i is (byte[i / 8] >> (i % 8)) & 1.
namespace bit_util {

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
}
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  // Branch-free so that builders appending random validity do not mispredict.
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~(1u << (i & 7))) |
                                      (static_cast<unsigned>(value) << (i & 7)));
}
inline int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

// Number of set bits in [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);
// Sets bits [offset, offset + length) to value.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);
// Copies length bits from src at src_offset to dst at dst_offset.
void CopyBits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
              int64_t dst_offset);

}  // namespace bit_util

// Appends bits to a growing bitmap; used for validity and bool values.
class BitmapBuilder {
 public:
  int64_t length() const { return length_; }
  void Reserve(int64_t additional_bits) {
    int64_t needed = bit_util::BytesForBits(length_ + additional_bits);
    if (needed > bytes_.size()) bytes_.Resize(std::max(needed, bytes_.size() * 2));
  }
  void Append(bool value) {
    Reserve(1);
    UnsafeAppend(value);
  }
  void UnsafeAppend(bool value) { bit_util::SetBitTo(bytes_.mutable_data(), length_++, value); }
  void AppendN(int64_t n, bool value) {
    Reserve(n);
    bit_util::SetBitsTo(bytes_.mutable_data(), length_, n, value);
    length_ += n;
  }
  // Appends n bits of a bitmap starting at bit offset.
  void AppendBits(const uint8_t* bits, int64_t offset, int64_t n) {
    Reserve(n);
    bit_util::CopyBits(bits, offset, n, bytes_.mutable_data(), length_);
    length_ += n;
  }
  bool Get(int64_t i) const { return bit_util::GetBit(bytes_.data(), i); }
  void Set(int64_t i, bool value) { bit_util::SetBitTo(bytes_.mutable_data(), i, value); }
  Buffer Finish();
  void Reset() {
    bytes_.Reset();
    length_ = 0;
  }

 private:
  // Its size is the bytes in use or more; bits past length_ are zero.
  BufferBuilder bytes_;
  int64_t length_ = 0;
};

}  // namespace floe
